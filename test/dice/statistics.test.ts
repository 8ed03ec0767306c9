/**
 * Fixed-seed statistical tests: the sampled totals of an expression against its exact
 * distribution, by a chi-square test at the 99.9% level. The seed is fixed, so the outcome is
 * deterministic and the tests never flake; a failure means the roller, the odds engine or the
 * generator changed what they compute.
 */
import { describe, expect, it } from 'vitest';
import {
  type DiceSource,
  type Distribution,
  diceDistribution,
  parseDice,
  seededDice,
} from '../../src/index.js';

const SEED = 20_240_501;
const SAMPLES = 100_000;
/** The standard normal quantile for 0.999. */
const Z_999 = 3.090_232_306_167_813;

/** The 99.9% point of chi-square with `df` degrees of freedom (Wilson-Hilferty). */
function chiSquareCritical(df: number): number {
  const a = 2 / (9 * df);
  return df * (1 - a + Z_999 * Math.sqrt(a)) ** 3;
}

interface ChiSquare {
  readonly statistic: number;
  readonly df: number;
  readonly critical: number;
  readonly bins: number;
}

/**
 * Bins the outcomes in value order, closing a bin once its expected count reaches 5; a short
 * last bin joins the one before. The first bin reaches down to minus infinity and the last up
 * to infinity, so every sample falls in a bin (the truncated tails of explosions included).
 */
function chiSquare(counts: Map<number, number>, dist: Distribution, n: number): ChiSquare {
  const shown = 1 - dist.truncated;
  const bins: { low: number; expected: number }[] = [];
  let current: { low: number; expected: number } | undefined;
  for (const [value, p] of dist.distribution) {
    if (current === undefined) current = { low: value, expected: 0 };
    current.expected += (n * p) / shown;
    if (current.expected >= 5) {
      bins.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) {
    if (bins.length === 0) bins.push(current);
    else bins[bins.length - 1]!.expected += current.expected;
  }
  const observed = new Array<number>(bins.length).fill(0);
  for (const [value, c] of counts) {
    let i = bins.length - 1;
    while (i > 0 && value < bins[i]!.low) i--;
    observed[i]! += c;
  }
  let statistic = 0;
  bins.forEach((bin, i) => {
    statistic += (observed[i]! - bin.expected) ** 2 / bin.expected;
  });
  const df = bins.length - 1;
  return { statistic, df, critical: chiSquareCritical(df), bins: bins.length };
}

function sample(
  expression: string,
  dice: DiceSource,
  n = SAMPLES,
): { counts: Map<number, number>; mean: number } {
  const parsed = parseDice(expression);
  const counts = new Map<number, number>();
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const total = parsed.total(dice);
    counts.set(total, (counts.get(total) ?? 0) + 1);
    sum += total;
  }
  return { counts, mean: sum / n };
}

describe('Wilson-Hilferty critical values', () => {
  it.each([
    [1, 10.828],
    [5, 20.515],
    [10, 29.588],
    [15, 37.697],
    [50, 86.661],
    [99, 148.23],
  ])('the 0.999 quantile for df %s is close to the table value %s', (df, table) => {
    // The approximation is within a few percent even for one degree of freedom.
    const tolerance = df === 1 ? 0.05 : df < 10 ? 0.02 : 0.01;
    expect(Math.abs(chiSquareCritical(df) - table) / table).toBeLessThan(tolerance);
  });
});

