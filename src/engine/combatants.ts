/**
 * What every ruleset's state does with its combatants, kept by id in a record: look one up
 * (own data only, so an id such as `constructor` names nobody) and replace one.
 */

/** The combatant with this id, never a member of Object.prototype. */
export function combatantById<C>(
  combatants: Readonly<Record<string, C>>,
  id: string,
): C | undefined {
  return Object.hasOwn(combatants, id) ? combatants[id] : undefined;
}

/**
 * The record with one combatant replaced, keys in `order`: every state's record then has the
 * same keys in the same order, which keeps property access fast in a simulation's hot loop.
 */
export function withCombatantReplaced<C>(
  combatants: Readonly<Record<string, C>>,
  order: readonly string[],
  id: string,
  next: C,
): Record<string, C> {
  const out: Record<string, C> = {};
  for (const key of order) out[key] = key === id ? next : combatants[key]!;
  return out;
}
