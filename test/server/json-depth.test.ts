import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../src/server/json-depth.js';

/** The depth of a parsed value: what the scan must agree with, without parsing. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') {
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  }
  return 0;
}

describe('nestsDeeperThan', () => {
  it('agrees with the parsed depth on any JSON, strings full of brackets, quotes and escapes', () => {
    const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 8 }), (value, max) => {
        const text = JSON.stringify(value, null, Math.random() < 0.5 ? 0 : 1);
        expect(nestsDeeperThan(text, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it('stops at the first level too deep, whatever follows', () => {
    expect(nestsDeeperThan(`${'['.repeat(65)}`, 64)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBe(false);
    const started = performance.now();
    expect(nestsDeeperThan(`${'['.repeat(1_000_000)}`, 64)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
