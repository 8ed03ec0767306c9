import { type Point, pointOf } from './grid/cells.js';
import {
  CELL_ALLY,
  CELL_EMPTY,
  CELL_ENEMY,
  cheapest,
  distancesTo,
  type Terrain,
} from './grid/paths.js';
import { coversOffset, type Offsets, patternTable, SPAN, SPAN_ROW } from './grid/patterns.js';
import type { ShiningForceSetup } from './model.js';
import { areEnemies, type CombatantState, type ShiningForceState } from './state.js';

/**
 * The battlefield of a battle: its terrain costs and the distance maps worked out once per
 * setup (the terrain never changes in a battle), and who stands where.
 */
const TERRAIN = new WeakMap<ShiningForceSetup, Terrain>();
const DISTANCES = new WeakMap<ShiningForceSetup, (Int32Array | undefined)[]>();

export function terrainOf(setup: ShiningForceSetup): Terrain {
  let terrain = TERRAIN.get(setup);
  if (terrain === undefined) {
    const { rows, terrain: legend } = setup.battlefield;
    const costs: number[] = [];
    for (const row of rows) for (const ch of row) costs.push(legend[ch]?.cost ?? 0);
    terrain = { width: rows[0]!.length, height: rows.length, costs };
    TERRAIN.set(setup, terrain);
  }
  return terrain;
}

/**
 * Movement cost from every cell to each goal, ignoring who stands where, by goal cell; each
 * worked out when first asked and kept per setup. A caller looking at several goals looks the
 * setup up once.
 */
export function distanceMaps(setup: ShiningForceSetup): (Int32Array | undefined)[] {
  let byGoal = DISTANCES.get(setup);
  if (byGoal === undefined) {
    byGoal = [];
    DISTANCES.set(setup, byGoal);
  }
  return byGoal;
}

/** Movement cost from every cell to `goal`, from the setup's distanceMaps. */
export function distanceTo(
  setup: ShiningForceSetup,
  maps: (Int32Array | undefined)[],
  goal: number,
): Int32Array {
  let map = maps[goal];
  if (map === undefined) {
    map = distancesTo(terrainOf(setup), goal);
    maps[goal] = map;
  }
  return map;
}

export function pointOfCell(setup: ShiningForceSetup, cell: number): Point {
  return pointOf(terrainOf(setup).width, cell);
}

/** The living combatant on a cell, if any. */
export function standingAt(state: ShiningForceState, cell: number): CombatantState | undefined {
  for (const c of state.combatants) {
    if (!c.defeated && c.cell === cell) return c;
  }
  return undefined;
}

/** Where a unit may end its move: the cost of each cell (-1: not there), and those cells in order. */
export interface Moves {
  readonly costs: readonly number[];
  readonly cells: readonly number[];
}

/**
 * The last moves worked out: the legal actions and the move that follows ask for the same ones,
 * back to back (rosters are replaced, never changed, so it cannot go stale). One entry, not a
 * map keyed by every state a simulation passes through.
 */
let last: { combatants: object; mover: CombatantState; movement: number; moves: Moves } | undefined;

/**
 * Where `mover` may end its move, and what each cell costs (grid/moveCosts). `others`: everyone
 * else still in the battle, when the caller has them at hand (the options do), so the roster is
 * not looked up again by id.
 */
export function movesOf(
  state: ShiningForceState,
  mover: CombatantState,
  movement: number,
  others?: readonly CombatantState[],
): Moves {
  if (
    last !== undefined &&
    last.combatants === state.combatants &&
    last.mover === mover &&
    last.movement === movement
  )
    return last.moves;
  const costs = findMoves(state, mover, movement, others ?? othersInBattle(state, mover));
  const cells: number[] = [];
  for (let cell = 0; cell < costs.length; cell++) if (costs[cell]! >= 0) cells.push(cell);
  const moves: Moves = { costs, cells };
  last = { combatants: state.combatants, mover, movement, moves };
  return moves;
}

/** Everyone still in the battle but `c`, in the state's order. */
export function othersInBattle(state: ShiningForceState, c: CombatantState): CombatantState[] {
  const others: CombatantState[] = [];
  for (const other of state.combatants) {
    if (!other.defeated && other.id !== c.id) others.push(other);
  }
  return others;
}

/** Who stands where, for one search at a time: filled and emptied again, never made anew. */
const occupants: number[] = [];

function findMoves(
  state: ShiningForceState,
  mover: CombatantState,
  movement: number,
  others: readonly CombatantState[],
): number[] {
  const terrain = terrainOf(state.setup);
  const size = terrain.width * terrain.height;
  while (occupants.length < size) occupants.push(CELL_EMPTY);
  for (const c of others) occupants[c.cell] = areEnemies(mover, c) ? CELL_ENEMY : CELL_ALLY;
  const costs = cheapest(
    terrain,
    mover.cell,
    Math.max(0, movement),
    occupants,
    state.setup.options.passThroughAllies,
  );
  // As moveCosts: no move ends on someone else's cell. Only theirs are looked at, not every cell.
  for (const c of others) {
    occupants[c.cell] = CELL_EMPTY;
    if (c.cell !== mover.cell) costs[c.cell] = -1;
  }
  return costs;
}

/** True when `to` stands in a pattern counted from `from`'s cell. */
export function inReach(
  setup: ShiningForceSetup,
  offsets: Offsets,
  fromCell: number,
  toCell: number,
): boolean {
  const width = terrainOf(setup).width;
  const fx = fromCell % width;
  const tx = toCell % width;
  return coversOffset(offsets, tx - fx, (toCell - tx) / width - (fromCell - fx) / width);
}

/**
 * inReach with the pattern's table and the field's width looked up once, for loops over many
 * cells (the legal actions try every cell a unit can move to).
 */
export function coversCell(table: Uint8Array, width: number, fromCell: number, toCell: number) {
  const fx = fromCell % width;
  const tx = toCell % width;
  const dx = tx - fx;
  const dy = (toCell - tx) / width - (fromCell - fx) / width;
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return table[(dy + SPAN) * SPAN_ROW + dx + SPAN] === 1;
}

export { patternTable };
