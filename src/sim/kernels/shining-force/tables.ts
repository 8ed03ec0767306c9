import type { Terrain } from '../../../rulesets/shining-force/grid/paths.js';
import { SPAN, SPAN_ROW } from '../../../rulesets/shining-force/grid/patterns.js';

/**
 * A table by pair of cells (a * size + b) for the kernel's tactician, which weighs every cell a
 * unit can reach against every enemy each decision: one load for what would be a few lines of
 * arithmetic. A field is at most MAX_SIDE (26) a side, so a table is at most 676 x 676 bytes;
 * each is made once a field and weapon pattern and kept while both are.
 */
const TABLES = new WeakMap<Terrain, WeakMap<Uint8Array, Uint8Array>>();

/** The steps between two cells (|dx| + |dy|, at most 50) in a table entry's low bits. */
export const STEPS = 0x7f;
/** The entry's bit set where the weapon reaches a foe on b from a. */
export const REACHES = 0x80;

/**
 * By a * size + b: the steps from a to b, and REACHES where a weapon whose range is `pattern`
 * (patternTable) strikes a foe standing on b from a.
 */
export function stepsAndReach(terrain: Terrain, pattern: Uint8Array): Uint8Array {
  let byPattern = TABLES.get(terrain);
  if (byPattern === undefined) {
    byPattern = new WeakMap();
    TABLES.set(terrain, byPattern);
  }
  let table = byPattern.get(pattern);
  if (table === undefined) {
    const { width, height } = terrain;
    const size = width * height;
    table = new Uint8Array(size * size);
    for (let a = 0; a < size; a++) {
      const ax = a % width;
      const ay = (a - ax) / width;
      for (let b = 0; b < size; b++) {
        const bx = b % width;
        const by = (b - bx) / width;
        const reaches = pattern[(by - ay + SPAN) * SPAN_ROW + bx - ax + SPAN] === 1;
        table[a * size + b] = Math.abs(bx - ax) + Math.abs(by - ay) + (reaches ? REACHES : 0);
      }
    }
    byPattern.set(pattern, table);
  }
  return table;
}
