import type { gm } from '../../engine/index.js';
import type { CombatantSheet, Curse, HeldItem, ShiningForceSetup, StatusName } from './model.js';

/** A status on a combatant: how many of its turns are left, and what its source set. */
export interface StatusInstance {
  readonly status: StatusName;
  /** Turns of the victim left, counted down at the end of each; null: until cured. */
  readonly turns: number | null;
  /** Poison: HP lost after each of the victim's turns. */
  readonly amount?: number;
  /** Charmed: the side whose inflicter now controls the victim. */
  readonly side?: string;
  /** Curse: what the cursed item does. */
  readonly curse?: Curse;
}

export interface CombatantState {
  readonly id: string;
  readonly side: string;
  readonly force: boolean;
  readonly sheet: CombatantSheet;
  readonly hp: number;
  readonly mp: number;
  /** The cell it stands on, as an index (y * width + x). */
  readonly cell: number;
  readonly items: readonly HeldItem[];
  readonly statuses: readonly StatusInstance[];
  /** At 0 HP: out of the battle; a Force member must be raised by a priest. */
  readonly defeated: boolean;
  /** EXP earned in this battle. */
  readonly exp: number;
  /** Taken out of the battle by the GM (fled, dismissed): out as if defeated, but no gold. */
  readonly left: 'fled' | 'dismissed' | null;
}

/** Where the combatant whose turn it is stands in its turn: moving first, then one action. */
export type Step = 'move' | 'act';

export interface BattleResult {
  readonly winner: string | null;
  readonly reason: string;
}

/**
 * A Shining Force battle: rounds of turns in an order rolled on Agility, each turn a move and
 * then one action. Plain data; `setup` is shared, never copied.
 */
export interface ShiningForceState {
  readonly setup: ShiningForceSetup;
  readonly round: number;
  /** This round's turn order. */
  readonly order: readonly string[];
  /** This round's turn-order values (Agility at the rolled percent), by id: where a newcomer fits. */
  readonly turnValues: Readonly<Record<string, number>>;
  /** Combatants whose next turn the GM has said passes without an action. */
  readonly skipping: readonly string[];
  /** The position in `order` of the combatant whose turn it is. */
  readonly cursor: number;
  /** null before the battle begins and after it ends. */
  readonly step: Step | null;
  /**
   * Everyone in the battle, in the order the setup lists them, newcomers (`gm add`) after. An
   * array, not a record by id: walking the roster and copying it with one combatant replaced
   * are the simulator's hot path, and a record cost a keyed load a combatant and a copy of
   * every key an event.
   */
  readonly combatants: readonly CombatantState[];
  readonly result: BattleResult | null;
  /** Gold won, once the battle is over. */
  readonly gold: number;
  /** The GM's notes on combatants. */
  readonly notes: gm.Notes;
}

export function currentActor(state: ShiningForceState): CombatantState | undefined {
  if (state.step === null) return undefined;
  const id = state.order[state.cursor];
  return id === undefined ? undefined : combatantOf(state, id);
}

/**
 * Where the combatant with this id stands in the roster; -1 for nobody. A scan comparing ids:
 * over a few dozen combatants, whose ids are the very strings the events and the order hold,
 * as cheap as a record's keyed load was.
 */
export function placeOf(combatants: ShiningForceState['combatants'], id: string): number {
  for (let i = 0; i < combatants.length; i++) if (combatants[i]!.id === id) return i;
  return -1;
}

/** The combatant with this id, if any. */
export function combatantOf(state: ShiningForceState, id: string): CombatantState | undefined {
  const place = placeOf(state.combatants, id);
  return place < 0 ? undefined : state.combatants[place];
}

export function hasStatus(c: CombatantState, status: StatusName): StatusInstance | undefined {
  for (const s of c.statuses) if (s.status === status) return s;
  return undefined;
}

/** The side a combatant fights for now: a Charmed one fights for its charmer. */
export function sideOf(c: CombatantState): string {
  if (c.statuses.length === 0) return c.side;
  return hasStatus(c, 'charmed')?.side ?? c.side;
}

export function areEnemies(a: CombatantState, b: CombatantState): boolean {
  return sideOf(a) !== sideOf(b);
}
