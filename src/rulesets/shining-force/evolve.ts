import type { ShiningForceEvent } from './events.js';
import { indexOf, parseCellName } from './grid/cells.js';
import type { HeldItem, ShiningForceSetup } from './model.js';
import type { CombatantState, ShiningForceState, StatusInstance } from './state.js';

export function widthOf(setup: ShiningForceSetup): number {
  return setup.battlefield.rows[0]!.length;
}

/** A cell name to its index on this battlefield; -1 for a name off the grid. */
export function cellIndex(setup: ShiningForceSetup, name: string): number {
  const point = parseCellName(name);
  const width = widthOf(setup);
  if (point === undefined || point.x >= width || point.y >= setup.battlefield.rows.length)
    return -1;
  return indexOf(width, point);
}

/** The state before the battle begins: everyone where the setup puts them, with what they carry. */
export function initialState(setup: ShiningForceSetup): ShiningForceState {
  const combatants: Record<string, CombatantState> = {};
  const ids: string[] = [];
  for (const side of setup.sides) {
    for (const sheet of side.combatants) {
      const hp = Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp);
      // A cursed item equipped puts its Curse on the wearer from the start.
      const statuses: StatusInstance[] = [];
      for (const held of sheet.items) {
        const curse = held.equipped ? setup.items[held.item]?.curse : undefined;
        if (curse !== undefined && statuses.length === 0)
          statuses.push({ status: 'curse', turns: null, curse });
      }
      combatants[sheet.id] = {
        id: sheet.id,
        side: side.id,
        force: side.force,
        sheet,
        hp,
        mp: Math.min(sheet.mp ?? sheet.stats.mp, sheet.stats.mp),
        cell: cellIndex(setup, sheet.at),
        items: sheet.items,
        statuses,
        defeated: hp <= 0,
        exp: 0,
      };
      ids.push(sheet.id);
    }
  }
  return {
    setup,
    round: 0,
    order: [],
    cursor: 0,
    step: null,
    combatants,
    ids,
    result: null,
    gold: 0,
  };
}

/** Copies field by field: one shape for every state, and cheaper than a spread in V8. */
function withState(s: ShiningForceState, changes: Partial<ShiningForceState>): ShiningForceState {
  const next: ShiningForceState = {
    setup: s.setup,
    round: s.round,
    order: s.order,
    cursor: s.cursor,
    step: s.step,
    combatants: s.combatants,
    ids: s.ids,
    result: s.result,
    gold: s.gold,
  };
  return Object.assign(next, changes);
}

function withCombatant(c: CombatantState, changes: Partial<CombatantState>): CombatantState {
  const next: CombatantState = {
    id: c.id,
    side: c.side,
    force: c.force,
    sheet: c.sheet,
    hp: c.hp,
    mp: c.mp,
    cell: c.cell,
    items: c.items,
    statuses: c.statuses,
    defeated: c.defeated,
    exp: c.exp,
  };
  return Object.assign(next, changes);
}

function update(
  state: ShiningForceState,
  id: string,
  change: (c: CombatantState) => Partial<CombatantState>,
): ShiningForceState {
  const combatant = state.combatants[id];
  if (combatant === undefined) return state;
  const combatants: Record<string, CombatantState> = {};
  for (const key of state.ids)
    combatants[key] =
      key === id ? withCombatant(combatant, change(combatant)) : state.combatants[key]!;
  return withState(state, { combatants });
}

function withoutSlot(items: readonly HeldItem[], slot: number): HeldItem[] {
  return items.filter((_, i) => i !== slot);
}

function replaceSlot(items: readonly HeldItem[], slot: number, held: HeldItem): HeldItem[] {
  return items.map((h, i) => (i === slot ? held : h));
}

