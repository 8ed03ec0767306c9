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
}

export function currentEntry(state: FfrpgState): TimelineEntry | undefined {
  return state.phase === 'action' ? state.timeline[state.cursor] : undefined;
}

/** The combatant whose turn it is, if the countdown is waiting on one. */
export function currentActor(state: FfrpgState): CombatantState | undefined {
  const entry = currentEntry(state);
  return entry?.kind === 'combatant' ? state.combatants[entry.id] : undefined;
}

export function isActive(c: CombatantState): boolean {
  return !c.down && !c.fled;
}
