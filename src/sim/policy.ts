import type { SeededDice } from '../dice/index.js';
import type { CommandBase, LegalAction } from '../engine/index.js';
import type { AnySystem } from '../rulesets/system.js';

/**
 * Who decides for a combatant when nobody at the table does: a function from the state and the
 * legal actions to one of them. Randomness comes from the dice stream it is handed.
 */
export type Policy = ((
  system: AnySystem,
  state: unknown,
  actions: readonly LegalAction<CommandBase>[],
  random: SeededDice,
) => LegalAction<CommandBase>) & {
  /**
   * The same choice made from the state alone, without the legal actions written out one by one
   * (a unit's every cell of movement is a group to score, not a list of commands): the simulator
   * asks this first. Undefined, or an answer of undefined, means: use the list.
   */
  readonly direct?: DirectChoice;
};

/**
 * A policy's choice without the list: a command the system's own options offer in this state
 * (never one it would refuse), or undefined to be handed the list.
 */
export type DirectChoice = (
  system: AnySystem,
  state: unknown,
  random: SeededDice,
) => CommandBase | undefined;