/** Applies one event. Pure and total: an event naming someone unknown changes nothing. */
export function evolve(state: ShiningForceState, event: ShiningForceEvent): ShiningForceState {
  switch (event.type) {
    case 'round-began':
      return withState(state, { round: event.round, order: event.order, cursor: -1, step: null });
    case 'turn-began':
      return withState(state, { cursor: event.cursor, step: event.canMove ? 'move' : 'act' });
    case 'moved': {
      const next = update(state, event.actor, () => ({ cell: cellIndex(state.setup, event.to) }));
      return withState(next, { step: 'act' });
    }
    case 'damage-dealt':
    case 'effect-damage':
      return update(state, event.target, () => ({ hp: event.hpAfter }));
    case 'healed':
      return update(state, event.target, () => ({ hp: event.hpAfter, mp: event.mpAfter }));
    case 'points-lost':
      return update(state, event.target, () => ({ hp: event.hpAfter, mp: event.mpAfter }));
    case 'spell-cast':
      return update(state, event.actor, () => ({ mp: event.mpAfter }));
    case 'status-inflicted':
      return update(state, event.target, (c) => ({
        statuses: [...c.statuses.filter((s) => s.status !== event.instance.status), event.instance],
      }));
    case 'status-ended':
      return update(state, event.target, (c) => ({
        statuses: c.statuses.filter((s) => s.status !== event.status),
      }));
    case 'statuses-counted':
      return update(state, event.target, (c) => ({
        statuses: c.statuses
          .map((s) => (s.turns === null ? s : { ...s, turns: s.turns - 1 }))
          .filter((s) => s.turns === null || s.turns > 0),
      }));
    case 'instantly-defeated':
      return update(state, event.target, () => ({ hp: 0 }));
    case 'defeated':
      return update(state, event.target, () => ({ hp: 0, defeated: true }));
    case 'item-condition':
      return update(state, event.actor, (c) => {
        const held = c.items[event.slot];
        if (held === undefined) return {};
        if (event.result === 'good') return {};
        if (event.result === 'cracked')
          return { items: replaceSlot(c.items, event.slot, { ...held, cracked: true }) };
        return { items: withoutSlot(c.items, event.slot) };
      });
    case 'item-given': {
      const held = state.combatants[event.actor]?.items[event.slot];
      if (held === undefined) return state;
      const next = update(state, event.actor, (c) => ({ items: withoutSlot(c.items, event.slot) }));
      return update(next, event.to, (c) => ({
        items: [...c.items, { item: held.item, cracked: held.cracked, equipped: false }],
      }));
    }
    case 'item-equipped':
      return update(state, event.actor, (c) => {
        const held = c.items[event.slot];
        const type = held === undefined ? undefined : state.setup.items[held.item]?.type;
        if (held === undefined || type === undefined) return {};
        // The slot of that type is taken by this item; whatever was there goes to the bag.
        return {
          items: c.items.map((h, i) =>
            i === event.slot
              ? { ...h, equipped: true }
              : h.equipped && state.setup.items[h.item]?.type === type
                ? { ...h, equipped: false }
                : h,
          ),
        };
      });
    case 'item-unequipped':
      return update(state, event.actor, (c) => {
        const held = c.items[event.slot];
        return held === undefined
          ? {}
          : { items: replaceSlot(c.items, event.slot, { ...held, equipped: false }) };
      });
    case 'item-dropped':
      return update(state, event.actor, (c) => ({ items: withoutSlot(c.items, event.slot) }));
    case 'exp-gained':
      return update(state, event.actor, (c) => ({ exp: c.exp + event.amount }));
    case 'round-ended':
      return withState(state, { step: null });
    case 'battle-ended':
      return withState(state, {
        step: null,
        result: { winner: event.winner, reason: event.reason },
        gold: event.gold,
      });
    case 'turn-ended':
      return withState(state, { step: null });
    case 'turn-lost':
    case 'status-rolled':
    case 'attacked':
    case 'item-used':
    case 'status-resisted':
      return state;
    default:
      return state;
  }
}
