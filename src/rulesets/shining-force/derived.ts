import type { Offsets } from './grid/patterns.js';
import type { Bonuses, HeldItem, Item, ShiningForceSetup } from './model.js';
import { counterRate, criticalRate, evadeRate } from './rates.js';
import { type CombatantState, hasStatus } from './state.js';

/** Four slots besides the two kept for the equipped weapon and accessory. */
export const BAG_SLOTS = 4;

/**
 * A combatant's numbers as a fight uses them: its stats with what its equipped weapon and
 * accessory add, and the rates derived from them.
 */
export interface Derived {
  readonly attack: number;
  readonly defence: number;
  readonly agility: number;
  readonly luck: number;
  readonly movement: number;
  readonly evade: number;
  readonly critical: number;
  readonly counter: number;
}

export function equipped(
  setup: ShiningForceSetup,
  c: CombatantState,
  type: 'weapon' | 'accessory',
): { readonly slot: number; readonly held: HeldItem; readonly item: Item } | undefined {
  for (let slot = 0; slot < c.items.length; slot++) {
    const held = c.items[slot]!;
    if (!held.equipped) continue;
    const item = setup.items[held.item];
    if (item?.type === type) return { slot, held, item };
  }
  return undefined;
}

/**
 * A cache of what a combatant's numbers give, kept by its sheet and then its item list: both
 * are replaced, never changed, so an answer holds until one of them is. By the sheet first: two
 * combatants may share one list (an empty one) but never a sheet.
 */
export function keptBySheetAndItems<T>(
  make: (setup: ShiningForceSetup, c: CombatantState) => T,
): (setup: ShiningForceSetup, c: CombatantState) => T {
  const bySheet = new WeakMap<object, WeakMap<readonly HeldItem[], T>>();
  return (setup, c) => {
    let byItems = bySheet.get(c.sheet);
    if (byItems === undefined) {
      byItems = new WeakMap();
      bySheet.set(c.sheet, byItems);
    }
    let kept = byItems.get(c.items);
    if (kept === undefined) {
      kept = make(setup, c);
      byItems.set(c.items, kept);
    }
    return kept;
  };
}

/**
 * Worked out once per sheet and item list: a combatant's list is replaced only when its items
 * change, and the same numbers are asked for many times a turn (ranges, rates, movement). Only
 * Frozen, of the statuses, changes a number (evade), so it is applied on top.
 */
const BASE = keptBySheetAndItems(derive);
const FROZEN = new WeakMap<Derived, Derived>();

export function derived(setup: ShiningForceSetup, c: CombatantState): Derived {
  const base = BASE(setup, c);
  // "Whilst frozen, the character's evade rate drops to 0."
  if (c.statuses.length === 0 || hasStatus(c, 'frozen') === undefined) return base;
  let frozen = FROZEN.get(base);
  if (frozen === undefined) {
    frozen = { ...base, evade: 0 };
    FROZEN.set(base, frozen);
  }
  return frozen;
}

function derive(setup: ShiningForceSetup, c: CombatantState): Derived {
  const s = c.sheet.stats;
  let attack = s.attack;
  let defence = s.defence;
  let agility = s.agility;
  let luck = s.luck;
  let movement = s.movement;
  for (const held of c.items) {
    if (!held.equipped) continue;
    const bonuses: Bonuses | undefined = setup.items[held.item]?.bonuses;
    if (bonuses === undefined) continue;
    attack += bonuses.attack ?? 0;
    defence += bonuses.defence ?? 0;
    agility += bonuses.agility ?? 0;
    luck += bonuses.luck ?? 0;
    movement += bonuses.movement ?? 0;
  }
  attack = Math.max(0, attack);
  defence = Math.max(0, defence);
  agility = Math.max(0, agility);
  luck = Math.max(0, luck);
  movement = Math.max(0, movement);
  return {
    attack,
    defence,
    agility,
    luck,
    movement,
    evade: evadeRate(agility, luck),
    critical: criticalRate(luck, c.sheet.level),
    counter: counterRate(agility, luck),
  };
}

/** What a combatant attacks with: its equipped weapon, or a monster's own attack. */
export interface Armament {
  readonly name: string;
  readonly range: Offsets;
  /** The weapon's slot, when it is an item (it may crack). */
  readonly slot: number | null;
  readonly item: Item | null;
}

/**
 * "Force members may not attack unarmed": a Force member without a weapon has none; a monster
 * without one fights with its own attack (or bare claws, range 1).
 */
export function armament(setup: ShiningForceSetup, c: CombatantState): Armament | undefined {
  const weapon = equipped(setup, c, 'weapon');
  if (weapon !== undefined) {
    return {
      name: weapon.item.name,
      range: setup.patterns[weapon.item.range ?? 'range-1'] ?? ADJACENT,
      slot: weapon.slot,
      item: weapon.item,
    };
  }
  if (c.force) return undefined;
  const natural = c.sheet.attack;
  return {
    name: natural?.name ?? 'attack',
    range: setup.patterns[natural?.range ?? 'range-1'] ?? ADJACENT,
    slot: null,
    item: null,
  };
}

export const ADJACENT: Offsets = [
  [0, -1],
  [-1, 0],
  [1, 0],
  [0, 1],
];

/** Spells that can be cast at all: "Once [MP] reaches 0 or below the least costing spell ... no more". */
export function canCastAny(setup: ShiningForceSetup, c: CombatantState): boolean {
  if (c.mp <= 0 || c.sheet.spells.length === 0) return false;
  let cheapest = Number.POSITIVE_INFINITY;
  for (const id of c.sheet.spells)
    cheapest = Math.min(cheapest, setup.spells[id]?.mpCost ?? cheapest);
  return c.mp >= cheapest;
}
