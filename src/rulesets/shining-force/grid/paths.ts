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
 * Each cell's passable neighbours (up, left, right, down) and what stepping on each costs, as
 * flat lists: `from[cell]` to `from[cell + 1]` index `cells` and `steps`. Made once per terrain,
 * which never changes in a battle, so a search does no bounds or terrain checks of its own.
 */
interface Neighbours {
  readonly from: readonly number[];
  readonly cells: readonly number[];
  readonly steps: readonly number[];
  /** -1 for every cell: a search's costs start as a copy. */
  readonly unreached: readonly number[];
}

const NEIGHBOURS = new WeakMap<Terrain, Neighbours>();

function neighboursOf(terrain: Terrain): Neighbours {
  let found = NEIGHBOURS.get(terrain);
  if (found === undefined) {
    const { width, height, costs } = terrain;
    const size = width * height;
    const from: number[] = [];
    const cells: number[] = [];
    const steps: number[] = [];
    for (let index = 0; index < size; index++) {
      from.push(cells.length);
      const x = index % width;
      const around = [
        index < width ? -1 : index - width,
        x === 0 ? -1 : index - 1,
        x === width - 1 ? -1 : index + 1,
        index + width >= size ? -1 : index + width,
      ];
      for (const next of around) {
        const step = next < 0 ? 0 : (costs[next] ?? 0);
        if (step <= 0) continue;
        cells.push(next);
        steps.push(step);
      }
    }
    from.push(cells.length);
    const unreached: number[] = [];
    for (let index = 0; index < size; index++) unreached.push(-1);
    found = { from, cells, steps, unreached };
    NEIGHBOURS.set(terrain, found);
  }
  return found;
}

/**
 * Cheapest cost from `start` to every cell within `budget`, -1 where out of reach. A step into
 * a cell is allowed on passable terrain not blocked by `occupants` (an enemy always blocks, an
 * ally unless `passAllies`; no occupants: nobody blocks). A queue of cells whose cost went
 * down: the costs it settles on are the cheapest whatever order it visits them in. Simulations
 * search a unit's moves every turn: no closures, and nothing made but the result.
 */
export function cheapest(
  terrain: Terrain,
  start: number,
  budget: number,
  occupants: ArrayLike<number> | undefined,
  passAllies: boolean,
): number[] {
  const { from, cells, steps, unreached } = neighboursOf(terrain);
  // A plain array: a typed array costs several times as much to make, and this is made for
  // every unit's every move in a simulation. Copied, not filled: a packed array, made at once.
  const cost: number[] = unreached.slice();
  cost[start] = 0;
  const blocking = passAllies ? CELL_ENEMY : CELL_ALLY;
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  while (head < tail) {
    const index = queue[head++]!;
    const spent = cost[index]!;
    const last = from[index + 1]!;
    for (let k = from[index]!; k < last; k++) {
      const next = cells[k]!;
      if (occupants !== undefined && occupants[next]! >= blocking) continue;
      const total = spent + steps[k]!;
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
