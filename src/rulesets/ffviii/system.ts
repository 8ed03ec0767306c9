import { diceDistribution } from '../../dice/index.js';
import type { ActionOdds, EncounterView, GameSystem } from '../system.js';
import { ACTION_DICE } from './action-dice.js';
import type { FfviiiCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  ffviiiKinds,
  ffviiiSetupFrom,
  STARTER_CONTENT_DIR,
} from './content.js';
import { describeEvents, skillName } from './describe.js';
import type { FfviiiEvent } from './events.js';
import type { FfviiiSetup } from './model.js';
import { carriedName } from './names.js';
import { ffviii } from './ruleset.js';
import {
  actionValue,
  actorNow,
  bestSkill,
  dodgeRating,
  type FfviiiState,
  inFight,
  spiritAgainst,
  weaponOf,
} from './state.js';

function view(state: FfviiiState): EncounterView {
  const timing =
    state.phase === 'ended'
      ? `Over after round ${state.round}`
      : state.phase === 'initiative'
        ? `Round ${state.round + 1}: before initiative`
        : `Round ${state.round}, Shot ${state.shot} of ${state.shots}`;
  const actor = actorNow(state);
  // The shot clock: who acts on which shot, highest first; debts and carried actions shown.
  const order = [...state.order]
    .map((id) => state.combatants[id]!)
    .sort((a, b) => b.shot - a.shot)
    .map((c) => {
      const mark = actor?.id === c.id ? '>' : ' ';
      const waiting = state.phase === 'initiative';
      const when =
        !inFight(c) || waiting ? '  -' : c.shot === 0 ? ' --' : String(c.shot).padStart(3);
      const notes = [
        !inFight(c) ? (c.fled ? 'fled' : 'down') : c.shot === 0 && !waiting ? 'no shots left' : '',
        c.debt > 0 ? `${c.debt} shots of debt` : '',
        c.carrying === null ? '' : `carrying ${carriedName(state, c, c.carrying)}`,
      ].filter((n) => n !== '');
      return `${mark} ${when} ${c.sheet.name}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
    });
  return {
    timing,
    order,
    actor: actor?.id ?? null,
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    combatants: state.order.map((id) => {
      const c = state.combatants[id]!;
      const stock = Object.entries(c.matrix)
        .filter(([, n]) => n > 0)
        .map(([spell, n]) => ({ name: state.setup.spells[spell]?.name ?? spell, timer: `x${n}` }));
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.sheet.hp,
        mp: 0,
        maxMp: 0,
        out: !inFight(c),
        statuses: stock,
      };
    }),
  };
}

function percent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

/** P(action dice >= need), from the exact distribution of fs. */
function atLeast(need: number): number {
  let p = 0;
  for (const [value, weight] of diceDistribution(ACTION_DICE).distribution)
    if (value >= need) p += weight;
  return p;
}

/**
 * The chance an action succeeds. Under `boxcars: always` boxcars fail whatever they total; and
 * after two first sixes the dice go on as a fresh fs, so those are 1/36 of every total's chance.
 */
function successChance(state: FfviiiState, need: number): number {
  return state.setup.options.boxcars === 'always' ? (atLeast(need) * 35) / 36 : atLeast(need);
}

/**
 * An attack's or a spell's odds, exactly: the chance the action dice reach the difficulty,
 * with and without the target dodging, and the damage a hit does.
 */
function odds(state: FfviiiState, command: FfviiiCommand): ActionOdds | undefined {
  if (command.type !== 'attack' && command.type !== 'cast') return undefined;
  const actor = state.combatants[command.actor];
  const target = state.combatants[command.target];
  if (actor === undefined || target === undefined) return undefined;
  const bonus = state.setup.options.dodgeBonus;
  if (command.type === 'attack') {
    const weapon = weaponOf(actor, command.weapon);
    if (weapon === undefined) return undefined;
    const { skill, actionValue: av } = bestSkill(actor.sheet, weapon.skills);
    const dodge = dodgeRating(state, target);
    const rating =
      (weapon.damage.strength ? actor.sheet.attributes.strength : 0) + weapon.damage.bonus;
    const toughness = target.sheet.attributes.toughness;
    // Damage = rating + margin - Toughness: it hurts once the margin reaches Toughness - rating + 1.
    const hurts = (d: number) => successChance(state, Math.max(d, d + toughness - rating + 1) - av);
    return {
      lines: [
        `${actor.sheet.name} attacks ${target.sheet.name} with ${weapon.name}: ${skillName(skill)} AV ${av} + action dice against Dodge ${dodge}`,
        `  hits ${percent(successChance(state, dodge - av))}; if ${target.sheet.name} dodges (Dodge ${dodge + bonus}): ${percent(successChance(state, dodge + bonus - av))}`,
        `  damage ${rating} + margin - Toughness ${toughness}: draws blood ${percent(hurts(dodge))} (dodging: ${percent(hurts(dodge + bonus))})`,
        `  ${target.sheet.name} has ${target.hp} HP`,
      ],
    };
  }
  const spell = state.setup.spells[command.spell];
  if (spell === undefined) return undefined;
  const av = actionValue(actor.sheet, 'sorcery');
  const rating = av + spell.power;
  if (spell.willing)
    return {
      lines: [
        `${actor.sheet.name} casts ${spell.name} on ${target.sheet.name}: Sorcery AV ${av}, any positive result`,
        `  succeeds ${percent(successChance(state, 1 - av))}; ${spell.effect === 'heal' ? `heals ${rating}` : `rating ${rating}`}`,
      ],
    };
  const evade = target.sheet.attributes.magicEvade;
  const spirit = spiritAgainst(target, spell.element);
  const spiritName =
    spell.element !== undefined && spirit !== target.sheet.attributes.spirit
      ? `Spirit against ${spell.element}`
      : 'Spirit';
  return {
    lines: [
      `${actor.sheet.name} casts ${spell.name} on ${target.sheet.name}: Sorcery AV ${av} against Magic Evade ${evade}`,
      `  lands ${percent(successChance(state, evade - av))}; if ${target.sheet.name} dodges (${evade + bonus}): ${percent(successChance(state, evade + bonus - av))}`,
      `  damage ${rating} - ${spiritName} ${spirit} = ${Math.max(0, rating - spirit)} (no bonus for accuracy on magic)`,
    ],
  };
}

/** The FFVIII RPG for the tools: encounter files, the shot clock view, statistics, odds. */
export const ffviiiSystem: GameSystem<
  FfviiiSetup,
  FfviiiState,
  FfviiiCommand,
  FfviiiEvent,
  EncounterSpec
> = {
  ruleset: ffviii,
  kinds: ffviiiKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: ffviiiSetupFrom,
  view,
  brief(state) {
    return {
      actor: actorNow(state)?.id ?? null,
      combatants: state.order.map((id) => {
        const c = state.combatants[id]!;
        return { id, side: c.side, hp: c.hp, out: !inFight(c) };
      }),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type !== 'damage-dealt' || event.source === event.target) return undefined;
    return { source: event.source, target: event.target, amount: event.amount };
  },
  rounds: (state) => state.round,
  odds,
};
