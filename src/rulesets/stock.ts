/**
 * Items a combatant carries as counts by item id (FFVIII's and ZODIAC's Potions): how many in
 * all, for a view's `items` and so for the simulator's items used.
 */
export function stockOf(counts: Readonly<Record<string, number>>): number {
  let total = 0;
  for (const id in counts) if (Object.hasOwn(counts, id)) total += Math.max(0, counts[id]!);
  return total;
}
