import type { z } from 'zod';
import type { ContentKind, ContentLibrary } from '../content/index.js';
import type { CommandBase, EventBase, gm, Result, Ruleset } from '../engine/index.js';
import type { CampaignRules } from './campaign.js';

/** One combatant as any tool shows it, whatever the system. */
export interface CombatantView {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly hp: number;
  readonly maxHp: number;
  readonly mp: number;
  /** 0 for a combatant (or a system) without MP: interfaces then show none. */
  readonly maxMp: number;
  /** Out of the fight: knocked out, fled, or unable to fight on. */
  readonly out: boolean;
  /**
   * Out because it fled (its own Flee, or the GM's `remove <who> fled`): shown as fled, never
   * as down, and its foes win nothing for it (docs/rulings.md).
   */
  readonly fled: boolean;
  /**
   * Items it carries that a fight uses up (Potions, Phoenix Downs, Medical Herbs), counted;
   * absent in a system whose combatants carry none into a fight (FFRPG).
   */
  readonly items?: number;
  /**
   * `id`: what `gm status <who> -<id>` ends it by; absent for a mark the GM does not end so
   * (Defending, Fled, a cracked item).
   */
  readonly statuses: readonly {
    readonly id?: string;
    readonly name: string;
    readonly timer: string;
  }[];
  /**
   * What it holds to cast from, counted: FFVIII's Spellshards in its Spell Matrix. Not statuses:
   * a screen listing `Thunder x3` under "Statuses" misreads it as something done to it.
   */
  readonly stock?: readonly { readonly name: string; readonly count: number }[];
  /** The GM's notes on it ("concentrating", "behind the pillar"). */
  readonly notes: readonly string[];
  /**
   * Its place on the system's clock, in the system's words: `{ initiative: 12 }` (FFRPG),
   * `{ shot: 9, debt: 2 }` (FFVIII), `{ sp: 15, speed: 12 }` (ZODIAC), `{ turn: 3, cell: 'C4' }`
   * (Shining Force). null where it has none now.
   */
  readonly clock: Readonly<Record<string, number | string | null>>;
}

/** The state of an encounter in the system's own terms, for a terminal or a web page. */
export interface EncounterView {
  /** `Round 2, Initiative 12`, `Shot 9`, `Tick 3 of round 1`. */
  readonly timing: string;
  /** The countdown, the shot clock or the order, a line each: `> Hiro 15`, `  Heket 12`. */
  readonly order: readonly string[];
  /** Whose turn it is, if the encounter waits on a combatant. */
  readonly actor: string | null;
  readonly sides: readonly { readonly id: string; readonly name: string }[];
  readonly combatants: readonly CombatantView[];
  /** The timing state as data: `{ round: 2, phase: 'action', initiative: 12 }`. */
  readonly clock: Readonly<Record<string, number | string | null>>;
  /** A battlefield drawn as text, a line each, for systems played on a grid. */
  readonly board?: readonly string[];
}

export interface Brief {
  readonly actor: string | null;
  readonly combatants: readonly {
    readonly id: string;
    readonly side: string;
    readonly hp: number;
    readonly out: boolean;
  }[];
}

/** The odds of one action: what a table asks before committing to it. */
export interface ActionOdds {
  /** One short line for the legal actions list: `hit 72%, 8-14 dmg, KO 12%`. */
  readonly summary: string;
  /** The detail `odds <n>` prints. */
  readonly lines: readonly string[];
  /** Whom the chances below are about, when the action has one main target. */
  readonly target?: string;
  /** Chance the action hits or succeeds (0 to 1). */
  readonly chance?: number;
  /** HP the target loses when it hits (healing: HP it gains), before its current HP caps it. */
  readonly damage?: { readonly min: number; readonly mean: number; readonly max: number };
  /**
   * Mean HP loss the target takes from this action, a miss counted as 0: what `damageOf` adds
   * up over the action's events. For checking odds against sampled play.
   */
  readonly meanDamage?: number;
  /** Chance the target is out of the fight once the action resolves. */
  readonly knockOut?: number;
  /** Chance a status the action carries lands. */
  readonly status?: number;
  /** What it spends: `8 MP`, `3 shots`, `a Potion`. */
  readonly cost?: string;
  /** False where an estimate stands in for exact odds (the lines say which part). */
  readonly exact: boolean;
}

/** A roll a command may ask for: its purpose (how it is entered) and its notation. */
export interface RollSlot {
  readonly purpose: string;
  readonly notation: string;
  /**
   * The combatant whose roll it is under the rules: an attacker's hit and damage, a caster's
   * spell, the target's counter or Reaction, a Slow ability's caster when it goes off. Its
   * player may enter it, and nobody else's player. Absent for the table's rolls: initiative,
   * turn order and Speed Points (unless the encounter's option gives them to the players:
   * `orderRolls`), a GM's amount, a status checked at the start of a turn, a
   * random pick of whom an action strikes. Where two rollers' rolls share a purpose, the first
   * asked for names it: the engine numbers the later ones (`#2`).
   */
  readonly roller?: string;
  /**
   * The dice as a person reads them, the roller's numbers in place of the rule's variables:
   * `d10 + 20` for `1d10+SPD`, `d% (tens, units)`, FFVIII's `positive die, negative die`.
   */
  readonly label: string;
  /**
   * Each die laid on the table, in the order its faces are entered, and the faces it may show
   * (a d10 takes 0 for its tenth face); absent where the count is not fixed (dice that explode).
   */
  readonly faces?: readonly RollRange[];
  /** What the dice may show added up, without modifiers (a d% read as one number, 1 to 100). */
  readonly sum?: RollRange;
  /** What the roll may total with its modifiers. */
  readonly total?: RollRange;
  /**
   * Those ranges as an entry shows them: `die 1–12 · total 21–32`; empty where the dice set no
   * bounds (Feng Shui's reroll after each 6).
   */
  readonly accepts: string;
}

