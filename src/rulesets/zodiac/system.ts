import { diceDistribution } from '../../dice/index.js';
import type { ActionOdds, EncounterView, GameSystem } from '../system.js';
import { BLIND_PENALTY, FLYING_PENALTY, judgeAttack } from './attack.js';
import { damageCap, weaponDice } from './combat.js';
import type { ZodiacCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  STARTER_CONTENT_DIR,
  zodiacKinds,
  zodiacSetupFrom,
} from './content.js';
import { CRITICAL, computeDamage } from './damage.js';
import { describeEvents } from './describe.js';
import type { ZodiacEvent } from './events.js';
import { levelFactor } from './evolve.js';
import type { ZodiacSetup } from './model.js';
import { zodiac } from './ruleset.js';
import { currentEntry, effectiveSpeed, hasStatus, isFighting, type ZodiacState } from './state.js';
import { STATUSES } from './statuses.js';

/**
 * The round, the tick, and everyone's Speed Points: the tick's turns in order (the current one
 * marked, simultaneous ones joined by `=`), then those who wait for the next round.
 */
function view(state: ZodiacState): EncounterView {
  const entry = currentEntry(state);
  const timing =
    state.phase === 'ended'
      ? `Over in round ${state.round}, tick ${state.tick}`
      : state.phase === 'start'
        ? 'Before round 1: everyone will gain Speed + 1d8 SP'
        : `Round ${state.round}, tick ${state.tick}`;
  const order: string[] = [];
  const listed = new Set<string>();
  const line = (mark: string, id: string, note: string): string => {
    const c = state.combatants[id]!;
    return `${mark} ${c.sheet.name}: SP ${c.sp}, Speed ${effectiveSpeed(c)}${note}`;
  };
  state.queue.forEach((e, i) => {
    listed.add(e.id);
    const mark = i === state.cursor ? '>' : ' ';
    const together =
      state.queue[i - 1]?.group === e.group || state.queue[i + 1]?.group === e.group
        ? ' (simultaneous)'
        : '';
    const done = i < state.cursor ? ' (done this tick)' : '';
    order.push(line(mark, e.id, `${together}${done}`));
  });
  for (const id of state.order)
    if (!listed.has(id) && state.phase !== 'start')
      order.push(line(' ', id, ' (no turn this tick)'));
  return {
    timing,
    order,
    actor: entry?.id ?? null,
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    combatants: state.order.map((id) => {
      const c = state.combatants[id]!;
      const statuses = c.statuses.map((s) => ({
        name: STATUSES[s.status].name,
        timer:
          s.ticks !== null
            ? `${s.ticks} ticks`
            : s.untilRound !== null
              ? `end of round ${s.untilRound}`
              : STATUSES[s.status].duration === 'permanent'
                ? 'Permanent'
                : 'battle',
      }));
      if (c.unconscious)
        statuses.unshift({ name: c.dead ? 'Dead' : 'Unconscious', timer: 'Permanent' });
      if (c.defending) statuses.push({ name: 'Defending', timer: 'turn' });
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.maxHp,
        mp: c.mp,
        maxMp: c.sheet.stats.mp,
        out: !isFighting(c),
        statuses,
      };
    }),
  };
}

function percent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

/**
 * An attack's odds, exactly: the d100 against Evade (Blind and range included, a natural 90+
 * always hitting), and the damage on a hit and on a critical hit through the whole pipeline.
 */
function odds(state: ZodiacState, command: ZodiacCommand): ActionOdds | undefined {
  if (command.type !== 'attack') return undefined;
  const actor = state.combatants[command.actor];
  const target = state.combatants[command.target];
  if (actor === undefined || target === undefined) return undefined;
  let penalty = hasStatus(actor, 'blind') ? BLIND_PENALTY : 0;
  if (target.sheet.flying && actor.sheet.weapon?.range !== 'long') penalty += FLYING_PENALTY;
  const { accuracy, critical } = actor.sheet.stats;
  const evade = target.sheet.stats.evade;
  let hits = 0;
  let criticals = 0;
  for (let natural = 1; natural <= 100; natural++) {
    const judged = judgeAttack(natural, accuracy, evade, critical, penalty);
    if (judged.hit) hits++;
    if (judged.critical) criticals++;
  }
  const { dice, die, power } = weaponDice(actor, undefined);
  const factor = levelFactor(state.setup);
  const base = diceDistribution(`(${dice}d${die}*10+${power})*${factor}`);
  const element = actor.sheet.weapon?.element;
  const dealt = (critical: boolean): string => {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    let mean = 0;
    for (const [value, p] of base.distribution) {
      const { amount, absorbed } = computeDamage({
        base: value,
        dealt: critical ? [CRITICAL] : [],
        taken: [],
        element,
        affinity: element === undefined ? undefined : target.sheet.affinities[element],
        stone: hasStatus(target, 'stone'),
        cap: damageCap(state.setup),
        explain: false,
      });
      const signed = absorbed ? -amount : amount;
      low = Math.min(low, signed);
      high = Math.max(high, signed);
      mean += signed * p;
    }
    return `${low} to ${high}, mean ${mean.toFixed(1)}`;
  };
  return {
    lines: [
      `${actor.sheet.name} attacks ${target.sheet.name}: d100 + Accuracy ${accuracy}${penalty > 0 ? ` - ${penalty}` : ''} against Evade ${evade}`,
      `  hits ${percent(hits / 100)} (critical ${percent(criticals / 100)}), misses ${percent(1 - hits / 100)}`,
      `  damage on a hit: ${dealt(false)}; on a critical hit: ${dealt(true)} (before Defend, Barrier and Mini)`,
      `  ${target.sheet.name} has ${target.hp} HP`,
    ],
  };
}

/** ZODIAC for the tools: encounter files, views, event descriptions, statistics. */
export const zodiacSystem: GameSystem<
  ZodiacSetup,
  ZodiacState,
  ZodiacCommand,
  ZodiacEvent,
  EncounterSpec
> = {
  ruleset: zodiac,
  kinds: zodiacKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: zodiacSetupFrom,
  view,
  brief(state) {
    const entry = currentEntry(state);
    return {
      actor: entry?.id ?? null,
      combatants: state.order.map((id) => {
        const c = state.combatants[id]!;
        return { id, side: c.side, hp: c.hp, out: !isFighting(c) };
      }),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type !== 'damage-dealt' || event.absorbed || event.source === null) return undefined;
    return { source: event.source, target: event.target, amount: event.amount };
  },
  rounds: (state) => state.round,
  odds,
};
