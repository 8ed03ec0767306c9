import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellIndex } from '../../../src/rulesets/shining-force/evolve.js';
import {
  cellName,
  coveredCells,
  distancesTo,
  offsetsOf,
  parseCellName,
  reachableCells,
} from '../../../src/rulesets/shining-force/index.js';
import { gateSetup } from './helpers.js';

describe('cells', () => {
  it('names columns by letter and rows by number, A1 at the top left', () => {
    expect(cellName({ x: 0, y: 0 })).toBe('A1');
    expect(cellName({ x: 2, y: 3 })).toBe('C4');
    expect(parseCellName('c4')).toEqual({ x: 2, y: 3 });
    expect(parseCellName('Z26')).toEqual({ x: 25, y: 25 });
    for (const bad of ['', '4C', 'AA1', 'C0', 'C', 'C123'])
      expect(parseCellName(bad)).toBeUndefined();
  });

  it('round-trips every cell name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 }), (x, y) => {
        expect(parseCellName(cellName({ x, y }))).toEqual({ x, y });
      }),
    );
  });
});

describe('patterns as data', () => {
  it('range 1 is the four adjacent cells; range 1-2 adds the eight two steps away', () => {
    expect(offsetsOf({ distances: [1] })).toEqual([
      [0, -1],
      [-1, 0],
      [1, 0],
      [0, 1],
    ]);
    expect(offsetsOf({ distances: [1, 2] })).toHaveLength(12);
  });

  it('the default range 3 (the lost diagram, docs/rulings.md): every cell 1 to 3 steps away', () => {
    const setup = gateSetup();
    expect(setup.patterns['range-3']).toHaveLength(24);
    expect(setup.patterns['range-3']).not.toContainEqual([0, 0]);
    expect(setup.patterns['range-3']).toContainEqual([2, 1]);
    expect(setup.patterns['range-3']).not.toContainEqual([2, 2]);
    // A ranged-only unit "cannot attack units that are next to them".
    expect(setup.patterns['range-2-3']).toHaveLength(20);
    expect(setup.patterns['range-2-3']).not.toContainEqual([1, 0]);
  });

  it('cells and exclusions shape any pattern; areas are clipped at the edge', () => {
    const ring = offsetsOf({ distances: [1], cells: [[1, 1]], exclude: [[0, -1]] });
    expect(ring).toEqual([
      [-1, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(coveredCells(offsetsOf({ distances: [0, 1] }), { x: 0, y: 0 }, 5, 5)).toEqual([0, 1, 5]);
  });
});

describe('movement', () => {
  // 5 x 3: a rock wall at C1 and C2, forest (cost 2) at B3.
  const costs = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 2, 1, 1, 1];
  const terrain = { width: 5, height: 3, costs };
  const nobody = () => undefined;

  it("pays each cell's cost and never enters an impassable one", () => {
    const reach = reachableCells(terrain, 0, 4, nobody, true);
    expect(reach.get(0)).toBe(0);
    expect(reach.get(10)).toBe(2);
    expect(reach.get(11)).toBe(4); // A1 -> A2 -> A3 -> B3 (forest, 2)
    expect(reach.has(2)).toBe(false);
    // Past the wall only through the forest: C3 costs 5, one more than Movement 4.
    expect(reach.has(12)).toBe(false);
    expect(reachableCells(terrain, 0, 5, nobody, true).get(12)).toBe(5);
  });

  it('enemies block the way; allies may be passed through but not stood on', () => {
    const line = { width: 5, height: 1, costs: [1, 1, 1, 1, 1] };
    const enemyAtB = (i: number) => (i === 1 ? 'enemy' : undefined);
    expect([...reachableCells(line, 0, 4, enemyAtB, true).keys()]).toEqual([0]);
    const allyAtB = (i: number) => (i === 1 ? 'ally' : undefined);
    expect([...reachableCells(line, 0, 4, allyAtB, true).keys()].sort()).toEqual([0, 2, 3, 4]);
    expect([...reachableCells(line, 0, 4, allyAtB, false).keys()]).toEqual([0]);
  });

  it('never reaches further than Movement, on any field', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 36, maxLength: 36 }),
        fc.integer({ min: 0, max: 8 }),
        (cells, movement) => {
          const t = { width: 6, height: 6, costs: cells.map((c, i) => (i === 0 ? 1 : c)) };
          const reach = reachableCells(t, 0, movement, nobody, true);
          for (const [cell, cost] of reach) {
            expect(cost).toBeLessThanOrEqual(movement);
            const x = cell % 6;
            const y = Math.floor(cell / 6);
            expect(x + y).toBeLessThanOrEqual(movement);
          }
          const far = distancesTo(t, 0);
          for (const [cell] of reach) expect(far[cell]).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('cell names to indexes', () => {
  it('reads any text as parseCellName does, fast form or not', () => {
    const setup = gateSetup();
    const width = setup.battlefield.rows[0]!.length;
    const height = setup.battlefield.rows.length;
    const reference = (name: string): number => {
      const p = parseCellName(name);
      return p === undefined || p.x >= width || p.y >= height ? -1 : p.y * width + p.x;
    };
    const chars = fc.constantFrom(...'ABCHIZabh0123456789 :@['.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 4 }), (cs) => {
        const name = cs.join('');
        expect(cellIndex(setup, name)).toBe(reference(name));
      }),
      { numRuns: 2000 },
    );
    expect(cellIndex(setup, 'B3')).toBe(2 * width + 1);
    expect(cellIndex(setup, 'A0')).toBe(-1);
    expect(cellIndex(setup, 'I1')).toBe(-1);
  });
});
