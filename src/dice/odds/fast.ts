import type { Measure } from './measure.js';
import type { WorkBudget } from './work.js';

/**
 * Exact odds of pools in plain Numbers. Every weight these functions produce counts a subset of
 * the die.denominator^count equally likely rolls, so when that product is below 2^53 every
 * intermediate integer is exact in a double and nothing is rounded: the result is the same
 * exact measure the BigInt code gives, only without allocating a BigInt per step. That matters
 * most for a first call, which runs unoptimised code where every BigInt operation and Map entry
 * is an allocation (icepool answers 3d20kh1 cold in about 0.2 ms; Moogle's BigInt path took 8).
 */

/** Below this a count of rolls is an exact integer in a double, sums and products included. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** A die as Numbers: sorted non-negative values, integer weights over `denominator`. */
export interface SmallDie {
  readonly values: readonly number[];
  readonly weights: readonly number[];
  readonly denominator: number;
}

/** The plain dS: faces 1..S, each with weight 1. */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
export const uniformDie = (function uniformDie(sides: number): SmallDie {
  const values = new Array<number>(sides);
  const weights = new Array<number>(sides);
  for (let i = 0; i < sides; i++) {
    values[i] = i + 1;
    weights[i] = 1;
  }
  return { values, weights, denominator: sides };
});

/**
 * The die as Numbers when `count` of them stay exact in doubles: denominator^count (the number of
 * equally weighted rolls) and every value total must be safe integers. Undefined otherwise, and
 * the caller takes the BigInt path.
 */
export function smallDie(die: Measure, count: number): SmallDie | undefined {
  const n = die.values.length;
  if (n === 0 || die.values[0]! < 0) return undefined;
  const denominator = Number(die.denominator);
  if (!fitsPower(denominator, count) || die.values[n - 1]! * count > SAFE) return undefined;
  return { values: die.values, weights: die.weights.map(Number), denominator };
}

/** Whether base^exponent (base >= 1) is a safe integer. */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
export const fitsPower = (function fitsPower(base: number, exponent: number): boolean {
  if (base <= 1) return true;
  // p at least doubles each time, so this stops within 54 steps whatever the exponent.
  let p = 1;
  for (let i = 0; i < exponent; i++) {
    p *= base;
    if (p > SAFE) return false;
  }
  return true;
});

/**
 * An exact measure in Numbers: outcome `values[i]` has probability `counts[i] / denominator`,
 * all safe integers, reduced by their common factor as `reduce` does for BigInt measures, so
 * both paths give the same outcomes and denominator.
 */
export interface SmallMeasure {
  readonly values: readonly number[];
  readonly counts: readonly number[];
  readonly denominator: number;
}

// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const gcd = (function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
});

/** A dense array of counts (index = value - low) as a reduced SmallMeasure. */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const finish = (function finish(dense: ArrayLike<number>, low: number, denominator: number): SmallMeasure {
  const values: number[] = [];
  const counts: number[] = [];
  let g = denominator;
  for (let i = 0; i < dense.length; i++) {
    const c = dense[i]!;
    if (c > 0) {
      values.push(low + i);
      counts.push(c);
      if (g !== 1) g = gcd(c, g);
    }
  }
  if (g > 1) for (let i = 0; i < counts.length; i++) counts[i] = counts[i]! / g;
  return { values, counts, denominator: denominator / g };
});

/** The BigInt form the rest of the engine combines. */
export function toMeasure(m: SmallMeasure): Measure {
  return { values: m.values, weights: m.counts.map(BigInt), denominator: BigInt(m.denominator) };
}

