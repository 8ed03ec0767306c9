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

/** Who stands on each cell, by index, as `moveCosts` reads it. */
export const CELL_EMPTY = 0;
export const CELL_ALLY = 1;
export const CELL_ENEMY = 2;

/** The search's queue, reused from call to call (the search never calls itself). */
const queue: number[] = [];

/**
 * Cheapest cost from `start` to every cell within `budget`, -1 where out of reach. A step into
 * a cell is allowed on passable terrain not blocked by `occupants` (an enemy always blocks, an
 * ally unless `passAllies`; no occupants: nobody blocks). A queue of cells whose cost went
 * down: the costs it settles on are the cheapest whatever order it visits them in. Simulations
 * search a unit's moves every turn: no closures, and nothing made but the result.
 */
function cheapest(
  terrain: Terrain,
  start: number,
  budget: number,
  occupants: ArrayLike<number> | undefined,
  passAllies: boolean,
): number[] {
  const { width, height, costs } = terrain;
  const size = width * height;
  // A plain array: a typed array costs several times as much to make, and this is made for
  // every unit's every move in a simulation.
  const cost: number[] = new Array<number>(size).fill(-1);
  cost[start] = 0;
  const blocking = passAllies ? CELL_ENEMY : CELL_ALLY;
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  while (head < tail) {
    const index = queue[head++]!;
    const spent = cost[index]!;
    const x = index % width;
    // The four neighbours: up, left, right, down.
    for (let n = 0; n < 4; n++) {
      let next: number;
      if (n === 0) {
        if (index < width) continue;
        next = index - width;
      } else if (n === 1) {
        if (x === 0) continue;
        next = index - 1;
      } else if (n === 2) {
        if (x === width - 1) continue;
        next = index + 1;
      } else {
        next = index + width;
        if (next >= size) continue;
      }
      const step = costs[next] ?? 0;
      if (step <= 0) continue;
      if (occupants !== undefined && occupants[next]! >= blocking) continue;
      const total = spent + step;
      if (total > budget) continue;
      const known = cost[next]!;
      if (known !== -1 && known <= total) continue;
      cost[next] = total;
      queue[tail++] = next;
    }
  }
  return cost;
}

/**
 * What each cell costs to end a move on, -1 where the combatant may not end it: its own cell
 * (cost 0) and every empty cell within Movement. Enemies block the way; allies may be passed
 * through when `passThroughAllies` (as in the Shining Force games), but never stood on.
 * `occupants` holds CELL_EMPTY, CELL_ALLY or CELL_ENEMY by cell, as the mover sees them.
 */
export function moveCosts(
  terrain: Terrain,
  start: number,
  movement: number,
  occupants: ArrayLike<number>,
  passThroughAllies: boolean,
): number[] {
  const cost = cheapest(terrain, start, Math.max(0, movement), occupants, passThroughAllies);
  for (let index = 0; index < cost.length; index++) {
    if (index !== start && occupants[index] !== CELL_EMPTY) cost[index] = -1;
  }
  return cost;
}

/**
 * The cells a combatant may end its move on, with what each costs (moveCosts as a map), for
 * occupants given by a function.
 */
export function reachableCells(
  terrain: Terrain,
  start: number,
  movement: number,
  occupant: (index: number) => Occupant,
  passThroughAllies: boolean,
): Map<number, number> {
  const occupants: number[] = [];
  for (let index = 0; index < terrain.width * terrain.height; index++) {
    const who = occupant(index);
    occupants[index] = who === undefined ? CELL_EMPTY : who === 'ally' ? CELL_ALLY : CELL_ENEMY;
  }
  const cost = moveCosts(terrain, start, movement, occupants, passThroughAllies);
  const out = new Map<number, number>();
  for (let index = 0; index < cost.length; index++)
    if (cost[index]! >= 0) out.set(index, cost[index]!);
  return out;
}

/**
 * Movement cost from every cell to `goal`, ignoring who stands where (they move): how far a
 * cell is from an enemy by the paths the terrain allows. -1 where no path leads.
 */
export function distancesTo(terrain: Terrain, goal: number): Int32Array {
  const budget = terrain.width * terrain.height * 9;
  return Int32Array.from(cheapest(terrain, goal, budget, undefined, true));
}
