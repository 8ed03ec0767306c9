import { combatantById, gm, withCombatantReplaced } from '../../engine/index.js';
import type { FfrpgEvent } from './events.js';
import type { FfrpgSetup } from './model.js';
import {
  type CombatantState,
  type FfrpgState,
  moveOnCountdown,
  type StatusInstance,
} from './state.js';

/** The state before the first round: everyone at the HP, MP and Status Conditions they came with. */
export function initialState(setup: FfrpgSetup): FfrpgState {
  const combatants: Record<string, CombatantState> = {};
  const order: string[] = [];
  for (const side of setup.sides) {
    for (const sheet of side.combatants) {
      const hp = Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp);
      combatants[sheet.id] = {
        id: sheet.id,
        side: side.id,
        sheet,
        hp,
        mp: Math.min(sheet.mp ?? sheet.stats.mp, sheet.stats.mp),
        statuses: sheet.statuses.map((s) => ({
          status: s.status,
          timer: s.timer ?? setup.statuses[s.status]!.timer,
        })),
        down: hp <= 0,
        fled: false,
        level: sheet.level,
        xp: sheet.xp,
      };
      order.push(sheet.id);
    }
  }
  return {
    setup,
    round: 0,
    phase: 'initiative',
    combatants,
    order,
    timeline: [],
    cursor: 0,
    charging: [],
    result: null,
    rewards: null,
    notes: {},
  };
}

/**
 * Copies are built field by field rather than spread: every state and combatant then has one
 * shape, and a copy costs a fraction of what a spread of these objects does in V8 (simulations
 * apply millions of events).
 */
function withState(s: FfrpgState, changes: Partial<FfrpgState>): FfrpgState {
  const next: FfrpgState = {
    setup: s.setup,
    round: s.round,
    phase: s.phase,
    combatants: s.combatants,
    order: s.order,
    timeline: s.timeline,
    cursor: s.cursor,
    charging: s.charging,
    result: s.result,
    rewards: s.rewards,
    notes: s.notes,
  };
  return Object.assign(next, changes);
}

function withCombatant(c: CombatantState, changes: Partial<CombatantState>): CombatantState {
  const next: CombatantState = {
    id: c.id,
    side: c.side,
    sheet: c.sheet,
    hp: c.hp,
    mp: c.mp,
    statuses: c.statuses,
    down: c.down,
    fled: c.fled,
    level: c.level,
    xp: c.xp,
  };
  return Object.assign(next, changes);
}

function update(
  state: FfrpgState,
  id: string,
  change: (c: CombatantState) => Partial<CombatantState>,
): FfrpgState {
  const combatant = combatantById(state.combatants, id);
  if (combatant === undefined) return state;
  const combatants = withCombatantReplaced(
    state.combatants,
    state.order,
    id,
    withCombatant(combatant, change(combatant)),
  );
  return withState(state, { combatants });
}

function withoutStatus(statuses: readonly StatusInstance[], status: string): StatusInstance[] {
  return statuses.filter((s) => s.status !== status);
}

