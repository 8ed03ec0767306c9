/**
 * The fast exact-odds paths (issue 15) against the general ones and against brute force: small
 * pools in Numbers (odds/fast.ts), plain pools read without a parse (odds/simple.ts), and sums of
 * uniform dice by a coefficient recurrence (odds/pool.ts). Exactness is the point, so every
 * comparison is of BigInt weights and denominators, and of mean and stdev to the last bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Distribution, diceDistribution, parseDice } from '../../src/dice/index.js';
import type { DiceModifiers, KeepMode } from '../../src/dice/notation/ast.js';
import { dieMeasure } from '../../src/dice/odds/die.js';
import { keepSmall, smallDie, sumSmall, toMeasure } from '../../src/dice/odds/fast.js';
import { add, constant, type Measure, reduce } from '../../src/dice/odds/measure.js';
import { keepFromIid, keepSummed, sumOfIid } from '../../src/dice/odds/pool.js';
import { WorkBudget } from '../../src/dice/odds/work.js';
import { keptCount } from '../../src/dice/roll/pool.js';
import { describeFractions, enumerateSource, exactOutcomes } from './helpers.js';

const PLAIN = {
  reroll: undefined,
  explode: undefined,
  keep: undefined,
  success: undefined,
  failure: undefined,
} as const;

const budget = (): WorkBudget => new WorkBudget(1e9, 'test');

/** Outcomes and denominator as one comparable string list. */
function shape(d: Distribution | Measure): string[] {
  const pairs =
    'outcomes' in d
      ? d.outcomes.map((o) => `${o.value}:${o.weight}`)
      : d.values.map((v, i) => `${v}:${d.weights[i]}`);
  return [`/${d.denominator}`, ...pairs];
}

/** The general BigInt path as it was: one die at a time (no recurrence, no Numbers). */
function slowSum(die: Measure, count: number): Measure {
  let result = constant(0);
  for (let i = 0; i < count; i++) result = add(result, die, budget());
  return reduce(result);
}

const MODES: readonly string[] = ['', 'kh', 'kl', 'dh', 'dl', 'k'];

const pool = fc.record({
  count: fc.integer({ min: 1, max: 6 }),
  sides: fc.integer({ min: 1, max: 8 }),
  mode: fc.constantFrom(...MODES),
  n: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
  reroll: fc.constantFrom('', 'r1', 'ro1', 'r<2'),
  plus: fc.integer({ min: -3, max: 3 }),
});

