import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShiningForceState } from '../../../src/rulesets/shining-force/state.js';
import {
  Openings,
  openingKeyLength,
  openingsFor,
} from '../../../src/sim/kernels/shining-force/openings.js';
import { GATE, readEncounter, SF } from './helpers.js';

/** Fills the table's key with `key` and looks it up. */
function find(openings: Openings, key: readonly number[]): number {
  openings.key.set(key);
  return openings.find();
}

function choiceAt(openings: Openings, slot: number) {
  return {
    kind: openings.kind(slot),
    target: openings.target(slot),
    cell: openings.cell(slot),
    what: openings.what(slot),
  };
}

describe('the openings kept by the Shining Force kernel', () => {
  it('hands back each choice by its whole key, keys differing in one number apart', () => {
    const openings = new Openings(4);
    expect(find(openings, [1, 1, 5, 7])).toBe(-1);
    openings.keep(2, 3, 17, 'heal-1');
    expect(find(openings, [1, 1, 5, 8])).toBe(-1);
    openings.keep(1, -1, 9, '');
    const first = find(openings, [1, 1, 5, 7]);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(choiceAt(openings, first)).toEqual({ kind: 2, target: 3, cell: 17, what: 'heal-1' });
    expect(choiceAt(openings, find(openings, [1, 1, 5, 8]))).toEqual({
      kind: 1,
      target: -1,
      cell: 9,
      what: '',
    });
  });

  it('holds what a Map would as it grows, and once at its largest keeps the old and no new', () => {
    // A long key (a roster of 200) makes the largest table small enough to fill in a test:
    // 2,048 slots of 402 numbers (about 3 MB), of which it fills half.
    const length = openingKeyLength(200);
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 3, maxLength: 3 }), {
          minLength: 1,
          maxLength: 3000,
          size: 'max',
        }),
        (prefixes) => {
          const openings = new Openings(length);
          const model = new Map<string, number>();
          let refused = 0;
          prefixes.forEach((prefix, i) => {
            const key = [...prefix, ...new Array<number>(length - 3).fill(i % 7)];
            const name = key.join(',');
            const slot = find(openings, key);
            if (model.has(name)) {
              expect(slot).toBeGreaterThanOrEqual(0);
              expect(openings.cell(slot)).toBe(model.get(name));
              return;
            }
            expect(slot).toBe(-1);
            openings.keep(1, 0, i, '');
            if (find(openings, key) >= 0) model.set(name, i);
            else refused++;
          });
          // Every key it took is still there, with its own choice.
          for (const [name, cell] of model) {
            const slot = find(openings, name.split(',').map(Number));
            expect(slot).toBeGreaterThanOrEqual(0);
            expect(openings.cell(slot)).toBe(cell);
          }
          // It refuses only once it holds half of its largest.
          if (refused > 0) expect(model.size).toBe(1024);
          else expect(model.size).toBeLessThanOrEqual(1024);
        },
      ),
      // No shrinking: a case of thousands of keys takes minutes to shrink, and says no more.
      { numRuns: 30, endOnFailure: true },
    );
  });

  it('is one table for starts alike, another for a start that differs', () => {
    const { setup } = readEncounter(GATE);
    const start = SF.ruleset.initialState(setup) as ShiningForceState;
    const again = SF.ruleset.initialState(setup) as ShiningForceState;
    expect(openingsFor(again)).toBe(openingsFor(start));
    const hurt: ShiningForceState = {
      ...start,
      combatants: start.combatants.map((c, i) => (i === 0 ? { ...c, hp: c.hp - 1 } : c)),
    };
    expect(openingsFor(hurt)).not.toBe(openingsFor(start));
  });
});