describe(`${SAMPLES} seeded totals against the exact distribution (seed ${SEED})`, () => {
  it.each([
    '4d6kh3',
    '3d6',
    'd%',
    '10d10kh3',
    '1d6!',
    'fs',
    '5d10>=8',
    '2d20kl1',
    '5d10>=8f1',
    '1d20ro<=3',
    '3d6r1',
    '{4d6, 3d8}kh1',
    '(1d4)d6',
    '2d6!!kh1',
    '3d6!',
    '1d(1d8)',
    'round(2d6/3) - 1d4',
    '2*AGI + d12',
    '1d1000',
  ])('%s', (expression) => {
    const dist = diceDistribution(expression, { variables: { AGI: 10 } });
    const parsed = parseDice(expression);
    const dice = seededDice(SEED);
    const counts = new Map<number, number>();
    let sum = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const total = parsed.total(dice, { AGI: 10 });
      counts.set(total, (counts.get(total) ?? 0) + 1);
      sum += total;
    }
    const test = chiSquare(counts, dist, SAMPLES);
    expect(test.df).toBeGreaterThan(0);
    expect(test.statistic).toBeLessThan(test.critical);
    // The sample mean is within 4.5 standard errors of the exact mean.
    const mean = sum / SAMPLES;
    expect(Math.abs(mean - dist.mean)).toBeLessThan((4.5 * dist.stdev) / Math.sqrt(SAMPLES));
    // Every sampled total is a possible outcome (explosions past the truncation aside).
    if (dist.truncated === 0) {
      for (const value of counts.keys()) expect(dist.probabilityOf(value)).toBeGreaterThan(0);
    }
  });

  it('the explained path samples the same totals as the total-only path', () => {
    const parsed = parseDice('4d6kh3 + d%');
    const a = seededDice(SEED);
    const b = seededDice(SEED);
    for (let i = 0; i < 10_000; i++) {
      expect(parsed.roll({ dice: a }).total).toBe(parsed.total(b));
    }
  });
});

describe('the test has power', () => {
  it('4d6kh3 samples fail against the 3d6 distribution', () => {
    const { counts } = sample('4d6kh3', seededDice(SEED), 10_000);
    const test = chiSquare(counts, diceDistribution('3d6'), 10_000);
    expect(test.statistic).toBeGreaterThan(10 * test.critical);
  });

  it('a slightly loaded d6 fails against a fair one', () => {
    const fair = seededDice(SEED);
    // A 6 comes up 1/6 + 1/30 of the time instead of 1/6.
    const loaded: DiceSource = {
      roll: (sides) => (fair.roll(30) === 1 ? sides : fair.roll(sides)),
    };
    const { counts } = sample('1d6', loaded);
    const test = chiSquare(counts, diceDistribution('1d6'), SAMPLES);
    expect(test.statistic).toBeGreaterThan(test.critical);
  });

  it('d% read as tens * 10 + ones without the 0-and-0 rule fails', () => {
    const dice = seededDice(SEED);
    const counts = new Map<number, number>();
    for (let i = 0; i < SAMPLES; i++) {
      // Wrong on purpose: 0 and 0 as 0 instead of 100, so 100 never comes up.
      const value = (dice.roll(10) % 10) * 10 + (dice.roll(10) % 10);
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const test = chiSquare(counts, diceDistribution('d%'), SAMPLES);
    expect(test.statistic).toBeGreaterThan(test.critical);
  });
});

describe('SeededDice faces are unbiased', () => {
  /** Faces of a die bucketed into `buckets` equally likely ranges, against a uniform law. */
  function uniformity(sides: number, buckets: number, seed: number): ChiSquare {
    const dice = seededDice(seed);
    const observed = new Array<number>(buckets).fill(0);
    for (let i = 0; i < SAMPLES; i++) {
      const face = dice.roll(sides);
      observed[Math.floor(((face - 1) * buckets) / sides)]!++;
    }
    const expected = SAMPLES / buckets;
    const statistic = observed.reduce((s, o) => s + (o - expected) ** 2 / expected, 0);
    const df = buckets - 1;
    return { statistic, df, critical: chiSquareCritical(df), bins: buckets };
  }

  it.each([
    [2, 2],
    [6, 6],
    [7, 7],
    [20, 20],
    [100, 100],
    [2 ** 21, 64],
    // Above 2^21 sides the generator switches to 53-bit rejection sampling.
    [3_000_000, 60],
    [3 * 2 ** 30, 96],
    [2 ** 32, 64],
  ])('d%d in %d equal buckets', (sides, buckets) => {
    const test = uniformity(sides, buckets, SEED);
    expect(test.statistic).toBeLessThan(test.critical);
  });

  it('a d1 always shows 1', () => {
    const dice = seededDice(SEED);
    for (let i = 0; i < 1000; i++) expect(dice.roll(1)).toBe(1);
  });
});
