import { describe, expect, it } from 'vitest';
import {
  DiceError,
  type DiceLimits,
  type Distribution,
  diceDistribution,
  distribution,
  parseDice,
  rollDice,
  seededDice,
} from '../../src/index.js';
import {
  addFractions,
  describeFractions,
  diceError,
  die,
  enumerate,
  enumerateSource,
  exactOutcomes,
  type Fraction,
  fraction,
  type Pick,
} from './helpers.js';

/** The exact probability of `value`, as a fraction. */
function exact(dist: Distribution, value: number): Fraction {
  const outcome = dist.outcomes.find((o) => o.value === value);
  return fraction(outcome?.weight ?? 0n, dist.denominator);
}

/** The exact mean of the outcomes shown, as a fraction. */
function exactMean(dist: Distribution): Fraction {
  let sum = 0n;
  let total = 0n;
  for (const { value, weight } of dist.outcomes) {
    sum += BigInt(value) * weight;
    total += weight;
  }
  return fraction(sum, total);
}

function totalProbability(dist: Distribution): number {
  return dist.distribution.reduce((sum, [, p]) => sum + p, 0);
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const dice = (pick: Pick, count: number, sides: number): number[] =>
  Array.from({ length: count }, () => die(pick, sides));
const highest = (xs: readonly number[], k: number): number[] =>
  [...xs].sort((a, b) => b - a).slice(0, k);
const lowest = (xs: readonly number[], k: number): number[] =>
  [...xs].sort((a, b) => a - b).slice(0, k);
const range = (low: number, high: number): number[] =>
  Array.from({ length: high - low + 1 }, (_, i) => low + i);
/** One d% the physical way: a tens d10 then a ones d10, a 10 reading 0, 0 and 0 reading 100. */
const percentile = (pick: Pick): number => {
  const tens = die(pick, 10) % 10;
  const ones = die(pick, 10) % 10;
  return tens === 0 && ones === 0 ? 100 : tens * 10 + ones;
};
/** An exploding chain of faces, or undefined when it explodes more than `depth` times. */
const chain = (
  face: () => number,
  explodes: (v: number) => boolean,
  depth: number,
): number[] | undefined => {
  const faces = [face()];
  while (explodes(faces.at(-1)!)) {
    if (faces.length > depth) return undefined;
    faces.push(face());
  }
  return faces;
};
/** Sums per-die values, or undefined when any die was truncated. */
const total = (values: readonly (number | undefined)[]): number | undefined =>
  values.some((v) => v === undefined) ? undefined : sum(values as number[]);
const count = (
  xs: readonly number[],
  success: (v: number) => boolean,
  failure?: (v: number) => boolean,
) => xs.reduce((n, v) => n + (success(v) ? 1 : failure?.(v) ? -1 : 0), 0);

describe('exact values', () => {
  it('4d6kh3: mean 12.2446 (rpg-dice-roller reports 10.5, which is wrong)', () => {
    const dist = diceDistribution('4d6kh3');
    expect(dist.mean).toBeCloseTo(12.2446, 4);
    expect(dist.mean).not.toBeCloseTo(10.5, 1);
    expect(exactMean(dist)).toEqual(fraction(15869n, 1296n));
    expect(dist.min).toBe(3);
    expect(dist.max).toBe(18);
    expect(dist.truncated).toBe(0);
    expect(exact(dist, 18)).toEqual(fraction(21n, 1296n));
    expect(exact(dist, 3)).toEqual(fraction(1n, 1296n));
  });

  it('3d6: P(10) = 27/216 exactly, via outcome weights over the denominator', () => {
    const dist = diceDistribution('3d6');
    const ten = dist.outcomes.find((o) => o.value === 10)!;
    expect(ten.weight * 216n).toBe(27n * dist.denominator);
    expect(dist.probabilityOf(10)).toBeCloseTo(27 / 216, 15);
    expect(dist.mean).toBe(10.5);
    expect(dist.stdev).toBeCloseTo(Math.sqrt(3 * (35 / 12)), 12);
    expect(dist.outcomes.map((o) => o.value)).toEqual(range(3, 18));
  });

  it('d%: uniform over 1..100', () => {
    const dist = diceDistribution('d%');
    expect(dist.min).toBe(1);
    expect(dist.max).toBe(100);
    expect(dist.outcomes).toHaveLength(100);
    for (const value of range(1, 100)) expect(exact(dist, value)).toEqual(fraction(1n, 100n));
    expect(dist.mean).toBe(50.5);
  });

  it('2d6: the triangle', () => {
    const dist = diceDistribution('2d6');
    expect(dist.distribution.map(([v]) => v)).toEqual(range(2, 12));
    for (const value of range(2, 12)) {
      expect(exact(dist, value)).toEqual(fraction(BigInt(6 - Math.abs(value - 7)), 36n));
    }
    expect(dist.mean).toBe(7);
    expect(dist.stdev).toBeCloseTo(Math.sqrt(35 / 6), 12);
  });

  it('4d6dl1 == 4d6kh3', () => {
    const a = diceDistribution('4d6dl1');
    const b = diceDistribution('4d6kh3');
    expect(describeFractions(exactOutcomes(a))).toEqual(describeFractions(exactOutcomes(b)));
    expect(a.mean).toBe(b.mean);
  });

  it('4d6dh1 == 4d6kl3, and 2d20kl1 is disadvantage', () => {
    const a = diceDistribution('4d6dh1');
    const b = diceDistribution('4d6kl3');
    expect(describeFractions(exactOutcomes(a))).toEqual(describeFractions(exactOutcomes(b)));
    const disadvantage = diceDistribution('2d20kl1');
    for (const value of range(1, 20)) {
      // P(min = v) = ((21 - v)^2 - (20 - v)^2) / 400
      expect(exact(disadvantage, value)).toEqual(
        fraction(BigInt((21 - value) ** 2 - (20 - value) ** 2), 400n),
      );
    }
  });

  it('10d10kh3: range 3..30, and matches an independent count over sorted rolls', () => {
    const dist = diceDistribution('10d10kh3');
    expect(dist.min).toBe(3);
    expect(dist.max).toBe(30);
    expect(dist.mean).toBeGreaterThan(25);
    expect(dist.mean).toBeLessThan(27);
    expect(describeFractions(exactOutcomes(dist))).toEqual(
      describeFractions(multisetKeep(10, 10, (sorted) => sum(sorted.slice(-3)))),
    );
  });

  it.each([
    ['8d6dl3', 8, 6, (sorted: number[]) => sum(sorted.slice(3))],
    ['6d8kl2', 6, 8, (sorted: number[]) => sum(sorted.slice(0, 2))],
    ['7d4dh2', 7, 4, (sorted: number[]) => sum(sorted.slice(0, 5))],
    ['5d12kh5', 5, 12, (sorted: number[]) => sum(sorted)],
    ['6d6kh2>=5', 6, 6, (sorted: number[]) => sorted.slice(-2).filter((v) => v >= 5).length],
    [
      '6d10kh4>=8f1',
      6,
      10,
      (sorted: number[]) =>
        count(
          sorted.slice(-4),
          (v) => v >= 8,
          (v) => v === 1,
        ),
    ],
  ])('%s matches an independent count over sorted rolls', (expression, n, sides, score) => {
    expect(describeFractions(exactOutcomes(diceDistribution(expression)))).toEqual(
      describeFractions(multisetKeep(n, sides, score)),
    );
  });

  it('100d10: mean 550, min 100, max 1000', () => {
    const dist = diceDistribution('100d10');
    expect(dist.mean).toBe(550);
    expect(dist.min).toBe(100);
    expect(dist.max).toBe(1000);
    expect(dist.stdev).toBeCloseTo(Math.sqrt(100 * 8.25), 10);
    expect(dist.outcomes).toHaveLength(901);
    expect(exact(dist, 100)).toEqual(fraction(1n, 10n ** 100n));
    expect(exact(dist, 101)).toEqual(fraction(100n, 10n ** 100n));
    // Tiny probabilities survive the conversion to doubles.
    expect(dist.probabilityOf(100) / 1e-100).toBeCloseTo(1, 12);
    expect(dist.atMost(550) + dist.atLeast(551)).toBeCloseTo(1, 12);
  });

  it('1000d6: mean 3500, computed without overflow', () => {
    const dist = diceDistribution('1000d6');
    expect(dist.mean).toBe(3500);
    expect(dist.stdev).toBeCloseTo(Math.sqrt(1000 * (35 / 12)), 9);
    expect(totalProbability(dist)).toBeCloseTo(1, 9);
  });

  it('1d6!: truncated after 10 explosions, missing about (1/6)^11, mean close to 4.2', () => {
    const dist = diceDistribution('1d6!');
    expect(dist.truncated / (1 / 6) ** 11).toBeCloseTo(1, 9);
    expect(dist.mean).toBeCloseTo(4.2, 6);
    expect(dist.min).toBe(1);
    expect(dist.max).toBe(6 * 10 + 5);
    // Never a multiple of 6: a 6 always explodes.
    expect(dist.outcomes.some((o) => o.value % 6 === 0)).toBe(false);
    for (let k = 0; k <= 10; k++) {
      for (let r = 1; r <= 5; r++) {
        expect(exact(dist, 6 * k + r)).toEqual(fraction(1n, 6n ** BigInt(k + 1)));
      }
    }
    expect(totalProbability(dist)).toBeCloseTo(1 - dist.truncated, 12);
  });

  it('1d6!! has the same distribution as 1d6! (a single die)', () => {
    const a = diceDistribution('1d6!!');
    const b = diceDistribution('1d6!');
    expect(describeFractions(exactOutcomes(a))).toEqual(describeFractions(exactOutcomes(b)));
    expect(a.truncated).toBe(b.truncated);
  });

  it('explodeDepth sets the truncation', () => {
    const none = diceDistribution('1d6!!', { limits: { explodeDepth: 0 } });
    expect(none.outcomes.map((o) => o.value)).toEqual([1, 2, 3, 4, 5]);
    expect(none.truncated).toBeCloseTo(1 / 6, 15);
    expect(none.mean).toBe(3);
    const deep = diceDistribution('1d6!', { limits: { explodeDepth: 30 } });
    expect(deep.truncated / (1 / 6) ** 31).toBeCloseTo(1, 9);
    expect(deep.mean).toBeCloseTo(4.2, 12);
  });

  it('1d20ro<=3: low faces are rerolled once', () => {
    const dist = diceDistribution('1d20ro<=3');
    for (const value of range(1, 20)) {
      expect(exact(dist, value)).toEqual(fraction(value <= 3 ? 3n : 23n, 400n));
    }
    expect(exactMean(dist)).toEqual(fraction(4710n, 400n));
  });

  it('3d6r1: each die uniform over 2..6', () => {
    const dist = diceDistribution('3d6r1');
    expect(dist.min).toBe(6);
    expect(dist.max).toBe(18);
    expect(dist.mean).toBe(12);
    expect(exact(dist, 6)).toEqual(fraction(1n, 125n));
    expect(exact(dist, 7)).toEqual(fraction(3n, 125n));
    expect(describeFractions(exactOutcomes(diceDistribution('1d6r1')))).toEqual(
      range(2, 6).map((v) => `${v}: 1/5`),
    );
  });

  it('overlapping reroll points count each face once', () => {
    expect(describeFractions(exactOutcomes(diceDistribution('1d6r<3r<=2r1')))).toEqual(
      range(3, 6).map((v) => `${v}: 1/4`),
    );
    // ro: a face in {1, 2} stays only if rolled again, 2/6 * 1/6; others 1/6 + 2/6 * 1/6.
    expect(describeFractions(exactOutcomes(diceDistribution('1d6ro<3ro1')))).toEqual([
      '1: 1/18',
      '2: 1/18',
      ...range(3, 6).map((v) => `${v}: 2/9`),
    ]);
    expect(diceError(() => diceDistribution('1d4r<3r>=2')).code).toBe('dice/always-matches');
  });

  it('5d10>=8f1: successes minus failures', () => {
    const dist = diceDistribution('5d10>=8f1');
    expect(dist.min).toBe(-5);
    expect(dist.max).toBe(5);
    expect(dist.mean).toBeCloseTo(1, 12);
    expect(exact(dist, 5)).toEqual(fraction(3n ** 5n, 10n ** 5n));
    expect(exact(dist, -5)).toEqual(fraction(1n, 10n ** 5n));
    // Variance per die: E[X^2] - E[X]^2 = 0.4 - 0.04.
    expect(dist.stdev).toBeCloseTo(Math.sqrt(5 * 0.36), 12);
  });

  it('{4d6, 3d8}kh1: the better of two totals', () => {
    const dist = diceDistribution('{4d6, 3d8}kh1');
    const a = diceDistribution('4d6');
    const b = diceDistribution('3d8');
    expect(dist.min).toBe(4);
    expect(dist.max).toBe(24);
    const expected = new Map<number, Fraction>();
    for (const x of a.outcomes) {
      for (const y of b.outcomes) {
        const v = Math.max(x.value, y.value);
        const p = fraction(x.weight * y.weight, a.denominator * b.denominator);
        expected.set(v, addFractions(expected.get(v) ?? fraction(0n, 1n), p));
      }
    }
    expect(describeFractions(exactOutcomes(dist))).toEqual(describeFractions(expected));
  });

  it('(1d4)d6: mean 8.75', () => {
    const dist = diceDistribution('(1d4)d6');
    expect(dist.mean).toBe(8.75);
    expect(dist.min).toBe(1);
    expect(dist.max).toBe(24);
    expect(exact(dist, 24)).toEqual(fraction(1n, 4n * 6n ** 4n));
  });

  it('floor, ceil and round choose how the division rounds', () => {
    const floor = diceDistribution('floor(1d6/4)');
    expect(describeFractions(exactOutcomes(floor))).toEqual(['0: 1/2', '1: 1/2']);
    expect(describeFractions(exactOutcomes(diceDistribution('1d6/4')))).toEqual([
      '0: 1/2',
      '1: 1/2',
    ]);
    expect(describeFractions(exactOutcomes(diceDistribution('ceil(1d6/4)')))).toEqual([
      '1: 2/3',
      '2: 1/3',
    ]);
    expect(describeFractions(exactOutcomes(diceDistribution('round(1d6/4)')))).toEqual([
      '0: 1/6',
      '1: 2/3',
      '2: 1/6',
    ]);
    // round(-1/2) = 0 and round(-3/2) = -1: halves go up.
    expect(describeFractions(exactOutcomes(diceDistribution('round(-1d4/2)')))).toEqual([
      '-2: 1/4',
      '-1: 1/2',
      '0: 1/4',
    ]);
    expect(describeFractions(exactOutcomes(diceDistribution('-1d4/2')))).toEqual([
      '-2: 1/2',
      '-1: 1/2',
    ]);
  });

  it('atLeast, atMost and probabilityOf', () => {
    const dist = distribution('2d6');
    expect(dist.atLeast(7)).toBeCloseTo(21 / 36, 15);
    expect(dist.atMost(7)).toBeCloseTo(21 / 36, 15);
    expect(dist.atLeast(2)).toBe(1);
    expect(dist.atMost(12)).toBe(1);
    expect(dist.atLeast(13)).toBe(0);
    expect(dist.atMost(1)).toBe(0);
    expect(dist.atLeast(12)).toBeCloseTo(1 / 36, 15);
    expect(dist.probabilityOf(7)).toBeCloseTo(1 / 6, 15);
    expect(dist.probabilityOf(7.5)).toBe(0);
    expect(dist.probabilityOf(1)).toBe(0);
    for (let x = 0; x <= 13; x++) {
      expect(dist.atLeast(x) + dist.atMost(x - 1)).toBeCloseTo(1, 15);
    }
  });

  it('Distribution.toJSON has the documented shape', () => {
    const json = distribution('1d4+1').toJSON();
    expect(Object.keys(json).sort()).toEqual(
      ['distribution', 'expression', 'max', 'mean', 'min', 'stdev', 'truncated'].sort(),
    );
    expect(json).toEqual({
      expression: '1d4+1',
      min: 2,
      max: 5,
      mean: 3.5,
      stdev: Math.sqrt(1.25),
      distribution: [
        [2, 0.25],
        [3, 0.25],
        [4, 0.25],
        [5, 0.25],
      ],
      truncated: 0,
    });
    expect(JSON.parse(JSON.stringify(distribution('1d4+1')))).toEqual(json);
  });

  it('a constant has one outcome', () => {
    const dist = diceDistribution('2*3+1');
    expect(dist.outcomes).toEqual([{ value: 7, weight: 1n }]);
    expect(dist.denominator).toBe(1n);
    expect(dist.mean).toBe(7);
    expect(dist.stdev).toBe(0);
  });

  it('variables: 2*AGI + d12 with AGI 10', () => {
    const dist = diceDistribution('2*AGI + d12', { variables: { AGI: 10 } });
    expect(dist.min).toBe(21);
    expect(dist.max).toBe(32);
    expect(dist.mean).toBe(26.5);
    const error = diceError(() => diceDistribution('3*STR + d10'));
    expect(error.code).toBe('dice/unknown-variable');
    expect(error.message).toContain("'STR'");
  });

  it('negation and subtraction', () => {
    const neg = diceDistribution('-1d6');
    expect([neg.min, neg.max, neg.mean]).toEqual([-6, -1, -3.5]);
    const diff = diceDistribution('1d6-1d6');
    expect(diff.mean).toBe(0);
    expect(exact(diff, 0)).toEqual(fraction(1n, 6n));
    expect(exact(diff, -5)).toEqual(fraction(1n, 36n));
  });

  it('fs: symmetric around 0, truncated on both chains', () => {
    const dist = diceDistribution('fs');
    expect(dist.mean).toBeCloseTo(0, 12);
    expect(dist.min).toBe(-64);
    expect(dist.max).toBe(64);
    expect(dist.truncated / (2 * (1 / 6) ** 11)).toBeCloseTo(1, 6);
    for (const { value, weight } of dist.outcomes) {
      expect(dist.outcomes.find((o) => o.value === -value)?.weight).toBe(weight);
    }
  });

  it('compounding pools may keep and drop: 3d6!!kh2', () => {
    const dist = diceDistribution('3d6!!kh2');
    expect(dist.truncated).toBeGreaterThan(0);
    expect(totalProbability(dist)).toBeCloseTo(1 - dist.truncated, 12);
  });
});

describe('odds errors', () => {
  it("'odds/too-large' for 10000d6, thrown rather than computed", () => {
    const error = diceError(() => diceDistribution('10000d6'));
    expect(error.code).toBe('odds/too-large');
    expect(error.message).toContain('10000d6');
    expect(error.column).toBe(1);
  });

  it("'odds/too-large' follows the maxOddsWork limit", () => {
    expect(diceError(() => diceDistribution('4d6kh3', { limits: { maxOddsWork: 10 } })).code).toBe(
      'odds/too-large',
    );
    expect(diceDistribution('4d6kh3', { limits: { maxOddsWork: 100_000 } }).mean).toBeCloseTo(
      12.2446,
      4,
    );
  });

  it.each([
    '1d4294967296',
    '1000d1000 * 1000d1000',
    '10000d10000',
    '{100d100, 100d100, 100d100, 100d100, 100d100, 100d100}kh3',
  ])("'odds/too-large' for %s", (expression) => {
    expect(diceError(() => diceDistribution(expression)).code).toBe('odds/too-large');
  });

  it("'odds/unsupported' for 3d6!kh2", () => {
    const error = diceError(() => diceDistribution('3d6!kh2'));
    expect(error.code).toBe('odds/unsupported');
    expect(error.message).toContain('!!');
    expect(diceError(() => diceDistribution('2d6!>=5dl1')).code).toBe('odds/unsupported');
  });

  it('dice errors surface in odds too', () => {
    expect(diceError(() => diceDistribution('10001d6')).code).toBe('dice/too-many-dice');
    expect(diceError(() => diceDistribution('1d0')).code).toBe('dice/no-sides');
    expect(diceError(() => diceDistribution('1d1!')).code).toBe('dice/explode-d1');
    expect(diceError(() => diceDistribution('1d6r<7')).code).toBe('dice/always-matches');
    expect(diceError(() => diceDistribution('(1d4-2)d6')).code).toBe('dice/negative-count');
    expect(diceError(() => diceDistribution('1d6/(1d2-1)')).code).toBe('dice/division-by-zero');
    expect(diceError(() => diceDistribution('9007199254740991*2')).code).toBe(
      'dice/unsafe-integer',
    );
    expect(diceError(() => diceDistribution('1d6', { limits: { explodeDepth: -1 } })).code).toBe(
      'dice/bad-limit',
    );
  });

  it("9007199254740991+1: odds throw 'dice/unsafe-integer' as rolls do", () => {
    const error = diceError(() => diceDistribution('9007199254740991+1'));
    expect(error.code).toBe('dice/unsafe-integer');
    expect(diceError(() => diceDistribution('-9007199254740991-1d2')).code).toBe(
      'dice/unsafe-integer',
    );
  });

  it("a die that would explode on every face the reroll leaves is refused: 1d2r1!! ('dice/always-matches')", () => {
    for (const expression of ['1d2r1!!', '2d2r1!!', '1d2r1!! + 1d6', '1d6r<6!']) {
      expect(diceError(() => diceDistribution(expression)).code).toBe('dice/always-matches');
      expect(diceError(() => rollDice(expression, { dice: seededDice(1) })).code).toBe(
        'dice/always-matches',
      );
    }
    // Rerolled once, a 1 can still stand and end the chain.
    expect(diceDistribution('1d2ro1!!').truncated).toBeGreaterThan(0);
  });

  it('errors from odds are DiceErrors', () => {
    expect(diceError(() => parseDice('3d6!kh2').distribution())).toBeInstanceOf(DiceError);
  });
});

/**
 * The exact distribution of scoring `count` dice of `sides` sides, counted over sorted rolls
 * (multisets) with multinomial weights: independent of the odds engine's dynamic programming.
 */
function multisetKeep(
  n: number,
  sides: number,
  score: (sorted: number[]) => number,
): Map<number, Fraction> {
  const factorial = (k: number): bigint => (k <= 1 ? 1n : BigInt(k) * factorial(k - 1));
  const result = new Map<number, bigint>();
  const counts: number[] = new Array(sides).fill(0);
  const visit = (face: number, left: number): void => {
    if (face === sides) {
      if (left > 0) return;
      const sorted: number[] = [];
      let weight = factorial(n);
      counts.forEach((c, i) => {
        for (let j = 0; j < c; j++) sorted.push(i + 1);
        weight /= factorial(c);
      });
      const value = score(sorted);
      result.set(value, (result.get(value) ?? 0n) + weight);
      return;
    }
    for (let c = face === sides - 1 ? left : 0; c <= left; c++) {
      counts[face] = c;
      visit(face + 1, left - c);
    }
    counts[face] = 0;
  };
  visit(0, n);
  const denominator = BigInt(sides) ** BigInt(n);
  return new Map([...result].map(([v, w]) => [v, fraction(w, denominator)]));
}

interface BruteCase {
  readonly expression: string;
  readonly program: (pick: Pick) => number | undefined;
  readonly limits?: Partial<DiceLimits>;
}

const bruteCases: BruteCase[] = [
  { expression: '2d6kh1', program: (p) => Math.max(die(p, 6), die(p, 6)) },
  { expression: '3d4kl2', program: (p) => sum(lowest(dice(p, 3, 4), 2)) },
  { expression: '4d4dh1', program: (p) => sum(lowest(dice(p, 4, 4), 3)) },
  { expression: '3d4dl2', program: (p) => sum(highest(dice(p, 3, 4), 1)) },
  { expression: '3d3kh5', program: (p) => sum(dice(p, 3, 3)) },
  { expression: '4d6kh3', program: (p) => sum(highest(dice(p, 4, 6), 3)) },
  { expression: '{1d6,1d8}kh1', program: (p) => Math.max(die(p, 6), die(p, 8)) },
  { expression: '{1d4, 2d3}kl1', program: (p) => Math.min(die(p, 4), sum(dice(p, 2, 3))) },
  {
    expression: '{1d4, 1d4, 1d6}dl1',
    program: (p) => sum(highest(dice(p, 2, 4).concat(die(p, 6)), 2)),
  },
  { expression: '2d6r1', program: (p) => p(range(2, 6)) + p(range(2, 6)) },
  { expression: '2d6r<3', program: (p) => p(range(3, 6)) + p(range(3, 6)) },
  { expression: '1d8r1r8', program: (p) => p(range(2, 7)) },
  {
    expression: '2d4ro1',
    program: (p) => {
      const once = () => {
        const f = die(p, 4);
        return f === 1 ? die(p, 4) : f;
      };
      return once() + once();
    },
  },
  {
    expression: '2d6ro<=2',
    program: (p) => {
      const once = () => {
        const f = die(p, 6);
        return f <= 2 ? die(p, 6) : f;
      };
      return once() + once();
    },
  },
  {
    expression: '3d4ro1kh2',
    program: (p) => {
      const once = () => {
        const f = die(p, 4);
        return f === 1 ? die(p, 4) : f;
      };
      return sum(highest([once(), once(), once()], 2));
    },
  },
  {
    expression: '3d6r6kl2',
    program: (p) => sum(lowest([p(range(1, 5)), p(range(1, 5)), p(range(1, 5))], 2)),
  },
  {
    expression: '3d6>=5f1',
    program: (p) =>
      count(
        dice(p, 3, 6),
        (v) => v >= 5,
        (v) => v === 1,
      ),
  },
  { expression: '4d6kh2>=5', program: (p) => count(highest(dice(p, 4, 6), 2), (v) => v >= 5) },
  { expression: '3d6<3', program: (p) => count(dice(p, 3, 6), (v) => v < 3) },
  {
    expression: '{2d4, 1d6}>=4',
    program: (p) => count([sum(dice(p, 2, 4)), die(p, 6)], (v) => v >= 4),
  },
  {
    expression: '{1d6, 1d6, 1d6}>=4f1',
    program: (p) =>
      count(
        dice(p, 3, 6),
        (v) => v >= 4,
        (v) => v === 1,
      ),
  },
  {
    expression: '{1d4, 1d6}kh1>=3',
    program: (p) => count([Math.max(die(p, 4), die(p, 6))], (v) => v >= 3),
  },
  { expression: '1d6*2-1d4', program: (p) => die(p, 6) * 2 - die(p, 4) },
  { expression: '1d4+1d4*1d4', program: (p) => die(p, 4) + die(p, 4) * die(p, 4) },
  { expression: '-(1d4-1d6)', program: (p) => -(die(p, 4) - die(p, 6)) },
  { expression: '(1d4-2)*1d3', program: (p) => (die(p, 4) - 2) * die(p, 3) },
  { expression: 'max(1d6,1d6)', program: (p) => Math.max(die(p, 6), die(p, 6)) },
  { expression: 'min(1d4,1d6,1d8)', program: (p) => Math.min(die(p, 4), die(p, 6), die(p, 8)) },
  { expression: 'abs(1d6-1d6)', program: (p) => Math.abs(die(p, 6) - die(p, 6)) },
  { expression: '(1d4)d4', program: (p) => sum(dice(p, die(p, 4), 4)) },
  { expression: '1d(1d6)', program: (p) => die(p, die(p, 6)) },
  {
    expression: '(1d3)d(1d3)',
    program: (p) => {
      const n = die(p, 3);
      return sum(dice(p, n, die(p, 3)));
    },
  },
  { expression: '1d6/2', program: (p) => Math.floor(die(p, 6) / 2) },
  { expression: '-1d6/4', program: (p) => Math.floor(-die(p, 6) / 4) },
  { expression: '2d6/1d3', program: (p) => Math.floor(sum(dice(p, 2, 6)) / die(p, 3)) },
  { expression: 'floor(1d6/4)', program: (p) => Math.floor(die(p, 6) / 4) },
  { expression: 'ceil(2d6/3)', program: (p) => Math.ceil(sum(dice(p, 2, 6)) / 3) },
  { expression: 'round(1d10/4)', program: (p) => Math.floor(die(p, 10) / 4 + 0.5) },
  { expression: 'round(1d6-1d6)/2', program: (p) => Math.floor((die(p, 6) - die(p, 6)) / 2) },
  { expression: 'd%', program: (p) => percentile(p) },
  { expression: '2d%kh1', program: (p) => Math.max(percentile(p), percentile(p)) },
  {
    expression: '1d3!!',
    limits: { explodeDepth: 3 },
    program: (p) =>
      total([
        sumOrUndefined(
          chain(
            () => die(p, 3),
            (v) => v === 3,
            3,
          ),
        ),
      ]),
  },
  {
    expression: '2d3!',
    limits: { explodeDepth: 2 },
    program: (p) =>
      total(
        [0, 1].map(() =>
          sumOrUndefined(
            chain(
              () => die(p, 3),
              (v) => v === 3,
              2,
            ),
          ),
        ),
      ),
  },
  {
    expression: '2d3!!kh1',
    limits: { explodeDepth: 2 },
    program: (p) => {
      const values = [0, 1].map(() =>
        sumOrUndefined(
          chain(
            () => die(p, 3),
            (v) => v === 3,
            2,
          ),
        ),
      );
      return values.includes(undefined) ? undefined : Math.max(...(values as number[]));
    },
  },
  {
    expression: '3d2!!kl2',
    limits: { explodeDepth: 1 },
    program: (p) => {
      const values = [0, 1, 2].map(() =>
        sumOrUndefined(
          chain(
            () => die(p, 2),
            (v) => v === 2,
            1,
          ),
        ),
      );
      return values.includes(undefined) ? undefined : sum(lowest(values as number[], 2));
    },
  },
  {
    expression: '1d4!>=3',
    limits: { explodeDepth: 2 },
    program: (p) =>
      sumOrUndefined(
        chain(
          () => die(p, 4),
          (v) => v >= 3,
          2,
        ),
      ),
  },
  {
    expression: '1d6r1!',
    limits: { explodeDepth: 2 },
    program: (p) =>
      sumOrUndefined(
        chain(
          () => p(range(2, 6)),
          (v) => v === 6,
          2,
        ),
      ),
  },
  {
    expression: '2d4>=3!',
    limits: { explodeDepth: 2 },
    program: (p) => {
      const chains = [0, 1].map(() =>
        chain(
          () => die(p, 4),
          (v) => v === 4,
          2,
        ),
      );
      if (chains.includes(undefined)) return undefined;
      return count((chains as number[][]).flat(), (v) => v >= 3);
    },
  },
  {
    expression: '2d4>=6!!',
    limits: { explodeDepth: 2 },
    program: (p) => {
      const values = [0, 1].map(() =>
        sumOrUndefined(
          chain(
            () => die(p, 4),
            (v) => v === 4,
            2,
          ),
        ),
      );
      if (values.includes(undefined)) return undefined;
      return count(values as number[], (v) => v >= 6);
    },
  },
  {
    expression: 'fs',
    limits: { explodeDepth: 2 },
    program: (p) => {
      const positive = sumOrUndefined(
        chain(
          () => die(p, 6),
          (v) => v === 6,
          2,
        ),
      );
      const negative = sumOrUndefined(
        chain(
          () => die(p, 6),
          (v) => v === 6,
          2,
        ),
      );
      return positive === undefined || negative === undefined ? undefined : positive - negative;
    },
  },
];

function sumOrUndefined(values: number[] | undefined): number | undefined {
  return values === undefined ? undefined : sum(values);
}

describe('brute-force cross-check: the odds engine against enumerating every roll', () => {
  it.each(bruteCases)('$expression', ({ expression, program, limits }) => {
    const dist = diceDistribution(expression, { limits });
    const expected = enumerate(program);
    expect(describeFractions(exactOutcomes(dist))).toEqual(describeFractions(expected));
    // The missing mass is what the enumeration dropped as truncated.
    let shown = fraction(0n, 1n);
    for (const p of expected.values()) shown = addFractions(shown, p);
    const missing = fraction(shown.den - shown.num, shown.den);
    expect(dist.truncated).toBeCloseTo(Number(missing.num) / Number(missing.den), 15);
  });

  // The roller itself, run over every sequence of faces, must give the odds engine's answer.
  // Only expressions whose rolls always finish in a bounded number of dice: no r, no explosions.
  it.each([
    '4d6kh3',
    '3d4kl2',
    '4d4dh1',
    '{1d6,1d8}kh1',
    '{1d4, 2d3}kl1',
    '2d4ro1',
    '3d4ro1kh2',
    '3d6>=5f1',
    '4d6kh2>=5',
    '{2d4, 1d6}>=4',
    '1d6*2-1d4',
    '(1d4)d4',
    '1d(1d6)',
    '(1d3)d(1d3)kh1',
    'round(1d10/4)',
    'ceil(2d6/3) - floor(1d6/4)',
    'max(1d6,1d6) + abs(1d4-1d4)',
    'd%',
    '2d%kh1',
    '2d6kh1 + 1d4',
  ])('roll() and total() over every roll of %s match the odds', (expression) => {
    const parsed = parseDice(expression);
    const odds = describeFractions(exactOutcomes(parsed.distribution()));
    expect(
      describeFractions(enumerateSource((source) => parsed.roll({ dice: source }).total)),
    ).toEqual(odds);
    expect(describeFractions(enumerateSource((source) => parsed.total(source)))).toEqual(odds);
  });
});