/** Applies one event. Pure and total: an event naming someone unknown changes nothing. */
export function evolve(state: FfrpgState, event: FfrpgEvent): FfrpgState {
  switch (event.type) {
    case 'round-began':
      return withState(state, {
        round: event.round,
        phase: 'action',
        timeline: event.timeline,
        cursor: -1,
      });
    case 'turn-began':
    case 'turn-skipped':
    case 'fixed-event':
    case 'charge-resolved':
      return withState(state, { cursor: event.cursor });
    case 'charge-fizzled':
      return withState(state, {
        cursor: event.cursor,
        charging: state.charging.filter((c) => c.id !== event.id),
      });
    case 'ability-charging':
      return withState(state, {
        charging: [...state.charging, event.charging],
        timeline: insertCharge(state, event.charging.id, event.charging.resolvesAt),
      });
    case 'ability-used':
      return update(state, event.actor, () => ({ mp: event.mpAfter, hp: event.hpAfter }));
    case 'damage-dealt':
      return update(state, event.target, (c) => ({ hp: event.hpAfter, mp: event.mpAfter ?? c.mp }));
    case 'healed':
      return update(state, event.target, () => ({ hp: event.hpAfter }));
    case 'status-inflicted':
      return update(state, event.target, (c) => ({
        statuses: [
          ...withoutStatus(c.statuses, event.status),
          { status: event.status, timer: event.timer },
        ],
      }));
    case 'status-ended':
      return update(state, event.target, (c) => ({
        statuses: withoutStatus(c.statuses, event.status),
      }));
    case 'status-timers-counted': {
      const combatants: Record<string, CombatantState> = {};
      for (const id of state.order) {
        const c = state.combatants[id]!;
        combatants[id] =
          c.statuses.length === 0
            ? c
            : withCombatant(c, {
                statuses: c.statuses.map((s) =>
                  s.timer === 'infinite'
                    ? s
                    : { status: s.status, timer: Math.max(0, s.timer - 1) },
                ),
              });
      }
      return withState(state, { combatants });
    }
    case 'knocked-out':
      return update(state, event.target, () => ({ hp: 0, down: true }));
    case 'fled':
      return update(state, event.actor, () => ({ fled: true }));
    case 'round-ended':
      return withState(state, { phase: 'initiative', timeline: [], cursor: 0, charging: [] });
    case 'battle-ended':
      return withState(state, {
        phase: 'ended',
        result: { winner: event.winner, reason: event.reason },
      });
    case 'scene-ended':
      return withState(state, {
        phase: 'ended',
        result: { winner: null, reason: 'the Scene ended' },
      });
    case 'rewards-awarded': {
      let next: FfrpgState = withState(state, { rewards: event.rewards });
      for (const share of event.rewards.shares) {
        next = update(next, share.id, (c) => ({ xp: c.xp + share.xp, level: share.levelAfter }));
      }
      return next;
    }
    case 'resource-set':
      return update(state, event.target, (c) =>
        event.resource === 'hp'
          ? { hp: event.value, down: event.revived ? false : c.down }
          : { mp: event.value },
      );
    case 'combatant-joined': {
      const c = event.combatant;
      if (combatantById(state.combatants, c.id) !== undefined) return state;
      const timeline =
        event.at === null || event.initiative === null
          ? state.timeline
          : [
              ...state.timeline.slice(0, event.at),
              { kind: 'combatant' as const, id: c.id, count: event.initiative.initiative },
              ...state.timeline.slice(event.at),
            ];
      return withState(state, {
        combatants: { ...state.combatants, [c.id]: c },
        order: [...state.order, c.id],
        timeline,
      });
    }
    case 'combatant-removed':
      return update(state, event.target, () => ({ fled: true }));
    case 'initiative-set': {
      if (combatantById(state.combatants, event.target) === undefined) return state;
      const moved = moveOnCountdown(state, event.target, event.count);
      return withState(state, { timeline: moved.timeline, cursor: moved.cursor });
    }
    case 'turn-cancelled':
      return withState(state, {
        timeline: state.timeline.filter((_, i) => i !== event.at),
      });
    case 'note-added':
    case 'notes-cleared':
      return withState(state, { notes: gm.evolveNotes(state.notes, event) });
    case 'attack-made':
    case 'task-checked':
    case 'opposed-checked':
    case 'effect-checked':
    case 'reaction-triggered':
    case 'status-resisted':
    case 'turn-ended':
      return state;
    default:
      // Total: an event this version does not know changes nothing (saves are verified on load).
      return state;
  }
}

/**
 * A Charge Time running out joins the countdown after every entry already on its count that
 * is not a combatant: events and earlier charges first, then it, then combatants (rulings).
 */
function insertCharge(state: FfrpgState, id: string, count: number): FfrpgState['timeline'] {
  const timeline = [...state.timeline];
  let at = timeline.length;
  for (let i = state.cursor + 1; i < timeline.length; i++) {
    const entry = timeline[i]!;
    if (entry.count < count || (entry.count === count && entry.kind === 'combatant')) {
      at = i;
      break;
    }
  }
  timeline.splice(at, 0, { kind: 'charge', id, count });
  return timeline;
}
