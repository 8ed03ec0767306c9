import { type Point, pointOf } from './grid/cells.js';
import { CELL_ALLY, CELL_ENEMY, distancesTo, moveCosts, type Terrain } from './grid/paths.js';
import { coversOffset, type Offsets, patternTable, SPAN, SPAN_ROW } from './grid/patterns.js';
import type { ShiningForceSetup } from './model.js';
import { areEnemies, type CombatantState, type ShiningForceState } from './state.js';

/**
 * The battlefield of a battle: its terrain costs and the distance maps worked out once per
 * setup (the terrain never changes in a battle), and who stands where.
 */
const TERRAIN = new WeakMap<ShiningForceSetup, Terrain>();
const DISTANCES = new WeakMap<ShiningForceSetup, Map<number, Int32Array>>();

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

/** Movement cost from every cell to `goal`, ignoring who stands where; cached per setup. */
export function distanceMap(setup: ShiningForceSetup, goal: number): Int32Array {
  let byGoal = DISTANCES.get(setup);
  if (byGoal === undefined) {
    byGoal = new Map();
    DISTANCES.set(setup, byGoal);
  }
  let map = byGoal.get(goal);
  if (map === undefined) {
    map = distancesTo(terrainOf(setup), goal);
    byGoal.set(goal, map);
  }
  return map;
}

export function pointOfCell(setup: ShiningForceSetup, cell: number): Point {
  return pointOf(terrainOf(setup).width, cell);
}

/** The living combatant on a cell, if any. */
export function standingAt(state: ShiningForceState, cell: number): CombatantState | undefined {
  for (const id of state.ids) {
    const c = state.combatants[id]!;
    if (!c.defeated && c.cell === cell) return c;
  }
  return undefined;
}

/**
 * Moves worked out for a combatants record: the legal actions and the move that follows ask
 * for the same ones (records are replaced, never changed, so the cache cannot go stale).
 */
const MOVES = new WeakMap<object, { mover: CombatantState; movement: number; moves: Int32Array }>();

/** What each cell costs `mover` to end its move on, -1 where it may not (grid/moveCosts). */
export function movesOf(
  state: ShiningForceState,
  mover: CombatantState,
  movement: number,
): Int32Array {
  const known = MOVES.get(state.combatants);
  if (known !== undefined && known.mover === mover && known.movement === movement)
    return known.moves;
  const moves = findMoves(state, mover, movement);
  MOVES.set(state.combatants, { mover, movement, moves });
  return moves;
}

function findMoves(state: ShiningForceState, mover: CombatantState, movement: number): Int32Array {
  const terrain = terrainOf(state.setup);
  const occupants = new Uint8Array(terrain.width * terrain.height);
  for (const id of state.ids) {
    const c = state.combatants[id]!;
    if (c.defeated || c.id === mover.id) continue;
    occupants[c.cell] = areEnemies(mover, c) ? CELL_ENEMY : CELL_ALLY;
  }
  return moveCosts(terrain, mover.cell, movement, occupants, state.setup.options.passThroughAllies);
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
