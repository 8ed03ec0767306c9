import type { gm } from '../../engine/index.js';
import type { CombatantSheet, ZodiacSetup } from './model.js';
import type { StatusId } from './statuses.js';

/** Why the GM took a combatant out of the fight. */
export type GmRemoveReason = (typeof gm.GM_REMOVE_REASONS)[number];

export interface StatusInstance {
  readonly status: StatusId;
  /** Ticks left, counted down as each tick passes; null: until cured or the battle ends. */
  readonly ticks: number | null;
  /** Death Sentence: the round at whose end HP drops to zero. */
  readonly untilRound: number | null;
}

export interface CombatantState {
  readonly id: string;
  readonly side: string;
  readonly sheet: CombatantSheet;
  /** Maximum HP, with the Damage Levels' zeroes. */
  readonly maxHp: number;
  readonly hp: number;
  readonly mp: number;
  /** Speed Points: gained each round, 8 spent per action, the rest carried over. */
  readonly sp: number;
  /** Unconscious is kept as a flag rather than in `statuses`: everything asks for it. */
  readonly unconscious: boolean;
  /** Dead by the GM's decision: beyond any Phoenix Down. */
  readonly dead: boolean;
  readonly statuses: readonly StatusInstance[];
  readonly defending: boolean;
  /** Potions left, by item id. */
  readonly items: Readonly<Record<string, number>>;
  /** Taken out of the fight by the GM (fled, dismissed): no longer in it, whatever its HP. */
  readonly gone: GmRemoveReason | null;
}

/** One turn in a tick: `group` numbers the simultaneous sets (equal SP and equal Speed). */
export interface QueueEntry {
  readonly id: string;
  /** Its SP when the tick began, which set its place. */
  readonly sp: number;
  readonly group: number;
}

/**
 * `start`: before the first round (nobody has rolled their 1d8); `ticks`: the battle is on;
 * `ended`.
 */
export type Phase = 'start' | 'ticks' | 'ended';

export interface ZodiacState {
  readonly setup: ZodiacSetup;
  readonly phase: Phase;
  readonly round: number;
  /** Ticks passed in this round so far plus one: the tick being played. */
  readonly tick: number;
  readonly combatants: Readonly<Record<string, CombatantState>>;
  /** Combatant ids in the order the setup lists them. */
  readonly order: readonly string[];
  /** This tick's turns, most SP first. */
  readonly queue: readonly QueueEntry[];
  /** The entry being played: the combatant whose turn it is while the battle waits on one. */
  readonly cursor: number;
  /**
   * The combatants of the current simultaneous group who could act when it began: each takes its
   * turn whatever the others' actions did to it ("both actions will take effect").
   */
  readonly committed: readonly string[];
  /** The current turn's Free Action is spent. */
  readonly freeActionUsed: boolean;
  /** Venom's once-per-round reading: who has suffered it this round. */
  readonly venomed: readonly string[];
  readonly result: { readonly winner: string | null; readonly reason: string } | null;
  /** Those whose next turn passes at the GM's word (`gm skip`), spending its 8 SP. */
  readonly skips: readonly string[];
  /** The GM's notes, by combatant id. */
  readonly notes: gm.Notes;
}

export function hasStatus(c: CombatantState, status: StatusId): boolean {
  // A loop, not some(): this runs for every combatant at every step of a simulated battle.
  for (const s of c.statuses) if (s.status === status) return true;
  return false;
}

/** Still in the fight: conscious, alive, and not sent away by the GM. */
export function isStanding(c: CombatantState): boolean {
  return !c.unconscious && !c.dead && c.gone === null;
}

/** Beyond revival: dead, or no longer in the fight at all. */
export function isBeyondRevival(c: CombatantState): boolean {
  return c.dead || c.gone !== null;
}

/**
 * Counts for its side: standing and not a statue. A side of statues is as beaten as one of
 * sleepers would not be: Stone is Permanent (rulings).
 */
export function isFighting(c: CombatantState): boolean {
  return isStanding(c) && !hasStatus(c, 'stone');
}

export function currentEntry(state: ZodiacState): QueueEntry | undefined {
  return state.phase === 'ticks' ? state.queue[state.cursor] : undefined;
}

/** The combatant whose turn it is, if the battle waits on one. */
export function currentActor(state: ZodiacState): CombatantState | undefined {
  const entry = currentEntry(state);
  return entry === undefined ? undefined : state.combatants[entry.id];
}

/** Speed with Haste (x1.5), Slow (x1/2) and Stop (0), rounded down. */
export function effectiveSpeed(c: CombatantState): number {
  let speed = c.sheet.stats.speed;
  let stopped = false;
  for (const s of c.statuses) {
    if (s.status === 'stop') stopped = true;
    else if (s.status === 'haste') speed = Math.floor((speed * 3) / 2);
    else if (s.status === 'slow') speed = Math.floor(speed / 2);
  }
  return stopped ? 0 : speed;
}
