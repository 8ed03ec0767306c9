import { gm } from '../../engine/index.js';
import type { EncounterView, GameSystem } from '../system.js';
import { ffrpgCampaign } from './campaign/index.js';
import type { FfrpgCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  ffrpgKinds,
  ffrpgNewcomer,
  ffrpgSetupFrom,
  STARTER_CONTENT_DIR,
} from './content.js';
import { describeEvents } from './describe.js';
import { ELEMENT_ALIASES, ELEMENTS } from './elements.js';
import type { FfrpgEvent } from './events.js';
import type { FfrpgSetup } from './model.js';
import { ffrpgOdds } from './odds.js';
import { parseFfrpgAction } from './parse-action.js';
import { ffrpgOrderRolls, ffrpgRolls } from './rolls.js';
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
        fled: c.fled,
        statuses: c.statuses.map((s) => ({
          id: s.status,
          name: state.setup.statuses[s.status]?.name ?? s.status,
          timer: s.timer === 'infinite' ? '∞' : String(s.timer),
        })),
        notes: gm.notesOf(state.notes, id),
        clock: { initiative: initiativeOf(state, id), ...chargeOf(state, id) },
      };
    }),
    clock: {
      round: state.round,
      phase: state.phase,
      initiative: entry?.count ?? null,
      ...fixedEventsOf(state),
    },
  };
}

/**
 * The combatant's Slow ability still charging on this round's countdown: `charge`, the count
 * its Charge Time runs out on, and `charging`, the ability's name. Absent when none is.
 */
function chargeOf(state: FfrpgState, id: string): { charge?: number; charging?: string } {
  for (let i = state.cursor + 1; i < state.timeline.length; i++) {
    const entry = state.timeline[i]!;
    if (entry.kind !== 'charge') continue;
    const charging = state.charging.find((c) => c.id === entry.id);
    if (charging?.actor !== id) continue;
    return {
      charge: entry.count,
      charging: state.setup.abilities[charging.ability]?.name ?? charging.ability,
    };
  }
  return {};
}

/**
 * This round's fixed-Initiative events, flat as the view's clock holds them: `event:<id>` is
 * its count, `event:<id>:name` its name, `event:<id>:done` 1 once the countdown passed it (a
 * count alone cannot say so: on a tie the event may come before or after a combatant).
 */
function fixedEventsOf(state: FfrpgState): Record<string, number | string> {
  const events: Record<string, number | string> = {};
  if (state.phase !== 'action') return events;
  state.timeline.forEach((entry, i) => {
    if (entry.kind !== 'event') return;
    events[`event:${entry.id}`] = entry.count;
    events[`event:${entry.id}:name`] =
      state.setup.events.find((e) => e.id === entry.id)?.name ?? entry.id;
    events[`event:${entry.id}:done`] = i <= state.cursor ? 1 : 0;
  });
  return events;
}

/** The combatant's Initiative on this round's countdown; null between rounds or without a turn. */
function initiativeOf(state: FfrpgState, id: string): number | null {
  if (state.phase !== 'action') return null;
  const entry = state.timeline.find((e) => e.kind === 'combatant' && e.id === id);
  return entry?.count ?? null;
}

/** What FFRPG adds to the GM's vocabulary: no resources beyond HP and MP; the clock is Initiative. */
const GM_VOCABULARY: gm.GmVocabulary = {
  resources: [],
  clock: "Initiative on this round's countdown",
  mp: true,
  elements: [...ELEMENTS, ...Object.keys(ELEMENT_ALIASES)],
  examples: [
    'gm hp heket -30',
    'gm mp mint 12',
    'gm status hiro +poison 3',
    'gm status heket -sleep',
    'gm add heket to enemies as Heket 2',
    'gm clock heket 5',
    'gm damage heket 50% max-hp',
    'gm damage hiro 2d10 ice',
    'gm heal haze 20',
    'gm note heket behind the boulder',
    'check hiro awareness hard',
    'check hiro stealth +40 vs heket awareness -20',
  ],
  extra: [
    'check <who> <skill|attribute> [modifier]   a Task Check the GM calls for (takes no turn)',
    'check <who> <skill> [mod] vs <who> <skill> [mod]   an Opposed Task Check',
    'task check <skill|attribute> [modifier]    the acting combatant spends its turn on one',
  ],
};

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
  odds: ffrpgOdds,
  rolls: ffrpgRolls,
  orderRolls: ffrpgOrderRolls,
  gm: GM_VOCABULARY,
  gmMenu: (state) => ({
    // The encounter's Status Conditions, as its content defines them, each with its usual Timer.
    statuses: Object.entries(state.setup.statuses).map(([id, s]) => ({
      id,
      name: s.name,
      timer: 'optional' as const,
      usual: s.timer,
    })),
    freeStatuses: false,
    timerUnit: 'rounds',
    clock: { key: 'initiative', label: 'Initiative', min: 0 },
    counters: [],
    grid: false,
  }),
  newcomer: ffrpgNewcomer,
  gmStatuses: (state) =>
    Object.entries(state.setup.statuses).map(([id, status]) => ({ id, name: status.name })),
  parseAction: parseFfrpgAction,
  campaign: ffrpgCampaign,
};
