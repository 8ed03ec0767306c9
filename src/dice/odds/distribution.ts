import { type Measure, totalWeight } from './measure.js';
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

/**
 * The exact distribution of a dice expression. Weights are exact integers over one denominator;
 * the numbers are converted for display. When explosions were cut off at the depth limit the
 * outcomes sum to 1 - `truncated`, and mean and stdev describe the outcomes shown.
 */
export class Distribution {
  readonly expression: string;
  readonly outcomes: readonly ExactOutcome[];
  readonly denominator: bigint;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stdev: number;
  /** Probability cut off by truncated explosions: 0 unless the expression explodes. */
  readonly truncated: number;

  constructor(expression: string, measure: Measure) {
    this.expression = expression;
    this.outcomes = measure.values.map((value, i) => ({ value, weight: measure.weights[i]! }));
    this.denominator = measure.denominator;
    const shown = totalWeight(measure);
    this.truncated = ratio(measure.denominator - shown, measure.denominator);
    this.min = measure.values[0] ?? 0;
    this.max = measure.values.at(-1) ?? 0;
    let sum = 0n;
    let squares = 0n;
    for (const { value, weight } of this.outcomes) {
      const v = BigInt(value);
      sum += v * weight;
      squares += v * v * weight;
    }
    this.mean = shown === 0n ? 0 : ratio(sum, shown);
    // Var = (W*S2 - S1^2) / W^2, exact until the final division.
    this.stdev = shown === 0n ? 0 : Math.sqrt(ratio(shown * squares - sum * sum, shown * shown));
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
