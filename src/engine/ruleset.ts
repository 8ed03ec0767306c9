import type { DiceRoller } from './dice.js';
import type { Result } from './result.js';

/** Anything a ruleset accepts as a command: imperative, named by `type` (`attack`, `use-ability`). */
export interface CommandBase {
  readonly type: string;
}

/** Anything a ruleset records: past tense, named by `type` (`attack-rolled`, `damage-dealt`). */
export interface EventBase {
  readonly type: string;
}

/** A command a combatant (or the GM) may give now, with a label a person can choose it by. */
export interface LegalAction<C extends CommandBase> {
  readonly label: string;
  readonly command: C;
  /**
   * Actions too many to list one by one (a unit's moves to every cell in reach) share a group:
   * an interface shows the group as one line and lets them be typed (`move max c4`).
   */
  readonly group?: string;
}

export type Outcome =
  | { readonly over: false }
  | {
      readonly over: true;
      /** The side left standing; null for a draw (everyone down at once). */
      readonly winner: string | null;
      readonly reason: string;
    };

/**
 * A game system, as plain functions over plain data (as a boardgame.io Game is): the engine
 * owns the log, dice, undo and saving, and never names anything system-specific.
 *
 * - `setup` is the JSON an encounter starts from (the content it uses, the sides), validated
 *   here because it also comes back from save files.
 * - `decide` checks a command against the state and resolves it into events, asking `dice` for
 *   every roll; it returns an error value for anything the user got wrong and never changes the
 *   state itself.
 * - `evolve` applies one event; pure and total, so replaying a log always rebuilds the state.
 */
export interface Ruleset<Setup, State, Command extends CommandBase, Event extends EventBase> {
  readonly id: string;
  readonly name: string;
  parseSetup(input: unknown): Result<Setup>;
  initialState(setup: Setup): State;
  parseCommand(input: unknown): Result<Command>;
  decide(state: State, command: Command, dice: DiceRoller): Result<readonly Event[]>;
  /**
   * decide, and the state its events lead to, when the ruleset has it at hand anyway: lets a
   * simulation skip applying every event a second time. Must equal folding evolve over the events.
   */
  resolve?(
    state: State,
    command: Command,
    dice: DiceRoller,
  ): Result<{ readonly events: readonly Event[]; readonly state: State }>;
  /**
   * resolve for a command this ruleset's own legal actions offer in this very state (what a
   * simulation's policy picks): checks that only catch a user's mistake may be skipped, and the
   * events must be those resolve gives. Anything else given to it is the caller's error; the
   * public paths (decide, resolve) always check.
   */
  resolveOffered?(
    state: State,
    command: Command,
    dice: DiceRoller,
  ): Result<{ readonly events: readonly Event[]; readonly state: State }>;
  evolve(state: State, event: Event): State;
  legalActions(state: State): readonly LegalAction<Command>[];
  outcome(state: State): Outcome;
}

/**
 * A ruleset whose types are not known to the caller (the registry, save files). Rulesets are
 * declared with method syntax, so every Ruleset<...> is one of these.
 */
export type AnyRuleset = Ruleset<unknown, unknown, CommandBase, EventBase>;
