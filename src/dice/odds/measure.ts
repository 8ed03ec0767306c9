import type { WorkBudget } from './work.js';

/**
 * An exact (sub-)probability distribution over whole numbers: outcome `values[i]` has
 * probability `weights[i] / denominator`. Values are sorted and distinct, weights positive.
 * Weights may sum to less than the denominator: the rest is the mass cut off where explosions
 * were truncated.
 */
export interface Measure {
  readonly values: readonly number[];
  readonly weights: readonly bigint[];
  readonly denominator: bigint;
}

export function constant(value: number): Measure {
  return { values: [value], weights: [1n], denominator: 1n };
}

/** Builds a measure from value -> weight pairs, sorting values and dropping zero weights. */
export function fromMap(map: Map<number, bigint>, denominator: bigint): Measure {
  const values = [...map.keys()].filter((v) => map.get(v)! > 0n).sort((a, b) => a - b);
  return { values, weights: values.map((v) => map.get(v)!), denominator };
}

export function totalWeight(m: Measure): bigint {
  let sum = 0n;
  for (const w of m.weights) sum += w;
  return sum;
}

/** About how many bits the weights of `m` take: the length of its denominator. */
export function bitsOf(m: Measure): number {
  return m.denominator.toString(16).length * 4;
}

function accumulate(map: Map<number, bigint>, value: number, weight: bigint): void {
  map.set(value, (map.get(value) ?? 0n) + weight);
}

/** f applied to each outcome. */
export function mapValues(m: Measure, f: (value: number) => number, work: WorkBudget): Measure {
  work.charge(m.values.length, 'mapping outcomes', bitsOf(m));
  const map = new Map<number, bigint>();
  for (let i = 0; i < m.values.length; i++) accumulate(map, f(m.values[i]!), m.weights[i]!);
  return fromMap(map, m.denominator);
}

/** f applied to independent outcomes of a and b. */
export function combine(
  a: Measure,
  b: Measure,
  f: (x: number, y: number) => number,
  work: WorkBudget,
): Measure {
  // Hash-map accumulation and a sort: several times the cost of a dense addition.
  work.charge(8 * a.values.length * b.values.length, 'combining outcomes', bitsOf(a) + bitsOf(b));
  const map = new Map<number, bigint>();
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i]!;
    const wx = a.weights[i]!;
    for (let j = 0; j < b.values.length; j++)
      accumulate(map, f(x, b.values[j]!), wx * b.weights[j]!);
  }
  return fromMap(map, a.denominator * b.denominator);
}

/** The sum of independent outcomes: a convolution, on dense arrays when the range allows. */
export function add(a: Measure, b: Measure, work: WorkBudget): Measure {
  if (a.values.length === 0 || b.values.length === 0) {
    // Everything was cut off by truncated explosions: nothing left to add.
    return { values: [], weights: [], denominator: a.denominator * b.denominator };
  }
  if (a.values.length === 1 && a.weights[0] === a.denominator) return shift(b, a.values[0]!);
  if (b.values.length === 1 && b.weights[0] === b.denominator) return shift(a, b.values[0]!);
  const low = a.values[0]! + b.values[0]!;
  const range = a.values.at(-1)! + b.values.at(-1)! - low + 1;
  const pairs = a.values.length * b.values.length;
  if (range > 4 * pairs + 64) return combine(a, b, (x, y) => x + y, work);
  work.charge(pairs + range, 'adding outcomes', bitsOf(a) + bitsOf(b));
  const dense = new Array<bigint>(range).fill(0n);
  for (let i = 0; i < a.values.length; i++) {
    const x = a.values[i]! - low;
    const wx = a.weights[i]!;
    for (let j = 0; j < b.values.length; j++) {
      const k = x + b.values[j]!;
      dense[k] = dense[k]! + wx * b.weights[j]!;
    }
  }
  return fromDense(dense, low, a.denominator * b.denominator);
}

export function fromDense(dense: readonly bigint[], low: number, denominator: bigint): Measure {
  const values: number[] = [];
  const weights: bigint[] = [];
  for (let i = 0; i < dense.length; i++) {
    if (dense[i]! > 0n) {
      values.push(low + i);
      weights.push(dense[i]!);
    }
  }
  return { values, weights, denominator };
}

export function shift(m: Measure, by: number): Measure {
  return by === 0 ? m : { ...m, values: m.values.map((v) => v + by) };
}

/** The same distribution over a larger denominator (a multiple of the current one). */
export function rescale(m: Measure, denominator: bigint): Measure {
  const factor = denominator / m.denominator;
  return factor === 1n
    ? m
    : { values: m.values, weights: m.weights.map((w) => w * factor), denominator };
}

/** The sub-measure of the outcomes that satisfy `keep`. */
export function restrict(m: Measure, keep: (value: number) => boolean): Measure {
  const values: number[] = [];
  const weights: bigint[] = [];
  for (let i = 0; i < m.values.length; i++) {
    if (keep(m.values[i]!)) {
      values.push(m.values[i]!);
      weights.push(m.weights[i]!);
    }
  }
  return { values, weights, denominator: m.denominator };
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/**
 * Mixes measures: `parts[i].measure` happens with probability `parts[i].weight / denominator`.
 * Used when the number of dice or of sides is itself rolled.
 */
export function mixture(
  parts: readonly { weight: bigint; measure: Measure }[],
  denominator: bigint,
  work: WorkBudget,
): Measure {
  const only = parts[0];
  if (parts.length === 1 && only !== undefined && only.weight === denominator) return only.measure;
  let common = 1n;
  for (const { measure } of parts)
    common = (common / gcd(common, measure.denominator)) * measure.denominator;
  const map = new Map<number, bigint>();
  for (const { weight, measure } of parts) {
    // Hash-map accumulation of products of large weights.
    work.charge(
      4 * measure.values.length,
      'mixing outcomes',
      bitsOf(measure) + common.toString(16).length * 4,
    );
    const factor = weight * (common / measure.denominator);
    for (let i = 0; i < measure.values.length; i++)
      accumulate(map, measure.values[i]!, measure.weights[i]! * factor);
  }
  return fromMap(map, denominator * common);
}

/** Cancels common factors so later steps multiply smaller numbers. */
export function reduce(m: Measure): Measure {
  let g = m.denominator;
  for (const w of m.weights) {
    g = gcd(g, w);
    if (g === 1n) return m;
  }
  return g <= 1n
    ? m
    : { values: m.values, weights: m.weights.map((w) => w / g), denominator: m.denominator / g };
}
