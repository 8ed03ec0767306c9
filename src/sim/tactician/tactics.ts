import type { CommandBase, LegalAction } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type { Estimate, Field, Fighter } from './core.js';

export type Estimator = (command: CommandBase) => Estimate | undefined;

/** What one system tells the tactician: how to read its state and what its commands do. */
export interface Tactics {
  /** Every combatant's id, in the state's order. */
  ids(state: unknown): readonly string[];
  /**
   * One combatant, with maximum HP (the brief has none), read when asked: most decisions look
   * at two or three of them, so none is built for nothing.
   */
  fighter(state: unknown, id: string): Fighter | undefined;
  /**
   * One decision's scorer: what each command is expected to do; undefined for what does nothing
   * the scoring weighs (passing, waiting), which scores 0, so any useful option beats it. What
   * every option of the decision shares (who can reach which cell) is worked out once here.
   */
  estimator(system: AnySystem, state: unknown, field: Field): Estimator;
  /** Mean HP one blow of `attacker` takes off `defender`, a miss counted as 0. */
  threat(system: AnySystem, state: unknown, attacker: string, defender: string): number;
  /**
   * The choice the scoring would make of the legal actions, made from the system's options
   * without listing them (policies.ts, DirectChoice); undefined: score the list.
   */
  direct?(
    system: AnySystem,
    state: unknown,
    fieldOf: (actorId: string) => Field | undefined,
  ): CommandBase | undefined;
  /** A decision only this system has (FFVIII's dodge or take it); undefined: score as usual. */
  choose?(
    system: AnySystem,
    state: unknown,
    actions: readonly LegalAction<CommandBase>[],
    field: Field,
  ): LegalAction<CommandBase> | undefined;
}

export function actorOf(command: CommandBase): string | undefined {
  const actor = (command as { actor?: unknown }).actor;
  return typeof actor === 'string' ? actor : undefined;
}

export function targetOf(command: CommandBase): string | undefined {
  const target = (command as { target?: unknown }).target;
  return typeof target === 'string' ? target : undefined;
}

/**
 * A combatant of a state's record by id, in one lookup: every record is kept under its own id,
 * so an id naming a member of Object.prototype (`constructor`) finds nothing with that id.
 */
export function byId<C extends { readonly id: string }>(
  combatants: Readonly<Record<string, C>>,
  id: string | undefined,
): C | undefined {
  if (id === undefined) return undefined;
  const c = combatants[id];
  return c !== undefined && c.id === id ? c : undefined;
}
