/**
 * Cells of the battlefield as a table names them: a column letter and a row number, `A1` at the
 * top left, `C4` three columns right and four rows down. Inside the engine a cell is an index,
 * `y * width + x`, so paths and ranges are arithmetic on small integers.
 */

/** The largest battlefield: 26 columns (A to Z) by 26 rows. */
export const MAX_SIDE = 26;

const CELL_PATTERN = /^([A-Za-z])(\d{1,2})$/;

export interface Point {
  readonly x: number;
  readonly y: number;
}

export function cellName(point: Point): string {
  return `${String.fromCharCode(65 + point.x)}${point.y + 1}`;
}

/** `C4` or `c4` to its column and row, or undefined when it is not a cell name. */
export function parseCellName(text: string): Point | undefined {
  const match = CELL_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const x = match[1]!.toUpperCase().charCodeAt(0) - 65;
  const y = Number(match[2]) - 1;
  return y < 0 ? undefined : { x, y };
}

export function indexOf(width: number, point: Point): number {
  return point.y * width + point.x;
}

export function pointOf(width: number, index: number): Point {
  return { x: index % width, y: Math.floor(index / width) };
}

/** Names by width, then index: a simulated move names two cells, and a string is not remade. */
const NAMES: string[][] = [];

export function nameOfIndex(width: number, index: number): string {
  let byIndex = NAMES[width];
  if (byIndex === undefined) {
    byIndex = [];
    NAMES[width] = byIndex;
  }
  let name = byIndex[index];
  if (name === undefined) {
    name = cellName(pointOf(width, index));
    // Only cells of a battlefield (at most 26 x 26) are kept.
    if (width <= MAX_SIDE && index >= 0 && index < MAX_SIDE * MAX_SIDE) byIndex[index] = name;
  }
  return name;
}

/** Grid steps between two cells, moving only along rows and columns. */
export function manhattan(a: Point, b: Point): number {
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}