/**
 * Keep the `kept` highest (or lowest) of `count` dice and sum them, as a dynamic programme over
 * the die's outcomes from the best down, as icepool does, with one shortcut: once a roll's kept
 * dice are all placed, the rest of the pool only has to land on worse outcomes, which happens in
 * (weight of worse outcomes)^(dice left) ways, so the roll is finished at once instead of being
 * carried through every later outcome. The states left are (dice placed < kept, kept total),
 * about outcomes x kept^2 x totals steps, and for kh1 this is the order-statistics formula
 * P(max <= x) = F(x)^n.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
export const keepSmall = (function keepSmall(
  die: SmallDie,
  count: number,
  kept: number,
  highestFirst: boolean,
  work: WorkBudget,
): SmallMeasure {
  const m = die.values.length;
  let denominator = 1;
  for (let i = 0; i < count; i++) denominator *= die.denominator;
  const top = die.values[m - 1]!;
  if (kept === 0) return finish([denominator], 0, denominator);
  if (kept === 1) return extreme(die, count, highestFirst, denominator, work);
  const width = kept * top + 1;
  work.charge(m * kept * (kept + 1) * width + kept * width, `keeping ${kept} of ${count} dice`);
  // states[j * width + t]: ways to have placed j dice, all kept, totalling t.
  let states = new Float64Array(kept * width);
  let next = new Float64Array(kept * width);
  const result = new Float64Array(width);
  states[0] = 1;
  let below = 0;
  for (let i = 0; i < m; i++) below += die.weights[i]!;
  // binomial[r][c] for r <= count, built once (Pascal's rule stays below 2^53 here: C(r, c)
  // counts a subset of the rolls).
  const binomial: Float64Array[] = [];
  for (let r = 0; r <= count; r++) {
    const row = new Float64Array(r + 1);
    row[0] = 1;
    row[r] = 1;
    const prev = binomial[r - 1];
    for (let c = 1; c < r; c++) row[c] = prev![c - 1]! + prev![c]!;
    binomial.push(row);
  }
  const powW = new Float64Array(count + 1);
  const powB = new Float64Array(count + 1);
  for (let step = 0; step < m; step++) {
    const index = highestFirst ? m - 1 - step : step;
    const v = die.values[index]!;
    const w = die.weights[index]!;
    below -= w;
    powW[0] = 1;
    powB[0] = 1;
    for (let c = 1; c <= count; c++) {
      powW[c] = powW[c - 1]! * w;
      powB[c] = powB[c - 1]! * below;
    }
    next.fill(0);
    for (let j = 0; j < kept; j++) {
      const r = count - j;
      const need = kept - j;
      const row = binomial[r]!;
      // Ways the r dice left put at least `need` on this outcome and the rest below it.
      let finish = 0;
      for (let c = need; c <= r; c++) finish += row[c]! * powW[c]! * powB[r - c]!;
      const base = j * width;
      const shiftFinish = need * v;
      for (let t = 0; t + shiftFinish < width; t++) {
        const s = states[base + t]!;
        if (s === 0) continue;
        result[t + shiftFinish] = result[t + shiftFinish]! + s * finish;
        for (let c = 0; c < need; c++) {
          const at = base + c * width + t + c * v;
          next[at] = next[at]! + s * row[c]! * powW[c]!;
        }
      }
    }
    [states, next] = [next, states];
  }
  return finish(result, 0, denominator);
});

/**
 * The highest (or lowest) of `count` dice by order statistics: P(max <= x) = F(x)^n, so the
 * weight of x is F(x)^n - F(x-)^n with F the cumulative weight. One pass over the outcomes,
 * which a first call can afford where the general programme's setup cannot.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
const extreme = (function extreme(
  die: SmallDie,
  count: number,
  highest: boolean,
  denominator: number,
  work: WorkBudget,
): SmallMeasure {
  const m = die.values.length;
  work.charge(m * (count + 2), `keeping 1 of ${count} dice`);
  const top = die.values[m - 1]!;
  const dense = new Array<number>(top + 1).fill(0);
  // Cumulative weight from the far end, raised to the count, before and after each outcome.
  let cumulative = 0;
  let before = 0;
  for (let step = 0; step < m; step++) {
    const i = highest ? step : m - 1 - step;
    cumulative += die.weights[i]!;
    let after = 1;
    for (let c = 0; c < count; c++) after *= cumulative;
    dense[die.values[i]!] = after - before;
    before = after;
  }
  return finish(dense, 0, denominator);
});

/**
 * The sum of `count` dice, as counts over denominator^count: sliding-window sums for a die whose
 * outcomes are consecutive and equally likely, direct convolution otherwise.
 */
// biome-ignore format: parentheses ask V8 to compile at load (see odds/simple.ts)
export const sumSmall = (function sumSmall(die: SmallDie, count: number, work: WorkBudget): SmallMeasure {
  let denominator = 1;
  for (let i = 0; i < count; i++) denominator *= die.denominator;
  if (count === 0) return finish([1], 0, 1);
  const m = die.values.length;
  const low = die.values[0]!;
  const span = die.values[m - 1]! - low;
  const length = span * count + 1;
  const uniform = span === m - 1 && die.weights.every((w) => w === die.weights[0]);
  work.charge(count * length * (uniform ? 1 : m), `summing ${count} dice`);
  let counts = new Float64Array(length);
  let next = new Float64Array(length);
  counts[0] = 1;
  let filled = 1;
  for (let n = 1; n <= count; n++) {
    const size = filled + span;
    if (uniform) {
      // Each weight is the same, so adding a die is a moving sum over `m` entries.
      const w = die.weights[0]!;
      let window = 0;
      for (let k = 0; k < size; k++) {
        if (k < filled) window += counts[k]!;
        if (k - m >= 0) window -= counts[k - m]!;
        next[k] = window * w;
      }
    } else {
      next.fill(0, 0, size);
      for (let k = 0; k < filled; k++) {
        const c = counts[k]!;
        if (c === 0) continue;
        for (let i = 0; i < m; i++) {
          const at = k + die.values[i]! - low;
          next[at] = next[at]! + c * die.weights[i]!;
        }
      }
    }
    [counts, next] = [next, counts];
    filled = size;
  }
  return finish(counts, low * count, denominator);
});
