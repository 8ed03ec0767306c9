import type { z } from 'zod';
import type { ContentKind, ContentLibrary } from '../content/index.js';
import type { CommandBase, EventBase, Result, Ruleset } from '../engine/index.js';

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
  readonly statuses: readonly { readonly name: string; readonly timer: string }[];
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

/** Chance and damage of an action, from the exact odds engine. */
export interface ActionOdds {
  readonly lines: readonly string[];
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
  /** Odds of an action for the combatant whose turn it is, when the system can tell. */
  odds?(state: State, command: Command): ActionOdds | undefined;
  /**
   * A command typed in the system's own words (`move max c4`), for what the legal actions list
   * only by label; undefined when the text is not one.
   */
  parseAction?(state: State, text: string): Command | undefined;
}

/** A system whose types are not known to the caller: the registry, encounter files. */
// Method syntax above makes every GameSystem<...> assignable to this.
export type AnySystem = GameSystem<unknown, unknown, CommandBase, EventBase, unknown>;
