import type { gm, RollRecord } from '../../engine/index.js';
import type { HeldItem, StatusName } from './model.js';
import type { CombatantState, StatusInstance } from './state.js';

/** One critical roll: which level it is for, its rate, and the d100. */
export interface CriticalRoll {
  readonly level: 1 | 2 | 3 | 'special';
  readonly rate: number;
  readonly roll: RollRecord;
  readonly success: boolean;
}

/** A variance roll read: the d100, and the 1d15 when it falls outside 34-66. */
export interface VarianceRecord {
  readonly roll: RollRecord;
  readonly amount: RollRecord | null;
  /** The percentage applied: -15 to +15. */
  readonly percent: number;
}

/**
 * An attack's five d100s and what they decided: hit, damage variance, criticals (one to four
 * rolls), counter, and the counter's damage variance.
 */
export interface AttackRecord {
  readonly actor: string;
  readonly target: string;
  readonly weapon: string;
  readonly evade: number;
  readonly hitRoll: RollRecord;
  /** Illusion on the attacker: "attacks are 50% less accurate". */
  readonly illusion: boolean;
  readonly hit: boolean;
  readonly variance: VarianceRecord;
  readonly criticals: readonly CriticalRoll[];
  /** The critical that struck (the strongest of those rolled under their rate), if any. */
  readonly critical: {
    readonly level: 1 | 2 | 3 | 'special';
    readonly damagePercent: number;
  } | null;
  readonly counterRate: number;
  readonly counterRoll: RollRecord;
  readonly counter: boolean;
  /** Why there is no counter though the roll was under the rate, if so. */
  readonly noCounter?: string;
  readonly counterVariance: VarianceRecord;
}

export interface DamageRecord {
  readonly source: string;
  readonly target: string;
  readonly amount: number;
  readonly hpAfter: number;
  /** `ATT 14 - DEF 6 = 8, +9% = 8, critical 150% = 12` */
  readonly breakdown: string;
  readonly counter: boolean;
}

export type ShiningForceEvent =
  | {
      readonly type: 'round-began';
      readonly round: number;
      readonly rolls: readonly {
        readonly id: string;
        readonly roll: RollRecord;
        readonly value: number;
      }[];
      readonly order: readonly string[];
    }
  | {
      readonly type: 'turn-began';
      readonly actor: string;
      readonly cursor: number;
      readonly canMove: boolean;
    }
  | {
      readonly type: 'status-rolled';
      readonly actor: string;
      readonly status: 'confused' | 'paralysed' | 'curse';
      readonly roll: RollRecord;
      readonly result: 'acts' | 'does-nothing' | 'attacks-friend';
    }
  | { readonly type: 'turn-lost'; readonly actor: string; readonly reason: string }
  | {
      readonly type: 'moved';
      readonly actor: string;
      readonly from: string;
      readonly to: string;
      readonly cost: number;
    }
  | { readonly type: 'attacked'; readonly attack: AttackRecord }
  | ({ readonly type: 'damage-dealt' } & DamageRecord)
  | {
      readonly type: 'spell-cast';
      readonly actor: string;
      readonly spell: string;
      readonly at: string;
      readonly targets: readonly string[];
      readonly mpAfter: number;
    }
  | {
      readonly type: 'item-used';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
      readonly at: string;
      readonly targets: readonly string[];
    }
  | {
      readonly type: 'effect-damage';
      readonly source: string;
      readonly target: string;
      readonly variance: VarianceRecord;
      readonly amount: number;
      readonly hpAfter: number;
    }
  | {
      readonly type: 'healed';
      readonly source: string;
      readonly target: string;
      readonly hp: number;
      readonly mp: number;
      readonly hpAfter: number;
      readonly mpAfter: number;
    }
  | {
      readonly type: 'status-inflicted';
      readonly target: string;
      readonly instance: StatusInstance;
      readonly chance: number | null;
      readonly roll: RollRecord | null;
      /** Put on by the GM (`gm status`). */
      readonly gm?: true;
    }
  | {
      readonly type: 'status-resisted';
      readonly target: string;
      readonly status: StatusName | 'defeat';
      readonly chance: number;
      readonly roll: RollRecord;
    }
  | {
      readonly type: 'status-ended';
      readonly target: string;
      readonly status: StatusName;
      readonly reason: 'expired' | 'cured' | 'defeated' | 'gm';
    }
  | {
      readonly type: 'instantly-defeated';
      readonly source: string;
      readonly target: string;
      readonly chance: number;
      readonly roll: RollRecord;
    }
  | {
      readonly type: 'points-lost';
      readonly target: string;
      readonly cause: 'poison' | 'curse';
      readonly hp: number;
      readonly mp: number;
      readonly hpAfter: number;
      readonly mpAfter: number;
    }
  | { readonly type: 'defeated'; readonly target: string }
  | {
      /** The end of a combatant's turn counts down its statuses; these ran out. */
      readonly type: 'statuses-counted';
      readonly target: string;
      readonly ended: readonly StatusName[];
    }
  | {
      readonly type: 'item-condition';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
      readonly roll: RollRecord | null;
      readonly result: 'good' | 'cracked' | 'broke' | 'used-up';
    }
  | {
      readonly type: 'item-given';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
      readonly to: string;
    }
  | {
      readonly type: 'item-equipped';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
    }
  | {
      readonly type: 'item-unequipped';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
    }
  | {
      readonly type: 'item-dropped';
      readonly actor: string;
      readonly item: string;
      readonly slot: number;
    }
  | {
      readonly type: 'exp-gained';
      readonly actor: string;
      readonly amount: number;
      readonly reason: string;
    }
  | { readonly type: 'turn-ended'; readonly actor: string }
  | { readonly type: 'round-ended'; readonly round: number }
  | GmEvent
  | {
      readonly type: 'battle-ended';
      readonly winner: string | null;
      readonly reason: string;
      readonly gold: number;
    };

