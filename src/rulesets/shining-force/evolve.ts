import { gm } from '../../engine/index.js';
import type { GmEvent, ShiningForceEvent } from './events.js';
import { indexOf, parseCellName } from './grid/cells.js';
import type { HeldItem, ShiningForceSetup } from './model.js';
import {
  type CombatantState,
  combatantOf,
  placeOf,
  type ShiningForceState,
  type StatusInstance,
} from './state.js';

export function widthOf(setup: ShiningForceSetup): number {
  return setup.battlefield.rows[0]!.length;
}

/** A cell name to its index on this battlefield; -1 for a name off the grid. */
export function cellIndex(setup: ShiningForceSetup, name: string): number {
  const width = widthOf(setup);
  const height = setup.battlefield.rows.length;
  // The form the engine itself writes (`C4`, `B12`) is read without a regular expression:
  // every simulated move names two cells. Anything else goes to parseCellName.
  const x = name.charCodeAt(0) - 65;
  const d1 = name.charCodeAt(1) - 48;
  const d2 = name.length === 3 ? name.charCodeAt(2) - 48 : 0;
  if (
    (name.length === 2 || name.length === 3) &&
    x >= 0 &&
    x < 26 &&
    d1 >= 0 &&
    d1 <= 9 &&
    d2 >= 0 &&
    d2 <= 9
  ) {
    const y = (name.length === 2 ? d1 : d1 * 10 + d2) - 1;
    if (y < 0 || x >= width || y >= height) return -1;
    return y * width + x;
  }
  const point = parseCellName(name);
  if (point === undefined || point.x >= width || point.y >= height) return -1;
  return indexOf(width, point);
}

/**
 * A sheet as a combatant in the fight: at full HP and MP unless the sheet says less, with what
 * it carries; a cursed item equipped puts its Curse on the wearer from the start. The setup and
 * `gm add` both build combatants here.
 */
export function combatantFrom(
  setup: ShiningForceSetup,
  sheet: CombatantState['sheet'],
  side: { readonly id: string; readonly force: boolean },
): CombatantState {
  const hp = Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp);
  const statuses: StatusInstance[] = [];
  for (const held of sheet.items) {
    const curse = held.equipped ? setup.items[held.item]?.curse : undefined;
    if (curse !== undefined && statuses.length === 0)
      statuses.push({ status: 'curse', turns: null, curse });
  }
  if (sheet.poison !== undefined)
    statuses.push({ status: 'poison', turns: null, amount: sheet.poison });
  return {
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
    left: null,
  };
}

/** The state before the battle begins: everyone where the setup puts them, with what they carry. */
export function initialState(setup: ShiningForceSetup): ShiningForceState {
  const combatants: CombatantState[] = [];
  for (const side of setup.sides)
    for (const sheet of side.combatants) combatants.push(combatantFrom(setup, sheet, side));
  return {
    setup,
    round: 0,
    order: [],
    turnValues: {},
    skipping: [],
    cursor: 0,
    step: null,
    combatants,
    result: null,
    gold: 0,
    notes: {},
  };
}

/** Copies field by field: one shape for every state, and cheaper than a spread in V8. */
function withState(s: ShiningForceState, changes: Partial<ShiningForceState>): ShiningForceState {
  const next: ShiningForceState = {
    setup: s.setup,
    round: s.round,
    order: s.order,
    turnValues: s.turnValues,
    skipping: s.skipping,
    cursor: s.cursor,
    step: s.step,
    combatants: s.combatants,
    result: s.result,
    gold: s.gold,
    notes: s.notes,
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
    left: c.left,
  };
  return Object.assign(next, changes);
}

/**
 * A state's combatants and turn step changed, the rest kept: built field by field, as withState,
 * without its Object.assign, for the events of every turn (a turn begun or ended, a move, a blow).
 */
function withTurnStep(
  s: ShiningForceState,
  combatants: ShiningForceState['combatants'],
  cursor: number,
  step: ShiningForceState['step'],
): ShiningForceState {
  return {
    setup: s.setup,
    round: s.round,
    order: s.order,
    turnValues: s.turnValues,
    skipping: s.skipping,
    cursor,
    step,
    combatants,
    result: s.result,
    gold: s.gold,
    notes: s.notes,
  };
}

