import type { CommandBase, LegalAction } from '../engine/index.js';
import type { Brief } from '../rulesets/system.js';
import type { Policy } from './policy.js';
import { tactician } from './tactician/index.js';

// The type lives below both this table and the tactician, which is one of its policies.
export type { DirectChoice, Policy } from './policy.js';

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
  // One pass, no sorting or filtering: a policy runs before every simulated command.
  const view = system.brief(state);
  let actor: Brief['combatants'][number] | undefined;
  for (const c of view.combatants) if (c.id === view.actor) actor = c;
  if (actor === undefined) return actions[0]!;
  let best: LegalAction<CommandBase> | undefined;
  let bestHp = Number.POSITIVE_INFINITY;
  let bestId = '';
  let bestIsAttack = false;
  for (const action of actions) {
    if (actorOf(action.command) !== actor.id) continue;
    const target = targetOf(action.command);
    let enemy: Brief['combatants'][number] | undefined;
    for (const c of view.combatants) if (c.id === target) enemy = c;
    if (enemy === undefined || enemy.side === actor.side || enemy.out) continue;
    const isAttack = action.command.type === 'attack';
    const order = enemy.hp - bestHp || (best === undefined ? -1 : enemy.id.localeCompare(bestId));
    if (order < 0 || (order === 0 && isAttack && !bestIsAttack)) {
      best = action;
      bestHp = enemy.hp;
      bestId = enemy.id;
      bestIsAttack = isAttack;
    }
  }
  return best ?? random(system, state, actions, dice);
};

/** The first legal action: the simplest table, and the cheapest to simulate. */
const first: Policy = (_system, _state, actions) => actions[0]!;

/** Attack an enemy whenever possible (the first listed), else the first legal action. */
const attacker: Policy = (_system, _state, actions) =>
  actions.find((a) => a.command.type === 'attack') ??
  actions.find((a) => a.command.type !== 'flee') ??
  actions[0]!;

export const POLICIES: Readonly<Record<string, Policy>> = {
  tactician,
  'focus-weakest': focusWeakest,
  random,
  attacker,
  first,
};

export const DEFAULT_POLICY = 'tactician';

export function policyNamed(name: string): Policy | undefined {
  return Object.hasOwn(POLICIES, name) ? POLICIES[name] : undefined;
}
