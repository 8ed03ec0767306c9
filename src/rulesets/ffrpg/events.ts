import type { gm, RollRecord } from '../../engine/index.js';
import type { Charging, CombatantState, Rewards, TimelineEntry, Timer } from './state.js';

/** A d% check as the log shows it: "CoS 70 (92 - EVA 22), rolled 28: hit". */
export interface CheckRecord {
  readonly cos: number;
  /** How the CoS was made: `ACC 42 + Guns 50 - EVA 22`. */
  readonly formula: string;
  readonly roll: RollRecord | null;
  readonly success: boolean;
  readonly critical: boolean;
  readonly botch: boolean;
  readonly ruleOf10: boolean;
  readonly automatic: boolean;
}

export interface InitiativeRoll {
  readonly id: string;
  readonly roll: RollRecord;
  readonly initiative: number;
}

/** Damage as dealt: the roll, every modifier in order, and what the target has left. */
export interface DamageRecord {
  readonly target: string;
  readonly roll: RollRecord | null;
  readonly amount: number;
  /** Absorbed damage heals: amount is then the HP restored. */
  readonly absorbed: boolean;
  readonly hpAfter: number;
  /** Set when the damage was to MP: what the target has left. */
  readonly mpAfter?: number;
  /** `30 - ARM 10 = 20` */
  readonly breakdown: string;
}

export type FfrpgEvent =
  | {
      readonly type: 'round-began';
      readonly round: number;
      readonly initiative: readonly InitiativeRoll[];
      readonly timeline: readonly TimelineEntry[];
    }
  | { readonly type: 'turn-began'; readonly cursor: number; readonly actor: string }
  | {
      readonly type: 'turn-skipped';
      readonly cursor: number;
      readonly actor: string;
      readonly reason: string;
    }
  | { readonly type: 'turn-ended'; readonly actor: string }
  | {
      readonly type: 'fixed-event';
      readonly cursor: number;
      readonly event: string;
      readonly name: string;
    }
  | {
      readonly type: 'attack-made';
      readonly actor: string;
      readonly target: string;
      readonly weapon: string;
      readonly check: CheckRecord;
      /** True for a counter-attack or another Reaction's attack. */
      readonly reaction: boolean;
    }
  | {
      readonly type: 'ability-used';
      readonly actor: string;
      readonly ability: string;
      readonly targets: readonly string[];
      readonly mpAfter: number;
      readonly hpAfter: number;
      readonly paid: string;
    }
  | { readonly type: 'ability-charging'; readonly charging: Charging; readonly cursor: number }
  | { readonly type: 'charge-resolved'; readonly id: string; readonly cursor: number }
  | {
      readonly type: 'charge-fizzled';
      readonly id: string;
      readonly cursor: number;
      readonly reason: string;
    }
  | {
      readonly type: 'effect-checked';
      readonly actor: string;
      readonly target: string;
      readonly ability: string;
      readonly check: CheckRecord;
    }
  | {
      readonly type: 'reaction-triggered';
      readonly actor: string;
      readonly ability: string;
      readonly against: string;
      readonly check: CheckRecord;
    }
  | ({ readonly type: 'damage-dealt'; readonly source: string } & DamageRecord)
  | {
      readonly type: 'healed';
      readonly source: string;
      readonly target: string;
      readonly roll: RollRecord | null;
      readonly amount: number;
      readonly hpAfter: number;
    }
  | {
      readonly type: 'status-inflicted';
      readonly target: string;
      readonly status: string;
      readonly timer: Timer;
    }
  | {
      readonly type: 'status-resisted';
      readonly target: string;
      readonly status: string;
      readonly reason: string;
    }
  | {
      readonly type: 'status-ended';
      readonly target: string;
      readonly status: string;
      readonly reason: 'expired' | 'cured' | 'knocked-out' | 'damage';
    }
  | { readonly type: 'status-timers-counted'; readonly round: number }
  | { readonly type: 'knocked-out'; readonly target: string }
  | { readonly type: 'fled'; readonly actor: string }
  | {
      readonly type: 'task-checked';
      readonly actor: string;
      readonly task: string;
      readonly rating: { readonly name: string; readonly value: number };
      readonly modifier: number;
      readonly check: CheckRecord;
    }
  | {
      readonly type: 'opposed-checked';
      readonly task: string;
      readonly participants: readonly {
        readonly actor: string;
        readonly rating: { readonly name: string; readonly value: number };
        readonly modifier: number;
        readonly check: CheckRecord;
      }[];
      /** The winner, or a stalemate and who rolls again. */
      readonly outcome:
        | { readonly result: 'winner'; readonly winner: string }
        | {
            readonly result: 'stalemate';
            readonly reason: 'all-failed' | 'tie';
            readonly reroll: readonly string[];
          };
    }
  | { readonly type: 'scene-ended'; readonly round: number }
  | { readonly type: 'round-ended'; readonly round: number }
  | { readonly type: 'battle-ended'; readonly winner: string | null; readonly reason: string }
  | { readonly type: 'rewards-awarded'; readonly rewards: Rewards }
  | {
      /** The GM sets current HP or MP: `clamped` when the value asked for was out of range. */
      readonly type: 'resource-set';
      readonly target: string;
      readonly resource: 'hp' | 'mp';
      readonly value: number;
      readonly clamped: boolean;
      /** HP above 0 brought a knocked-out combatant back. */
      readonly revived: boolean;
    }
  | {
      /**
       * A newcomer joins its side. Mid-round it rolled Initiative: `at` is where it entered
       * the countdown, or null when its count had passed (it acts from the next round).
       */
      readonly type: 'combatant-joined';
      readonly combatant: CombatantState;
      readonly initiative: InitiativeRoll | null;
      readonly at: number | null;
    }
  | {
      readonly type: 'combatant-removed';
      readonly target: string;
      readonly reason: 'fled' | 'dismissed';
    }
  | {
      /**
       * The GM moves a combatant on this round's countdown: its pending turn (if any) leaves
       * its place and takes `at` with Initiative `count`.
       */
      readonly type: 'initiative-set';
      readonly target: string;
      readonly count: number;
      readonly at: number;
    }
  /** The GM takes away a combatant's pending turn this round. */
  | { readonly type: 'turn-cancelled'; readonly actor: string; readonly at: number }
  | gm.NoteEvent;