/** The roster with the combatant at `place` replaced: a copy, as states share their rosters. */
function replacedAt(
  combatants: ShiningForceState['combatants'],
  place: number,
  next: CombatantState,
): CombatantState[] {
  const out = combatants.slice();
  out[place] = next;
  return out;
}

function update(
  state: ShiningForceState,
  id: string,
  change: (c: CombatantState) => Partial<CombatantState>,
): ShiningForceState {
  const place = placeOf(state.combatants, id);
  if (place < 0) return state;
  const combatant = state.combatants[place]!;
  const combatants = replacedAt(
    state.combatants,
    place,
    withCombatant(combatant, change(combatant)),
  );
  return withTurnStep(state, combatants, state.cursor, state.step);
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
    case 'round-began': {
      const turnValues: Record<string, number> = {};
      for (const roll of event.rolls) turnValues[roll.id] = roll.value;
      return {
        setup: state.setup,
        round: event.round,
        order: event.order,
        turnValues,
        skipping: state.skipping,
        cursor: -1,
        step: null,
        combatants: state.combatants,
        result: state.result,
        gold: state.gold,
        notes: state.notes,
      };
    }
    case 'turn-began':
      return withTurnStep(state, state.combatants, event.cursor, event.canMove ? 'move' : 'act');
    case 'turn-ended':
      return withTurnStep(state, state.combatants, state.cursor, null);
    case 'moved': {
      const place = placeOf(state.combatants, event.actor);
      if (place < 0) return withTurnStep(state, state.combatants, state.cursor, 'act');
      const combatants = replacedAt(
        state.combatants,
        place,
        withCombatant(state.combatants[place]!, { cell: cellIndex(state.setup, event.to) }),
      );
      return withTurnStep(state, combatants, state.cursor, 'act');
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
      const held = combatantOf(state, event.actor)?.items[event.slot];
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
      return withTurnStep(state, state.combatants, state.cursor, null);
    case 'battle-ended':
      return withState(state, {
        step: null,
        result: { winner: event.winner, reason: event.reason },
        gold: event.gold,
      });
    case 'turn-lost':
      return event.reason === SKIPPED && state.skipping.includes(event.actor)
        ? withState(state, { skipping: state.skipping.filter((id) => id !== event.actor) })
        : state;
    case 'status-rolled':
    case 'attacked':
    case 'item-used':
    case 'status-resisted':
      return state;
    default:
      return evolveGm(state, event);
  }
}

/** The reason a turn lost to `gm skip` gives: the mark is used up with it. */
export const SKIPPED = 'skipped by the GM';

function evolveGm(state: ShiningForceState, event: GmEvent): ShiningForceState {
  switch (event.type) {
    case 'note-added':
    case 'notes-cleared':
      return withState(state, { notes: gm.evolveNotes(state.notes, event) });
    case 'points-set':
      return update(state, event.target, () =>
        event.resource === 'hp' ? { hp: event.after } : { mp: event.after },
      );
    case 'revived':
      return update(state, event.target, () => ({ defeated: false }));
    case 'items-set':
      return update(state, event.target, () => ({ items: event.items }));
    case 'item-cracked-set':
      return update(state, event.target, (c) => {
        const held = c.items[event.slot];
        return held === undefined
          ? {}
          : { items: replaceSlot(c.items, event.slot, { ...held, cracked: event.cracked }) };
      });
    case 'combatant-joined': {
      const c = event.combatant;
      if (combatantOf(state, c.id) !== undefined) return state;
      const order =
        event.place === null
          ? state.order
          : [...state.order.slice(0, event.place), c.id, ...state.order.slice(event.place)];
      return withState(state, {
        combatants: [...state.combatants, c],
        order,
        turnValues:
          event.value === null ? state.turnValues : { ...state.turnValues, [c.id]: event.value },
      });
    }
    case 'combatant-left':
      return update(state, event.target, () => ({ defeated: true, left: event.reason }));
    case 'order-set':
      return withState(state, {
        order: event.order,
        cursor: event.cursor,
        ...(event.delayed ? { step: null } : {}),
      });
    case 'skip-ordered':
      return withState(state, { skipping: [...state.skipping, event.target] });
    case 'gm-damage-dealt':
    case 'gm-healed':
      return update(state, event.target, () => ({ hp: event.hpAfter }));
    case 'placed':
      return update(state, event.target, () => ({ cell: cellIndex(state.setup, event.to) }));
    default:
      return state;
  }
}
