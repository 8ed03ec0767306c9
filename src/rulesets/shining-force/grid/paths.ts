/**
 * Movement on the battlefield: the cells a combatant can reach with its Movement, paying each
 * cell's terrain cost, never through an impassable cell or an enemy. Pure functions over plain
 * arrays; every loop is bounded by the number of cells.
 */

/** What stands on a cell, seen from the one moving. */
export type Occupant = 'ally' | 'enemy' | undefined;

export interface Terrain {
  readonly width: number;
  readonly height: number;
  /** The movement cost of each cell, by index (y * width + x); 0 for impassable. */
  readonly costs: readonly number[];
}

const NEIGHBOURS: readonly (readonly [number, number])[] = [
  [0, -1],
  [-1, 0],
  [1, 0],
  [0, 1],
];

/**
 * Cheapest cost from `start` to every cell within `budget`, -1 where out of reach. `enter`
 * says whether a step into a cell is allowed (its terrain and who stands there). A bucket
 * queue: costs are small whole numbers, so each bucket is visited once.
 */
function cheapest(
  terrain: Terrain,
  start: number,
  budget: number,
  enter: (index: number) => boolean,
): Int32Array {
  const { width, height, costs } = terrain;
  const size = width * height;
  const cost = new Int32Array(size).fill(-1);
  cost[start] = 0;
  const buckets: number[][] = [[start]];
  for (let spent = 0; spent <= budget && spent < buckets.length; spent++) {
    const bucket = buckets[spent];
    if (bucket === undefined) continue;
    for (const index of bucket) {
      if (cost[index] !== spent) continue;
      const x = index % width;
      const y = (index - x) / width;
      for (const [dx, dy] of NEIGHBOURS) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const next = ny * width + nx;
        const step = costs[next] ?? 0;
        if (step <= 0 || !enter(next)) continue;
        const total = spent + step;
        if (total > budget) continue;
        const known = cost[next]!;
        if (known !== -1 && known <= total) continue;
        cost[next] = total;
        const bucketAt = buckets[total];
        if (bucketAt === undefined) buckets[total] = [next];
        else bucketAt.push(next);
      }
    }
  }
  return cost;
}

/**
 * The cells a combatant may end its move on, with what each costs: its own cell (cost 0) and
 * every empty cell within Movement. Enemies block the way; allies may be passed through when
 * `passThroughAllies` (as in the Shining Force games), but never stood on.
 */
export function reachableCells(
  terrain: Terrain,
  start: number,
  movement: number,
  occupant: (index: number) => Occupant,
  passThroughAllies: boolean,
): Map<number, number> {
  const cost = cheapest(terrain, start, Math.max(0, movement), (index) => {
    const who = occupant(index);
    return who === undefined || (who === 'ally' && passThroughAllies);
  });
  const out = new Map<number, number>();
  for (let index = 0; index < cost.length; index++) {
    const c = cost[index]!;
    if (c < 0) continue;
    if (index !== start && occupant(index) !== undefined) continue;
    out.set(index, c);
  }
  return out;
}

/**
 * Movement cost from every cell to `goal`, ignoring who stands where (they move): how far a
 * cell is from an enemy by the paths the terrain allows. -1 where no path leads.
 */
export function distancesTo(terrain: Terrain, goal: number): Int32Array {
  const budget = terrain.width * terrain.height * 9;
  return cheapest(terrain, goal, budget, () => true);
}
