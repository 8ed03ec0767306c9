import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cheapest, type Terrain } from '../../../src/rulesets/shining-force/grid/paths.js';
import { MoveSearch } from '../../../src/sim/kernels/shining-force/reach.js';
import { SearchMemo } from '../../../src/sim/kernels/shining-force/search-memo.js';

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

/** Every cell's cost after the search's last find, -1 where the move may not end. */
function costsOf(search: MoveSearch, cells: number): number[] {
  return Array.from({ length: cells }, (_, cell) => search.costAt(cell));
}

/** The cells the last find leaves for the move to end on, in index order. */
function endsOf(search: MoveSearch, cells: number): number[] {
  const out = new Int32Array(cells);
  return Array.from(out.subarray(0, search.endsInto(out)));
}

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
            search.find(start, budget);
            expect(costsOf(search, width * height)).toEqual(expected);
            expect(endsOf(search, width * height)).toEqual(
              expected.flatMap((cost, cell) => (cost >= 0 ? [cell] : [])),
            );
            // The same search again, now from the field's memo where it keeps searches.
            const again = new MoveSearch(terrain);
            again.clearBlockers();
            for (const cell of blockers) if (cell !== start) again.block(cell);
            again.find(start, budget);
            expect(costsOf(again, width * height)).toEqual(expected);
          },
        ),
        { numRuns: 400, seed: 15 },
      );
    },
  );

  it('answers every search on one field alike, whether made or taken from the memo', () => {
    // Few starts and blockers on a small field: most searches repeat an earlier one, or differ
    // from it only by blockers out of reach, which the memo leaves out of its key.
    fc.assert(
      fc.property(
        fc.record({
          width: fc.integer({ min: 2, max: 8 }),
          height: fc.integer({ min: 1, max: 8 }),
        }),
        fc.array(
          fc.record({
            start: fc.nat(),
            budget: fc.integer({ min: 0, max: 6 }),
            blockers: fc.uniqueArray(fc.nat(), { maxLength: 6 }),
            taken: fc.uniqueArray(fc.nat(), { maxLength: 4 }),
          }),
          { minLength: 20, maxLength: 60 },
        ),
        ({ width, height }, searches) => {
          const size = width * height;
          const costs = Array.from({ length: size }, (_, cell) =>
            cell % 7 === 3 ? 0 : 1 + (cell % 3),
          );
          const terrain: Terrain = { width, height, costs };
          const search = new MoveSearch(terrain);
          for (const s of searches) {
            const start = s.start % size;
            const occupants = new Array<number>(size).fill(0);
            search.clearBlockers();
            for (const raw of s.blockers) {
              const cell = raw % size;
              if (cell === start) continue;
              occupants[cell] = 2;
              search.block(cell);
            }
            const expected = cheapest(terrain, start, s.budget, occupants, true);
            search.find(start, s.budget);
            // Cells someone stands on (allies passed through) are taken out as options does.
            for (const raw of s.taken) {
              const cell = raw % size;
              if (cell === start) continue;
              search.exclude(cell);
              expected[cell] = -1;
            }
            expect(costsOf(search, size)).toEqual(expected);
            expect(endsOf(search, size)).toEqual(
              expected.flatMap((cost, cell) => (cost >= 0 ? [cell] : [])),
            );
          }
        },
      ),
      { numRuns: 200, seed: 21 },
    );
  });

  it("searches again from scratch: a second search forgets the first one's blockers and costs", () => {
    const terrain: Terrain = { width: 5, height: 1, costs: [1, 1, 1, 1, 1] };
    const search = new MoveSearch(terrain);
    search.clearBlockers();
    search.block(2);
    search.find(0, 4);
    expect(costsOf(search, 5)).toEqual([0, 1, -1, -1, -1]);
    search.clearBlockers();
    search.find(4, 2);
    expect(costsOf(search, 5)).toEqual([-1, -1, 2, 1, 0]);
    // The first search once more, from the memo, and a blocker beyond its reach left out.
    search.block(2);
    search.find(0, 4);
    expect(costsOf(search, 5)).toEqual([0, 1, -1, -1, -1]);
    search.clearBlockers();
    search.block(4);
    search.find(0, 2);
    expect(costsOf(search, 5)).toEqual([0, 1, 2, -1, -1]);
    search.clearBlockers();
    search.find(0, 2);
    expect(costsOf(search, 5)).toEqual([0, 1, 2, -1, -1]);
    // A blocker within reach is a different search.
    search.block(1);
    search.find(0, 2);
    expect(costsOf(search, 5)).toEqual([0, -1, -1, -1, -1]);
  });
});

describe('the memo of move searches', () => {
  it('keeps searches by start, budget and blockers until about 4 MB, then keeps what it has', () => {
    const terrain: Terrain = { width: 8, height: 6, costs: new Array<number>(48).fill(1) };
    const memo = new SearchMemo(terrain);
    const costs = new Int32Array(48);
    // Blockers as 20 bits of the first word, within reach of a start in its corner.
    const kept = 20_000;
    for (let k = 0; k < kept; k++) {
      expect(memo.find(0, 40, k, 0)).toBe(-1);
      for (let cell = 0; cell < 48; cell++) costs[cell] = (k + cell) % 200;
      memo.keep(k | 1, 1 << 15, costs);
    }
    let found = 0;
    for (let k = 0; k < kept; k++) {
      const slot = memo.find(0, 40, k, 0);
      if (slot < 0) continue;
      found++;
      expect(memo.seenLow(slot)).toBe(k | 1);
      expect(memo.seenHigh(slot)).toBe(1 << 15);
      expect(memo.costOf(slot, 0)).toBe(k % 200);
      expect(memo.costOf(slot, 47)).toBe((k + 47) % 200);
    }
    // 32,768 slots of 77 bytes (2.5 MB; twice that would pass 4 MB), filled to half.
    expect(found).toBe(16_384);
    // A blocker out of reach is not part of the key: the same search.
    expect(memo.find(0, 1, 1 << 2, 0)).toBe(memo.find(0, 1, 0, 0));
  });
});