/**
 * The rolls that order a round still to come (FFRPG's and FFVIII's Initiative, ZODIAC's
 * first-round Speed Points, Shining Force's turn order), and whether the encounter's option gives
 * them to the players: each character's player may then enter its own ahead of the command that
 * rolls it, and the server holds it until then (docs/rulings.md, "Who rolls Initiative").
 */
export interface OrderRolls {
  /** The encounter option that gives them to the players: `playersRollInitiative`. */
  readonly option: string;
  /** Whether that option is on in this encounter. */
  readonly on: boolean;
  /** What the table calls them: `Initiative`, `Speed Points`, `turn order`. */
  readonly name: string;
  /**
   * One per combatant that will make the roll, each naming it as `roller` (a player enters only
   * its own character's), with the numbers it is made with now; empty when none is ahead (ZODIAC
   * after its first round) or the option is off.
   */
  readonly slots: readonly RollSlot[];
  /** The numbers each is rolled with now, by purpose (FFRPG's SPD in `1d10+SPD`): an entry is checked with them. */
  readonly variables?: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The lowest and highest of a roll's numbers, both allowed. */
export interface RollRange {
  readonly min: number;
  readonly max: number;
}

/**
 * What the tools (battle, sim, the web tracker) need from a system beyond its rules: how to
 * show it, how to read its events for statistics, and how to build an encounter from content.
 */
export interface GameSystem<
  Setup,
  State,
  Command extends CommandBase,
  Event extends EventBase,
  Spec,
> {
  readonly ruleset: Ruleset<Setup, State, Command, Event>;
  readonly kinds: readonly ContentKind<unknown>[];
  /** The folder of the system's starter content. */
  readonly starterContent: string;
  /** The system's part of an encounter file: sides, combatants by content id, options. */
  readonly encounterSpec: z.ZodType<Spec>;
  setupFrom(library: ContentLibrary, spec: Spec): Result<Setup>;
  view(state: State): EncounterView;
  /** What policies and statistics need, cheaply: whose turn, and who stands with how many HP. */
  brief(state: State): Brief;
  describe(events: readonly Event[], after: State): string[];
  /** Damage an event records, for statistics: who dealt how much to whom. */
  damageOf(
    event: Event,
  ): { readonly source: string; readonly target: string; readonly amount: number } | undefined;
  /** Rounds so far, for statistics. */
  rounds(state: State): number;
  /**
   * Odds of an action the legal actions list offers (every kind: attacks, spells, items,
   * off-turn answers); undefined only for what has no chance in it (ending a round, passing).
   */
  odds(state: State, command: Command): ActionOdds | undefined;
  /**
   * Every roll the command may ask for, by purpose, whatever the dice say (a damage roll after a
   * hit is listed even if the hit may miss): entered dice are checked against it before any roll
   * is asked for, and an interface shows which dice it will want. Purposes asked twice in one
   * command are numbered by the engine (`damage:heket#2`); list the base purpose.
   */
  rolls(state: State, command: Command): readonly RollSlot[];
  /** The rolls that order the next round, as the encounter's option gives them to the players. */
  orderRolls(state: State): OrderRolls;
  /** What the system adds to the GM's vocabulary (resources, clock, elements, examples). */
  readonly gm: gm.GmVocabulary;
  /**
   * The sheet `gm add <content-id>` brings in, read from content (a character or monster id),
   * as the ruleset's gm-add command carries it.
   */
  newcomer(library: ContentLibrary, contentId: string): Result<unknown>;
  /** What the GM's touch controls offer here: the statuses, with their timers, and the clock. */
  gmMenu(state: State): gm.GmMenu;
  /**
   * The statuses a GM line may name in this fight, by id and name (`+Armor Break`); absent
   * where statuses are free words (FFVIII).
   */
  gmStatuses?(state: State): readonly gm.RosterEntry[];
  /** System-only GM commands (`gm move max c4`, `gm death ogre`); undefined when not one. */
  parseGm?(state: State, line: string): Result<Command> | undefined;
  /**
   * A command typed in the system's own words (`move max c4`), for what the legal actions list
   * only by label; undefined when the text is not one.
   */
  parseAction?(state: State, text: string): Command | undefined;
  /** The rules between fights: a table's roster, after a battle, services (rulesets/campaign). */
  readonly campaign: CampaignRules<Setup, State, Spec>;
}

/** A system whose types are not known to the caller: the registry, encounter files. */
// Method syntax above makes every GameSystem<...> assignable to this.
export type AnySystem = GameSystem<unknown, unknown, CommandBase, EventBase, unknown>;
