import type { gm, RollRecord } from '../../engine/index.js';
import type { ActionCheck } from './action-dice.js';
import type { CombatantSheet } from './model.js';
import type { CarriedAction, PendingAttack } from './state.js';

/** What `gm-set` can set in FFVIII: there is no MP. */
export const GM_RESOURCES = ['hp', 'shots', 'debt', 'ammo', 'shards', 'item'] as const;
export type GmResourceName = (typeof GM_RESOURCES)[number];

export interface InitiativeRoll {
  readonly id: string;
  readonly roll: RollRecord;
  readonly speed: number;
  readonly bonus: number;
  readonly debt: number;
  /** d10 + Speed + bonus - debt; 0 or less acts not at all this round. */
  readonly initiative: number;
  /** Debt still owed after this round's initiative paid what it could. */
  readonly debtLeft: number;
}

/** An action check as the log shows it: AV 11 + dice -4 = 7 against Dodge 6: success by 1. */
export interface CheckRecord extends ActionCheck {
  readonly skill: string;
  /** What the difficulty was: `Dodge 6 + 3 (dodging)`, `Magic Evade 1`, `willing target`. */
  readonly against: string;
  readonly dice: RollRecord;
}

/** Damage as dealt, with its arithmetic: `12 + margin 0 - Toughness 15 = 0`. */
export interface DamageRecord {
  readonly target: string;
  readonly amount: number;
  readonly hpAfter: number;
  readonly breakdown: string;
}

export type FfviiiEvent =
  | {
      readonly type: 'round-began';
      readonly round: number;
      readonly initiative: readonly InitiativeRoll[];
      /** The highest initiative: the round's number of shots. */
      readonly shots: number;
    }
  | { readonly type: 'power-used'; readonly actor: string; readonly power: string }
  /** The GM calls the next shot anyone acts on (empty shots are skipped). */
  | { readonly type: 'shot-called'; readonly shot: number }
  | { readonly type: 'round-ended'; readonly round: number }
  /** An attack declared; its target chooses whether to dodge. */
  | {
      readonly type: 'attack-declared';
      readonly pending: PendingAttack;
      /** `Attack with Staff`, `Cast Thunder`: what the target is asked to dodge. */
      readonly action: string;
    }
  | {
      /** The target's answer: dodge (+3, 1 shot from its next action) or take it. */
      readonly type: 'dodge-chosen';
      readonly actor: string;
      readonly dodge: boolean;
      /** Its next shot after the answer. */
      readonly shot: number;
    }
  | {
      readonly type: 'action-taken';
      readonly actor: string;
      /** `Attack with Staff`, `Cast Thunder`. */
      readonly action: string;
      readonly target: string | null;
      readonly cost: number;
      /** Its next shot: the shot it acted on minus the cost, at least 0. */
      readonly shot: number;
      /** Shots the action ran past the end of the round. */
      readonly debt: number;
      readonly carrying: CarriedAction | null;
    }
  | {
      readonly type: 'check-rolled';
      readonly actor: string;
      readonly target: string | null;
      readonly check: CheckRecord;
    }
  | {
      readonly type: 'critical-failure';
      readonly actor: string;
      readonly target: string | null;
      /** What the text says follows, and what Moogle did about it. */
      readonly consequence: string;
    }
  | ({ readonly type: 'damage-dealt'; readonly source: string } & DamageRecord)
  | {
      readonly type: 'healed';
      readonly source: string;
      readonly target: string;
      readonly amount: number;
      readonly hpAfter: number;
    }
  | {
      readonly type: 'spell-spent';
      readonly actor: string;
      readonly spell: string;
      readonly left: number;
    }
  | {
      readonly type: 'item-spent';
      readonly actor: string;
      readonly item: string;
      readonly left: number;
    }
  | {
      readonly type: 'round-fired';
      readonly actor: string;
      readonly weapon: string;
      readonly left: number;
    }
  | {
      readonly type: 'reloaded';
      readonly actor: string;
      readonly weapon: string;
      readonly ammo: number;
    }
  | {
      readonly type: 'shard-drawn';
      readonly actor: string;
      readonly target: string;
      readonly spell: string;
      readonly stock: number;
    }
  | { readonly type: 'draw-barred'; readonly actor: string; readonly target: string }
  | {
      readonly type: 'shards-sensed';
      readonly actor: string;
      readonly target: string;
      readonly spells: readonly string[];
    }
  | { readonly type: 'sense-barred'; readonly actor: string; readonly target: string }
  | { readonly type: 'action-completed'; readonly actor: string; readonly action: string }
  | { readonly type: 'fell'; readonly target: string }
  | { readonly type: 'fled'; readonly actor: string }
  /**
   * The GM sets a resource: `hp`, `shots` (the next shot), `debt`, `ammo` of a weapon, `shards`
   * of a spell, `item` count. `requested` is there when the value was clamped to what the
   * resource can hold.
   */
  | {
      readonly type: 'gm-set';
      readonly target: string;
      readonly resource: GmResourceName;
      readonly key?: string;
      readonly value: number;
      readonly requested?: number;
      /** Why the value was clamped: `the maximum is 35`. */
      readonly clamp?: string;
    }
  /** A fallen combatant given HP by the GM is back in the fight. */
  | { readonly type: 'stood-up'; readonly target: string }
  /** Dice the GM's damage or healing was rolled with (`gm damage giant 2d6`), kept for replay. */
  | { readonly type: 'gm-amount-rolled'; readonly target: string; readonly roll: RollRecord }
  | {
      readonly type: 'status-set';
      readonly target: string;
      readonly status: string;
      /** Rounds left; null: until ended. */
      readonly rounds: number | null;
    }
  | {
      readonly type: 'status-ended';
      readonly target: string;
      readonly status: string;
      readonly reason: 'gm' | 'expired';
    }
  /** A newcomer joins mid-fight; `initiative` when it rolled because a round was under way. */
  | {
      readonly type: 'combatant-joined';
      readonly side: string;
      readonly sheet: CombatantSheet;
      readonly initiative: InitiativeRoll | null;
      /** Its next shot: its initiative, or the shot now called when that has already passed. */
      readonly shot: number;
    }
  | {
      readonly type: 'combatant-left';
      readonly target: string;
      readonly reason: 'fled' | 'dismissed';
    }
  /** The attack waiting on a dodge is dropped: its target or its attacker left the fight. */
  | { readonly type: 'attack-cancelled'; readonly reason: string }
  /** The GM has the combatant lose its action on this shot. */
  | { readonly type: 'turn-skipped'; readonly target: string; readonly shot: number }
  | gm.NoteEvent
  | { readonly type: 'battle-ended'; readonly winner: string | null; readonly reason: string };
