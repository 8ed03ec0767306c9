import type { SmallMeasure } from './fast.js';
import type { Measure } from './measure.js';
import { ratio } from './ratio.js';

/** One outcome with its exact weight; its probability is weight / denominator. */
export interface ExactOutcome {
  readonly value: number;
  readonly weight: bigint;
}

/** The JSON form, as `moogle odds --json` prints it. */
export interface DistributionJson {
  readonly expression: string;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stdev: number;
  readonly distribution: [number, number][];
  readonly truncated: number;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The exact distribution of a dice expression. Weights are exact integers over one denominator;
 * the numbers are converted for display. When explosions were cut off at the depth limit the
 * outcomes sum to 1 - `truncated`, and mean and stdev describe the outcomes shown.
 *
 * Small pools are computed in Numbers (every count a safe integer, so still exact: see
 * odds/fast.ts); their BigInt `outcomes` are then built on first use, since a caller who only
 * reads the mean or a probability should not pay a BigInt per outcome on a first call.
 */
export class Distribution {
  // Fields are `declare`d and set by `initialize` only: otherwise each instance first runs a
  // separate initializer, one more function compiled on a first call.
  declare readonly expression: string;
  declare readonly denominator: bigint;
  declare readonly min: number;
  declare readonly max: number;
  declare readonly mean: number;
  declare readonly stdev: number;
  /** Probability cut off by truncated explosions: 0 unless the expression explodes. */
  declare readonly truncated: number;
  /**
   * How the outcomes were computed, for a caller who wants to know: `'exact-number'` in
   * Numbers where every count is a safe integer, `'exact-bigint'` in BigInt. Both are exact;
   * `outcomes` and `denominator` are BigInt either way.
   */
  declare readonly precision: 'exact-number' | 'exact-bigint';
  declare private readonly values: readonly number[];
  declare private weights: readonly bigint[] | undefined;
  declare private readonly counts: readonly number[] | undefined;
  declare private cachedOutcomes: readonly ExactOutcome[] | undefined;

  constructor(expression: string, measure: Measure | SmallMeasure) {
    // One call: a class constructor is compiled on its first call, the function it calls
    // when the module loads (see odds/simple.ts).
    initialize(this as unknown as Fields, expression, measure);
  }

  /** Every possible value with its exact weight, sorted by value. */
  get outcomes(): readonly ExactOutcome[] {
    if (this.cachedOutcomes === undefined) {
      this.weights ??= this.counts!.map(BigInt);
      const weights = this.weights;
      this.cachedOutcomes = this.values.map((value, i) => ({ value, weight: weights[i]! }));
    }
    return this.cachedOutcomes;
  }

  /** [value, probability] for every possible value, sorted by value. */
  get distribution(): [number, number][] {
    return this.outcomes.map(({ value, weight }) => [value, ratio(weight, this.denominator)]);
  }

  probabilityOf(value: number): number {
    return this.sum((v) => v === value);
  }

  /** P(result >= x). */
  atLeast(x: number): number {
    return this.sum((v) => v >= x);
  }

  /** P(result <= x). */
  atMost(x: number): number {
    return this.sum((v) => v <= x);
  }

  private sum(test: (value: number) => boolean): number {
    let total = 0n;
    for (const { value, weight } of this.outcomes) if (test(value)) total += weight;
    return ratio(total, this.denominator);
  }

  toJSON(): DistributionJson {
    return {
      expression: this.expression,
      min: this.min,
      max: this.max,
      mean: this.mean,
      stdev: this.stdev,
      distribution: this.distribution,
      truncated: this.truncated,
    };
  }
}

/**
 * Mean, standard deviation and truncated mass in Numbers, when every sum involved is a safe
 * integer: the same divisions the BigInt path makes, so the same doubles. Undefined when a sum
 * could pass 2^53 (the caller then uses BigInt).
 */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const smallMoments = (function smallMoments(m: SmallMeasure): [number, number, number] | undefined {
  let shown = 0;
  let largest = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < m.counts.length; i++) {
    const v = m.values[i]!;
    const c = m.counts[i]!;
    shown += c;
    sum += v * c;
    squares += v * v * c;
    if (v > largest) largest = v;
    else if (-v > largest) largest = -v;
  }
  // The sums are exact if these bounds are safe (sum <= largest * shown, and so on);
  // otherwise they are thrown away for the BigInt ones.
  const squaresBound = largest * largest * shown;
  if (shown === 0 || squaresBound * shown > SAFE || shown * shown > SAFE) return undefined;
  const truncated = m.denominator === shown ? 0 : (m.denominator - shown) / m.denominator;
  const variance = shown * squares - sum * sum;
  return [sum / shown, variance === 0 ? 0 : Math.sqrt(variance / (shown * shown)), truncated];
});

/** Mean, standard deviation and truncated mass, exact until the final divisions. */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const bigMoments = (function bigMoments(
  values: readonly number[],
  weights: readonly bigint[],
  denominator: bigint,
): [number, number, number] {
  let shown = 0n;
  let sum = 0n;
  let squares = 0n;
  for (let i = 0; i < weights.length; i++) {
    const v = BigInt(values[i]!);
    const w = weights[i]!;
    shown += w;
    sum += v * w;
    squares += v * v * w;
  }
  const truncated = ratio(denominator - shown, denominator);
  if (shown === 0n) return [0, 0, truncated];
  // Var = (W*S2 - S1^2) / W^2.
  return [
    ratio(sum, shown),
    Math.sqrt(ratio(shown * squares - sum * sum, shown * shown)),
    truncated,
  ];
});

/** What the constructor sets, writable: `initialize` fills a new Distribution. */
interface Fields {
  expression: string;
  denominator: bigint;
  min: number;
  max: number;
  mean: number;
  stdev: number;
  truncated: number;
  precision: 'exact-number' | 'exact-bigint';
  values: readonly number[];
  weights: readonly bigint[] | undefined;
  counts: readonly number[] | undefined;
  cachedOutcomes: readonly ExactOutcome[] | undefined;
}

// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const initialize = (function initialize(
  d: Fields,
  expression: string,
  measure: Measure | SmallMeasure,
): void {
  d.expression = expression;
  d.values = measure.values;
  d.min = measure.values[0] ?? 0;
  d.max = measure.values.at(-1) ?? 0;
  d.denominator = BigInt(measure.denominator);
  const small = 'counts' in measure;
  d.precision = small ? 'exact-number' : 'exact-bigint';
  d.counts = small ? measure.counts : undefined;
  d.weights = small ? undefined : measure.weights;
  d.cachedOutcomes = undefined;
  let moments = small ? smallMoments(measure) : undefined;
  if (moments === undefined) {
    // Sums that may pass 2^53: in BigInt, as the outcomes will be.
    d.weights ??= d.counts!.map(BigInt);
    moments = bigMoments(d.values, d.weights, d.denominator);
  }
  d.mean = moments[0];
  d.stdev = moments[1];
  d.truncated = moments[2];
});
