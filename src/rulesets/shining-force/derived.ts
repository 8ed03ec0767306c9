import type { Offsets } from './grid/patterns.js';
import type { Bonuses, HeldItem, Item, ShiningForceSetup } from './model.js';
import { counterRate, criticalRate, evadeRate } from './rates.js';
import { type CombatantState, hasStatus } from './state.js';

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

const STAT_KEYS = ['attack', 'defence', 'agility', 'luck', 'movement'] as const;

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

export function derived(setup: ShiningForceSetup, c: CombatantState): Derived {
  const s = c.sheet.stats;
  const total: Record<(typeof STAT_KEYS)[number], number> = {
    attack: s.attack,
    defence: s.defence,
    agility: s.agility,
    luck: s.luck,
    movement: s.movement,
  };
  for (const held of c.items) {
    if (!held.equipped) continue;
    const bonuses: Bonuses | undefined = setup.items[held.item]?.bonuses;
    if (bonuses === undefined) continue;
    for (const key of STAT_KEYS) total[key] += bonuses[key] ?? 0;
  }
  for (const key of STAT_KEYS) total[key] = Math.max(0, total[key]);
  // "Whilst frozen, the character's evade rate drops to 0."
  const frozen = c.statuses.length > 0 && hasStatus(c, 'frozen') !== undefined;
  return {
    ...total,
    evade: frozen ? 0 : evadeRate(total.agility, total.luck),
    critical: criticalRate(total.luck, c.sheet.level),
    counter: counterRate(total.agility, total.luck),
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