describe('small pools in Numbers give exactly the BigInt weights', () => {
  it('NdS kh/kl/dh/dl (with rerolls) matches the general BigInt keep programme', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<KeepMode>('kh', 'kl', 'dh', 'dl'),
        fc.integer({ min: 0, max: 13 }),
        fc.constantFrom(
          undefined,
          { when: [{ operator: '=', value: 1 }], once: false },
          {
            when: [{ operator: '<', value: 3 }],
            once: true,
          },
        ),
        (count, sides, mode, n, reroll) => {
          const modifiers = { ...PLAIN, reroll } as const;
          if (reroll !== undefined && sides < 4) return;
          const die = dieMeasure(sides, false, modifiers, 10, budget());
          const small = smallDie(die, count);
          if (small === undefined) return;
          const keep = { mode, count: n };
          const fast = toMeasure(
            keepSmall(
              small,
              count,
              keptCount(keep, count),
              mode === 'kh' || mode === 'dl',
              budget(),
            ),
          );
          expect(shape(fast)).toEqual(shape(reduce(keepFromIid(die, count, keep, budget()))));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('NdS sums (with rerolls) match adding one die at a time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        (count, sides, rerollOnce) => {
          const modifiers: DiceModifiers = {
            ...PLAIN,
            reroll:
              sides > 2 ? { when: [{ operator: '=', value: 2 }], once: rerollOnce } : undefined,
          };
          const die = dieMeasure(sides, false, modifiers, 10, budget());
          const small = smallDie(die, count);
          if (small === undefined) return;
          expect(shape(toMeasure(sumSmall(small, count, budget())))).toEqual(
            shape(slowSum(die, count)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a compounding die (truncated chains) keeps its missing mass in Numbers too', () => {
    const modifiers = {
      ...PLAIN,
      explode: { when: { operator: '=', value: 4 }, compound: true },
    } as const;
    const die = dieMeasure(4, false, modifiers, 3, budget());
    const small = smallDie(die, 3)!;
    expect(small).toBeDefined();
    const keep = { mode: 'kh', count: 2 } as const;
    expect(shape(toMeasure(keepSmall(small, 3, 2, true, budget())))).toEqual(
      shape(reduce(keepFromIid(die, 3, keep, budget()))),
    );
    expect(shape(toMeasure(sumSmall(small, 3, budget())))).toEqual(shape(slowSum(die, 3)));
  });
});

describe("keep/drop past 2^53 in BigInt gives the general programme's weights", () => {
  it('NdS kh/kl/dh/dl with rerolls and compounding, up to 30 dice', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom<KeepMode>('kh', 'kl', 'dh', 'dl'),
        fc.integer({ min: 0, max: 31 }),
        fc.constantFrom('plain', 'reroll', 'compound'),
        (count, sides, mode, n, kind) => {
          const modifiers: DiceModifiers = {
            ...PLAIN,
            reroll:
              kind === 'reroll' && sides > 2
                ? { when: [{ operator: '=', value: 1 }], once: true }
                : undefined,
            explode:
              kind === 'compound' && sides > 1
                ? { when: { operator: '=', value: sides }, compound: true }
                : undefined,
          };
          const die = dieMeasure(sides, false, modifiers, 2, budget());
          const keep = { mode, count: n };
          const summed = keepSummed(
            die,
            count,
            keptCount(keep, count),
            mode === 'kh' || mode === 'dl',
            budget(),
          );
          expect(shape(reduce(summed))).toEqual(
            shape(reduce(keepFromIid(die, count, keep, budget()))),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('expressions: the fast paths against brute force over every roll', () => {
  it('NdS[kh|kl|dh|dl|k][N][rX][+C]: the parse-free path, the tree path and every roll agree', () => {
    fc.assert(
      fc.property(pool, ({ count, sides, mode, n, reroll, plus }) => {
        if (reroll !== '' && sides < 3) return;
        if (sides ** count > 5000) return;
        const keep = mode === '' ? '' : `${mode}${n ?? ''}`;
        const plain = `${count}d${sides}${reroll}${keep}`;
        const expression = plus === 0 ? plain : `${plain}${plus > 0 ? '+' : ''}${plus}`;
        const direct = diceDistribution(expression);
        // Parentheses keep the scanner out: the parsed tree's own path.
        const tree = parseDice(`(${expression})`).distribution();
        expect(shape(direct)).toEqual(shape(tree));
        expect(Object.is(direct.mean, tree.mean)).toBe(true);
        expect(Object.is(direct.stdev, tree.stdev)).toBe(true);
        expect(direct.truncated).toBe(tree.truncated);
        if (reroll !== '') return; // rolls cap rerolls; the odds test covers that elsewhere
        const brute = enumerateSource((dice) => parseDice(expression).total(dice));
        expect(describeFractions(exactOutcomes(direct))).toEqual(describeFractions(brute));
      }),
      { numRuns: 150 },
    );
  });

  it('says which path it took: Numbers while counts fit in 2^53, BigInt beyond', () => {
    expect(diceDistribution('3d20kh1').precision).toBe('exact-number');
    expect(diceDistribution('20d6kh10').precision).toBe('exact-number');
    expect(diceDistribution('4d6kh3+2').precision).toBe('exact-bigint');
    expect(diceDistribution('100d10').precision).toBe('exact-bigint');
    expect(diceDistribution('21d6kh10').precision).toBe('exact-bigint');
  });

  it('the BigInt and Number paths agree on mean and stdev to the last bit', () => {
    for (const expression of ['20d6kh10', '10d10kh3', '5d100', '3d20kl1', '8d6', '12d4dl3']) {
      const fast = diceDistribution(expression);
      const slow = parseDice(`(${expression})+0`).distribution();
      expect(fast.precision).toBe('exact-number');
      expect(shape(fast)).toEqual(shape(slow));
      expect([fast.mean, fast.stdev]).toEqual([slow.mean, slow.stdev]);
      expect(fast.atLeast(fast.mean)).toBe(slow.atLeast(slow.mean));
    }
  });

  it('leaves to the parser what it cannot read, errors included', () => {
    for (const expression of [
      '4d6 kh3',
      '04d6',
      '4D6',
      '4d6kh0',
      '4d6kx',
      '0d6',
      'd6',
      '4d6kh3kh2',
    ]) {
      let fast: unknown;
      let parsed: unknown;
      try {
        fast = shape(diceDistribution(expression));
      } catch (error) {
        fast = (error as { code?: string }).code;
      }
      try {
        parsed = shape(parseDice(expression).distribution());
      } catch (error) {
        parsed = (error as { code?: string }).code;
      }
      expect(fast).toEqual(parsed);
    }
  });
});

describe('sums of uniform dice by the coefficient recurrence', () => {
  it.each([
    [1, 6],
    [2, 1],
    [3, 2],
    [25, 6],
    [40, 10],
    [17, 20],
    [60, 3],
    [9, 100],
  ])('%id%i is what adding one die at a time gives', (count, sides) => {
    const die = dieMeasure(sides, false, PLAIN, 10, budget());
    expect(shape(reduce(sumOfIid(die, count, budget())))).toEqual(shape(slowSum(die, count)));
  });

  it('d6r1 (equal weights, not 1) and larger counts, as a property', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2, max: 12 }),
        fc.boolean(),
        (count, sides, reroll) => {
          const modifiers: DiceModifiers = {
            ...PLAIN,
            reroll: reroll ? { when: [{ operator: '=', value: 1 }], once: false } : undefined,
          };
          const die = dieMeasure(sides, false, modifiers, 10, budget());
          expect(shape(reduce(sumOfIid(die, count, budget())))).toEqual(shape(slowSum(die, count)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('1000d10 answers within the default budget, with exact weights that sum to 10^1000', () => {
    const d = diceDistribution('1000d10');
    expect(d.mean).toBe(5500);
    expect(d.denominator).toBe(10n ** 1000n);
    expect(d.outcomes.reduce((s, o) => s + o.weight, 0n)).toBe(10n ** 1000n);
    expect(d.outcomes[0]).toEqual({ value: 1000, weight: 1n });
    expect(d.outcomes[1]).toEqual({ value: 1001, weight: 1000n });
  });
});
