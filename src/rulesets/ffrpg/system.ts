import { diceDistribution } from '../../dice/index.js';
import type { ActionOdds, EncounterView, GameSystem } from '../system.js';
import { weaponOf } from './actions.js';
import type { FfrpgCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  ffrpgKinds,
  ffrpgSetupFrom,
  STARTER_CONTENT_DIR,
} from './content.js';
import { computeDamage } from './damage.js';
import { describeEvents } from './describe.js';
import type { FfrpgEvent } from './events.js';
import type { FfrpgSetup } from './model.js';
import { passives, stat, variablesOf } from './resolution.js';
import { ffrpg } from './ruleset.js';
import { currentEntry, type FfrpgState, isActive } from './state.js';

function view(state: FfrpgState): EncounterView {
  const entry = currentEntry(state);
  const name = (id: string): string =>
    state.combatants[id]?.sheet.name ?? state.setup.events.find((e) => e.id === id)?.name ?? id;
  const timing =
    state.phase === 'ended'
      ? `Over after round ${state.round}`
      : state.phase === 'initiative'
        ? `Round ${state.round + 1}: Initiative Phase`
        : `Round ${state.round}, Initiative ${entry?.count ?? 0}`;
  const order = state.timeline.map((e, i) => {
    const mark = i === state.cursor ? '>' : i < state.cursor ? ' ' : ' ';
    const done = i < state.cursor ? ' (done)' : '';
    const what =
      e.kind === 'charge'
        ? `charge: ${name(state.charging.find((c) => c.id === e.id)?.actor ?? e.id)}`
        : name(e.id);
    return `${mark} ${String(e.count).padStart(3)} ${what}${done}`;
  });
  return {
    timing,
    order,
    actor: entry?.kind === 'combatant' ? entry.id : null,
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    combatants: state.order.map((id) => {
      const c = state.combatants[id]!;
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.sheet.stats.hp,
        mp: c.mp,
        maxMp: c.sheet.stats.mp,
        out: !isActive(c),
        statuses: c.statuses.map((s) => ({
          name: state.setup.statuses[s.status]?.name ?? s.status,
          timer: s.timer === 'infinite' ? '∞' : String(s.timer),
        })),
      };
    }),
  };
}

function percent(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

/**
 * An attack's odds, exactly: the d% against the CoS, and the damage on a hit (and on a Critical
 * Hit) through the whole pipeline, armour, barriers, cap and Rule of 1 included.
 */
function odds(state: FfrpgState, command: FfrpgCommand): ActionOdds | undefined {
  if (command.type !== 'attack') return undefined;
  const actor = state.combatants[command.actor];
  const target = state.combatants[command.target];
  if (actor === undefined || target === undefined) return undefined;
  const weapon = weaponOf(actor);
  const skill = weapon.skill === undefined ? 0 : (actor.sheet.skills[weapon.skill] ?? 0);
  const magical = weapon.damageType === 'magical';
  const eva = stat(state, target, magical ? 'meva' : 'eva');
  const cos = stat(state, actor, 'acc') + skill - eva;
  const { botchAlwaysFails } = state.setup.options;
  // d% outcomes 1..100: hit on <= CoS or <= 10 (Rule of 10), never on 95+ with botchAlwaysFails.
  let hit = 0;
  let critical = 0;
  for (let roll = 1; roll <= 100; roll++) {
    const success = (roll <= cos || roll <= 10) && !(botchAlwaysFails && roll >= 95);
    if (!success) continue;
    hit++;
    if (roll <= 10 && roll <= cos) critical++;
  }
  const damage = diceDistribution(weapon.damage, {
    variables: variablesOf(state, actor, weapon.skill),
  });
  const barriers = passives(state, target)
    .filter(
      (p) => p.effect.kind === 'damage-taken-percent' && p.effect.damage === weapon.damageType,
    )
    .map(
      (p) => [p.source, p.effect.kind === 'damage-taken-percent' ? p.effect.percent : 0] as const,
    );
  const dealt = (critical: boolean): Map<number, number> => {
    const out = new Map<number, number>();
    for (const [base, p] of damage.distribution) {
      const { amount } = computeDamage({
        base,
        percents: critical ? [['Critical', state.setup.options.criticalDamagePercent]] : [],
        armor: {
          name: magical ? 'M. ARM' : 'ARM',
          value: stat(state, target, magical ? 'marm' : 'arm'),
        },
        barriers,
        affinity:
          weapon.element === undefined ? undefined : target.sheet.affinities[weapon.element],
        cap: state.setup.options.damageCap,
      });
      out.set(amount, (out.get(amount) ?? 0) + p);
    }
    return out;
  };
  const summary = (dist: Map<number, number>): string => {
    const values = [...dist.keys()].sort((a, b) => a - b);
    const mean = values.reduce((sum, v) => sum + v * (dist.get(v) ?? 0), 0);
    return `${values[0]} to ${values.at(-1)}, mean ${mean.toFixed(1)}`;
  };
  return {
    lines: [
      `${actor.sheet.name} attacks ${target.sheet.name}: CoS ${cos} (ACC + ${weapon.skill ?? 'no Skill'} - ${magical ? 'M. EVA' : 'EVA'} ${eva})`,
      `  hits ${percent(hit / 100)} (Critical Hit ${percent(critical / 100)}), misses ${percent(1 - hit / 100)}`,
      `  damage on a hit: ${summary(dealt(false))}; on a Critical Hit: ${summary(dealt(true))}`,
      `  ${target.sheet.name} has ${target.hp} HP`,
    ],
  };
}

/** FFRPG 3e for the tools: encounter files, views, event descriptions, statistics, odds. */
export const ffrpgSystem: GameSystem<
  FfrpgSetup,
  FfrpgState,
  FfrpgCommand,
  FfrpgEvent,
  EncounterSpec
> = {
  ruleset: ffrpg,
  kinds: ffrpgKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: ffrpgSetupFrom,
  view,
  brief(state) {
    const entry = currentEntry(state);
    return {
      actor: entry?.kind === 'combatant' ? entry.id : null,
      combatants: state.order.map((id) => {
        const c = state.combatants[id]!;
        return { id, side: c.side, hp: c.hp, out: !isActive(c) };
      }),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type !== 'damage-dealt' || event.absorbed || event.mpAfter !== undefined)
      return undefined;
    return { source: event.source, target: event.target, amount: event.amount };
  },
  rounds: (state) => state.round,
  odds,
};