/** What the GM's commands record: each carries its outcome, so replay never decides again. */
export type GmEvent =
  | gm.NoteEvent
  | {
      /** `gm hp` / `gm mp`: the current value set, clamped to 0..maximum (then `clamped`). */
      readonly type: 'points-set';
      readonly target: string;
      readonly resource: 'hp' | 'mp';
      readonly before: number;
      readonly after: number;
      readonly clamped: boolean;
    }
  /** HP set above 0 on a defeated combatant: it stands again. */
  | { readonly type: 'revived'; readonly target: string }
  | {
      /** `gm item`: how many of an item it carries; `items` is its whole list after. */
      readonly type: 'items-set';
      readonly target: string;
      readonly item: string;
      readonly before: number;
      readonly after: number;
      readonly clamped: boolean;
      readonly items: readonly HeldItem[];
    }
  | {
      readonly type: 'item-cracked-set';
      readonly target: string;
      readonly item: string;
      readonly slot: number;
      readonly cracked: boolean;
    }
  | {
      /** `gm add`: a newcomer on a cell, with its place in this round's order (if any). */
      readonly type: 'combatant-joined';
      readonly combatant: CombatantState;
      readonly at: string;
      /** Its turn-order roll and value, when it joins a round under way. */
      readonly roll: RollRecord | null;
      readonly value: number | null;
      /** Its index in this round's order; null when it waits for the next round. */
      readonly place: number | null;
    }
  | {
      readonly type: 'combatant-left';
      readonly target: string;
      readonly reason: 'fled' | 'dismissed';
    }
  | {
      /** `gm clock`: its place in this round's order (1-based), and the order after. */
      readonly type: 'order-set';
      readonly target: string;
      readonly from: number;
      readonly to: number;
      readonly clamped: boolean;
      readonly order: readonly string[];
      readonly cursor: number;
      /** The one whose turn it was waits for a later place: its turn is put off. */
      readonly delayed: boolean;
    }
  /** `gm skip` on someone not acting now: its next turn passes. */
  | { readonly type: 'skip-ordered'; readonly target: string }
  | {
      /** `gm damage`: raw, or as a blow of that Attack against its Defence. */
      readonly type: 'gm-damage-dealt';
      readonly target: string;
      readonly amount: number;
      readonly hpAfter: number;
      readonly breakdown: string;
      readonly roll: RollRecord | null;
    }
  | {
      readonly type: 'gm-healed';
      readonly target: string;
      readonly amount: number;
      readonly hpAfter: number;
      readonly roll: RollRecord | null;
    }
  /** `gm move`: put on a cell, whatever the movement cost. */
  | {
      readonly type: 'placed';
      readonly target: string;
      readonly from: string;
      readonly to: string;
    };
