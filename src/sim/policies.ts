import type { SeededDice } from '../dice/index.js';
import type { CommandBase, LegalAction } from '../engine/index.js';
import type { AnySystem } from '../rulesets/system.js';

/**
 * Who decides for a combatant when nobody at the table does: a function from the state and the
 * legal actions to one of them. Randomness comes from the dice stream it is handed.
 */
export type Policy = (
  system: AnySystem,
  state: unknown,
  actions: readonly LegalAction<CommandBase>[],
  random: SeededDice,
) => LegalAction<CommandBase>;

function targetOf(command: CommandBase): string | undefined {
  const target = (command as { target?: unknown }).target;
  return typeof target === 'string' ? target : undefined;
}

function actorOf(command: CommandBase): string | undefined {
  const actor = (command as { actor?: unknown }).actor;
  return typeof actor === 'string' ? actor : undefined;
}

/** Any legal action, each as likely; fleeing only when nothing else is left. */
const random: Policy = (_system, _state, actions, dice) => {
  const staying = actions.filter((a) => a.command.type !== 'flee');
  const pool = staying.length > 0 ? staying : actions;
  return pool[dice.roll(pool.length) - 1]!;
};

/**
 * Everyone goes for the enemy with the fewest HP left, with the first action that hurts it
 * (an attack or an ability aimed at it); if none, the first legal action.
 */
const focusWeakest: Policy = (system, state, actions, dice) => {
  const view = system.brief(state);
  const actor = view.actor === null ? undefined : view.combatants.find((c) => c.id === view.actor);
  if (actor === undefined) return actions[0]!;
  const enemies = view.combatants
    .filter((c) => c.side !== actor.side && !c.out)
    .sort((a, b) => a.hp - b.hp || a.id.localeCompare(b.id));
  for (const enemy of enemies) {
    const aimed = actions.filter(
      (a) => targetOf(a.command) === enemy.id && actorOf(a.command) === actor.id,
    );
    const attack = aimed.find((a) => a.command.type === 'attack') ?? aimed[0];
    if (attack !== undefined) return attack;
  }
  return random(system, state, actions, dice);
};

/** The first legal action: the simplest table, and the cheapest to simulate. */
const first: Policy = (_system, _state, actions) => actions[0]!;

/** Attack an enemy whenever possible (the first listed), else the first legal action. */
const attacker: Policy = (_system, _state, actions) =>
  actions.find((a) => a.command.type === 'attack') ??
  actions.find((a) => a.command.type !== 'flee') ??
  actions[0]!;

export const POLICIES: Readonly<Record<string, Policy>> = {
  'focus-weakest': focusWeakest,
  random,
  attacker,
  first,
};

export const DEFAULT_POLICY = 'focus-weakest';

export function policyNamed(name: string): Policy | undefined {
  return Object.hasOwn(POLICIES, name) ? POLICIES[name] : undefined;
}
