import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cheapest, type Terrain } from '../../../src/rulesets/shining-force/grid/paths.js';
import { MoveSearch } from '../../../src/sim/kernels/shining-force/reach.js';

/** A field of the given bounds, its cells impassable (0) or costing 1-9, a start and blockers. */
const fieldAndSearch = (maxWidth: number, maxHeight: number) =>
  fc
    .record({
      width: fc.integer({ min: 1, max: maxWidth }),
      height: fc.integer({ min: 1, max: maxHeight }),
    })
    .chain(({ width, height }) =>
      fc.record({
        width: fc.constant(width),
        height: fc.constant(height),
        costs: fc.array(
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(1) },
            { weight: 2, arbitrary: fc.integer({ min: 2, max: 9 }) },
            { weight: 2, arbitrary: fc.constant(0) },
          ),
          { minLength: width * height, maxLength: width * height },
        ),
        start: fc.integer({ min: 0, max: width * height - 1 }),
        budget: fc.integer({ min: 0, max: 40 }),
        blockers: fc.uniqueArray(fc.integer({ min: 0, max: width * height - 1 }), {
          maxLength: 12,
        }),
      }),
    );

describe('the kernel move search over bit sets', () => {
  it.each([
    ['up to the largest a setup allows (26 x 26)', 26, 26],
    ['of at most 64 cells, searched in two words (8 x 8 and smaller)', 8, 8],
    ['of one row', 26, 1],
    ['of one column', 1, 26],
  ])(
    'finds the same cheapest cost to every cell as grid/paths.ts cheapest, on fields %s',
    (_name, maxWidth, maxHeight) => {
      fc.assert(
        fc.property(
          fieldAndSearch(maxWidth, maxHeight),
          ({ width, height, costs, start, budget, blockers }) => {
            const terrain: Terrain = { width, height, costs };
            const occupants = new Array<number>(width * height).fill(0);
            const search = new MoveSearch(terrain);
            search.clearBlockers();
            for (const cell of blockers) {
              if (cell === start) continue;
              occupants[cell] = 2;
              search.block(cell);
            }
            const expected = cheapest(terrain, start, budget, occupants, true);
            const found = new Int32Array(width * height);
            search.search(start, budget, found);
            expect(Array.from(found)).toEqual(expected);
            const cells = new Int32Array(width * height);
            const count = search.cellsInto(found, cells);
            expect(Array.from(cells.subarray(0, count))).toEqual(
              expected.flatMap((cost, cell) => (cost >= 0 ? [cell] : [])),
            );
          },
        ),
        { numRuns: 400, seed: 15 },
      );
    },
  );

  it("searches again from scratch: a second search forgets the first one's blockers and costs", () => {
    const terrain: Terrain = { width: 5, height: 1, costs: [1, 1, 1, 1, 1] };
    const search = new MoveSearch(terrain);
    const costs = new Int32Array(5);
    search.clearBlockers();
    search.block(2);
    search.search(0, 4, costs);
    expect(Array.from(costs)).toEqual([0, 1, -1, -1, -1]);
    search.clearBlockers();
    search.search(4, 2, costs);
    expect(Array.from(costs)).toEqual([-1, -1, 2, 1, 0]);
  });
});
