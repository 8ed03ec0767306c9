import type { Terrain } from '../../../rulesets/shining-force/grid/paths.js';
import { SPAN, SPAN_ROW } from '../../../rulesets/shining-force/grid/patterns.js';

/**
 * Tables by pair of cells (a * size + b) for the kernel's tactician, which weighs every cell a
 * unit can reach against every enemy each decision: one load for what would be a few lines of
 * arithmetic. A field is at most MAX_SIDE (26) a side, so a table is at most 676 x 676 bytes;
 * each is made once a field (and weapon pattern) and kept while its setup is.
 */
const STEPS = new WeakMap<Terrain, Uint8Array>();
const REACHES = new WeakMap<Terrain, WeakMap<Uint8Array, Uint8Array>>();

/** The steps between two cells, |dx| + |dy| (at most 50). */
export function stepsTable(terrain: Terrain): Uint8Array {
  let table = STEPS.get(terrain);
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
        table[a * size + b] = Math.abs(bx - ax) + Math.abs(by - ay);
      }
    }
    STEPS.set(terrain, table);
  }
  return table;
}

/**
 * 1 where a weapon whose range is `pattern` (patternTable) reaches a foe standing on b from a,
 * by a * size + b.
 */
export function reachTable(terrain: Terrain, pattern: Uint8Array): Uint8Array {
  let byPattern = REACHES.get(terrain);
  if (byPattern === undefined) {
    byPattern = new WeakMap();
    REACHES.set(terrain, byPattern);
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
        table[a * size + b] = pattern[(by - ay + SPAN) * SPAN_ROW + bx - ax + SPAN]!;
      }
    }
    byPattern.set(pattern, table);
  }
  return table;
}
