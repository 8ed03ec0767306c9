import type { gm, RollRecord } from '../../engine/index.js';
import type { CombatantSheet } from './model.js';
import type { GmRemoveReason, QueueEntry } from './state.js';
import type { StatusId } from './statuses.js';

/** An attack roll as the log shows it: "d100 [57] + Accuracy 40 = 97 against Evade 60: hit". */
export interface AttackRecord {
  /** Null when the attack needs no roll (a sleeping target is hit automatically). */
  readonly roll: RollRecord | null;
  readonly natural: number;
  readonly accuracy: number;
  /** Blind -30, short range against a flying target -60. */
  readonly penalties: readonly { readonly reason: string; readonly amount: number }[];
  readonly total: number;
  readonly evade: number;
  readonly hit: boolean;
  /** A natural 90 or more: it hits whatever the Evade. */
  readonly automatic: boolean;
  readonly critical: boolean;
}

/** Damage as dealt: the roll, every modifier in order, and what the target has left. */
export interface DamageRecord {
  readonly target: string;
  readonly roll: RollRecord | null;
  /** HP lost, or with `absorbed` HP regained. */
  readonly amount: number;
  readonly absorbed: boolean;
  readonly hpAfter: number;
  /** `(1d8 [5] x 10) + 25 = 75, critical x2 = 150, Fire Resistance x1/2 = 75`; empty in a simulation. */
  readonly breakdown: string;
  /** What dealt it, for the log: an attack, a Tech, Poison, Venom, a reversed cure. */
  readonly cause: string;
}

/** What `gm <resource>` sets in ZODIAC. */
export type GmResourceName = 'hp' | 'mp' | 'sp' | 'item';

export interface SpGain {
  readonly id: string;
  readonly speed: number;
  /** The first round's extra 1d8. */
  readonly roll: RollRecord | null;
  readonly spAfter: number;
}

export type ZodiacEvent =
  | { readonly type: 'round-began'; readonly round: number; readonly gains: readonly SpGain[] }
  | { readonly type: 'tick-began'; readonly tick: number; readonly queue: readonly QueueEntry[] }
  /** A simultaneous group (or one combatant) starts: who will act whatever happens. */
  | { readonly type: 'group-began'; readonly cursor: number; readonly committed: readonly string[] }
  | { readonly type: 'turn-began'; readonly cursor: number; readonly actor: string }
  /** A turn that passes without an action: asleep, stunned, a statue. 8 SP are spent. */
  | {
      readonly type: 'turn-lost';
      readonly cursor: number;
      readonly actor: string;
      readonly reason: string;
      readonly spAfter: number;
    }
  /** No turn at all: knocked out, stopped, or without 8 SP any more. */
  | {
      readonly type: 'turn-skipped';
      readonly cursor: number;
      readonly actor: string;
      readonly reason: string;
    }
  | { readonly type: 'turn-ended'; readonly actor: string; readonly spAfter: number }
  | { readonly type: 'free-action'; readonly actor: string; readonly action: string }
  | {
      readonly type: 'attacked';
      readonly actor: string;
      readonly target: string;
      /** The weapon, or the Weapon Tech, used. */
      readonly with: string;
      readonly attack: AttackRecord;
    }
  | {
      readonly type: 'tech-used';
      readonly actor: string;
      readonly tech: string;
      readonly targets: readonly string[];
      readonly mpAfter: number;
    }
  /** A Wall turned a spell: back at the caster, or (bounce rule) at a random opponent. */
  | {
      readonly type: 'reflected';
      readonly from: string;
      readonly to: string | null;
      readonly tech: string;
      readonly roll: RollRecord | null;
    }
  | {
      readonly type: 'item-used';
      readonly actor: string;
      readonly item: string;
      readonly target: string;
      readonly left: number;
    }
  | { readonly type: 'defended'; readonly actor: string }
  | { readonly type: 'defend-ended'; readonly actor: string }
  | ({ readonly type: 'damage-dealt'; readonly source: string | null } & DamageRecord)
  | {
      readonly type: 'healed';
      readonly source: string | null;
      readonly target: string;
      readonly roll: RollRecord | null;
      readonly amount: number;
      readonly hpAfter: number;
      readonly cause: string;
    }
  | {
      readonly type: 'mp-changed';
      readonly target: string;
      readonly amount: number;
      readonly mpAfter: number;
      readonly cause: string;
    }
  | { readonly type: 'no-effect'; readonly target: string; readonly reason: string }
  /** d100 + Magic Accuracy against Resist. */
  | {
      readonly type: 'status-rolled';
      readonly actor: string;
      readonly target: string;
      readonly status: StatusId;
      readonly roll: RollRecord;
      readonly total: number;
      readonly resist: number;
      readonly success: boolean;
    }
  | {
      readonly type: 'status-inflicted';
      readonly target: string;
      readonly status: StatusId;
      readonly ticks: number | null;
      readonly untilRound: number | null;
    }
  | {
      readonly type: 'status-resisted';
      readonly target: string;
      readonly status: StatusId;
      readonly reason: string;
    }
  | {
      readonly type: 'status-ended';
      readonly target: string;
      readonly status: StatusId;
      readonly reason:
        | 'expired'
        | 'cured'
        | 'dispelled'
        | 'damage'
        | 'knocked-out'
        | 'battle-over'
        | 'replaced'
        | 'used';
    }
  | { readonly type: 'knocked-out'; readonly target: string }
  | {
      readonly type: 'revived';
      readonly target: string;
      readonly hp: number;
      readonly cause: string;
    }
  /** A tick has passed: timed effects count down by one. */
  | { readonly type: 'tick-ended'; readonly round: number; readonly tick: number }
  | { readonly type: 'round-ended'; readonly round: number }
  | { readonly type: 'battle-ended'; readonly winner: string | null; readonly reason: string }
  /** The GM sets a resource: HP, MP, SP or a Potion count, held to its range (`clamped`). */
  | {
      readonly type: 'resource-set';
      readonly target: string;
      readonly resource: GmResourceName;
      /** The Potion, for `item`. */
      readonly key: string | null;
      readonly before: number;
      readonly after: number;
      /** The value asked for lay outside the range (0 to the maximum) and was held to it. */
      readonly clamped: boolean;
    }
  /**
   * A newcomer joins mid-fight (`gm add`): its sheet, and the Speed Points it enters with, as
   * a combatant gets them at the start of a round (rulings).
   */
  | {
      readonly type: 'combatant-joined';
      readonly side: string;
      readonly sheet: CombatantSheet;
      readonly sp: number;
      readonly roll: RollRecord | null;
    }
  | { readonly type: 'combatant-removed'; readonly target: string; readonly reason: GmRemoveReason }
  /** `gm skip`: the combatant's next turn passes. */
  | { readonly type: 'skip-ordered'; readonly target: string }
  | gm.NoteEvent
  | { readonly type: 'died'; readonly target: string };
