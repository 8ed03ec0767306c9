import { combatantById, type gm } from '../../engine/index.js';
import type { CombatantSheet, FfrpgSetup } from './model.js';

export type Timer = number | 'infinite';

export interface StatusInstance {
  readonly status: string;
  /** Rounds left, counted down in each Status Phase; 'infinite' for (∞). */
  readonly timer: Timer;
}

export interface CombatantState {
  readonly id: string;
  readonly side: string;
  readonly sheet: CombatantSheet;
  readonly hp: number;
  readonly mp: number;
  readonly statuses: readonly StatusInstance[];
  /** At 0 HP: out of the fight until healed by the GM. */
  readonly down: boolean;
  readonly fled: boolean;
  readonly level: number;
  readonly xp: number;
}

/**
 * A point on the Initiative countdown: a combatant's turn, a fixed-Initiative event, or a Slow
 * ability's Charge Time running out.
 */
export interface TimelineEntry {
  readonly kind: 'combatant' | 'event' | 'charge';
  readonly id: string;
  readonly count: number;
}

/** A Slow ability declared and not yet resolved. */
export interface Charging {
  readonly id: string;
  readonly actor: string;
  readonly ability: string;
  readonly targets: readonly string[];
  readonly resolvesAt: number;
}

export interface RewardShare {
  readonly id: string;
  readonly xp: number;
  readonly gil: number;
  readonly levelBefore: number;
  readonly levelAfter: number;
}

export interface Rewards {
  readonly xp: number;
  readonly gil: number;
  readonly shares: readonly RewardShare[];
  /** What did not divide evenly among the shares. */
  readonly unsplitXp: number;
  readonly unsplitGil: number;
}

export type Phase = 'initiative' | 'action' | 'ended';

/**
 * An FFRPG battle: a special Scene of Rounds, each with its Initiative, Action and Status Phase.
 * Plain data; `setup` is shared, never copied.
 */
export interface FfrpgState {
  readonly setup: FfrpgSetup;
  readonly round: number;
  readonly phase: Phase;
  readonly combatants: Readonly<Record<string, CombatantState>>;
  /** Combatant ids in the order the setup lists them. */
  readonly order: readonly string[];
  /** This round's countdown, highest Initiative first. */
  readonly timeline: readonly TimelineEntry[];
  /** The entry being resolved now (a combatant's turn while the Action Phase waits on them). */
  readonly cursor: number;
  readonly charging: readonly Charging[];
  readonly result: { readonly winner: string | null; readonly reason: string } | null;
  readonly rewards: Rewards | null;
  /** The GM's notes on combatants, by id. */
  readonly notes: gm.Notes;
}

export function currentEntry(state: FfrpgState): TimelineEntry | undefined {
  return state.phase === 'action' ? state.timeline[state.cursor] : undefined;
}

/** The combatant whose turn it is, if the countdown is waiting on one. */
export function currentActor(state: FfrpgState): CombatantState | undefined {
  const entry = currentEntry(state);
  return entry?.kind === 'combatant' ? combatantById(state.combatants, entry.id) : undefined;
}

export function isActive(c: CombatantState): boolean {
  return !c.down && !c.fled;
}

/**
 * The countdown with a combatant's pending turn (its entry at or after the cursor, if any) moved
 * to Initiative `count`: after every later entry on a higher or equal count, as one arriving
 * last on its count. `at` is its new place; `passed` when the countdown is already below
 * `count` (the combatant cannot act on it this round). Pure: decide and evolve share it.
 */
export function moveOnCountdown(
  state: FfrpgState,
  id: string,
  count: number,
): { timeline: TimelineEntry[]; cursor: number; at: number; passed: boolean } {
  const now = state.timeline[state.cursor]?.count ?? Number.POSITIVE_INFINITY;
  let cursor = state.cursor;
  const timeline: TimelineEntry[] = [];
  state.timeline.forEach((entry, i) => {
    if (i >= state.cursor && entry.kind === 'combatant' && entry.id === id) {
      if (i === state.cursor) cursor--;
      return;
    }
    timeline.push(entry);
  });
  let at = timeline.length;
  for (let i = Math.max(cursor + 1, 0); i < timeline.length; i++) {
    if (timeline[i]!.count < count) {
      at = i;
      break;
    }
  }
  timeline.splice(at, 0, { kind: 'combatant', id, count });
  return { timeline, cursor, at, passed: count > now };
}

/** Where a combatant's turn still waits on this round's countdown, if it does (the cursor included). */
export function pendingTurn(state: FfrpgState, id: string): number | undefined {
  for (let i = Math.max(state.cursor, 0); i < state.timeline.length; i++) {
    const entry = state.timeline[i]!;
    if (entry.kind === 'combatant' && entry.id === id) return i;
  }
  return undefined;
}
