import type { Point } from './cells.js';

/**
 * A range or an area as data: the offsets (dx, dy) it covers from the cell it starts at. A weapon's
 * range is offsets from the attacker; a spell's area is offsets from the cell it is aimed at.
 */
export type Offsets = readonly (readonly [number, number])[];

export interface PatternSpec {
  /** Every cell at these Manhattan distances (0 is the cell itself). */
  readonly distances?: readonly number[] | undefined;
  /** Cells added one by one. */
  readonly cells?: readonly (readonly [number, number])[] | undefined;
  /** Cells taken away after the rest (the corners of a pattern, say). */
  readonly exclude?: readonly (readonly [number, number])[] | undefined;
}

/** The offsets a pattern covers, each once, in reading order (row by row). */
export function offsetsOf(spec: PatternSpec): Offsets {
  const seen = new Set<string>();
  const out: [number, number][] = [];
  const add = (dx: number, dy: number): void => {
    const key = `${dx},${dy}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push([dx, dy]);
  };
  for (const d of spec.distances ?? []) {
    for (let dy = -d; dy <= d; dy++) {
      const rest = d - Math.abs(dy);
      add(rest === 0 ? 0 : -rest, dy);
      if (rest !== 0) add(rest, dy);
    }
  }
  for (const [dx, dy] of spec.cells ?? []) add(dx, dy);
  const excluded = new Set((spec.exclude ?? []).map(([dx, dy]) => `${dx},${dy}`));
  return out
    .filter(([dx, dy]) => !excluded.has(`${dx},${dy}`))
    .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** Offsets reach at most this far either way (a battlefield is at most 26 cells a side). */
export const SPAN = 26;
export const SPAN_ROW = 2 * SPAN + 1;
const ROW = SPAN_ROW;

/** A pattern as a lookup table by (dx, dy), made once: ranges are checked many times a turn. */
const TABLES = new WeakMap<Offsets, Uint8Array>();

/** The pattern as a table: 1 at (dy + SPAN) * SPAN_ROW + dx + SPAN for each offset it covers. */
export function patternTable(offsets: Offsets): Uint8Array {
  let table = TABLES.get(offsets);
  if (table === undefined) {
    table = new Uint8Array(ROW * ROW);
    for (const [dx, dy] of offsets) {
      if (Math.abs(dx) <= SPAN && Math.abs(dy) <= SPAN) table[(dy + SPAN) * ROW + dx + SPAN] = 1;
    }
    TABLES.set(offsets, table);
  }
  return table;
}

/** True when `to` is one of the pattern's cells counted from `from`. */
export function covers(offsets: Offsets, from: Point, to: Point): boolean {
  return coversOffset(offsets, to.x - from.x, to.y - from.y);
}

/** True when the offset (dx, dy) is one of the pattern's cells. */
export function coversOffset(offsets: Offsets, dx: number, dy: number): boolean {
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return patternTable(offsets)[(dy + SPAN) * ROW + dx + SPAN] === 1;
}

/** The cells on a width x height grid the pattern covers from `from`, as indexes. */
export function coveredCells(
  offsets: Offsets,
  from: Point,
  width: number,
  height: number,
): number[] {
  const out: number[] = [];
  for (const [dx, dy] of offsets) {
    const x = from.x + dx;
    const y = from.y + dy;
    if (x >= 0 && y >= 0 && x < width && y < height) out.push(y * width + x);
  }
  return out;
}
