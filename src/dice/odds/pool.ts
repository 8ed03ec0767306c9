import type { ComparePoint, KeepModifier } from '../notation/ast.js';
import { matches } from '../notation/compare.js';
import { keptCount } from '../roll/pool.js';
import { add, bitsOf, constant, fromMap, type Measure } from './measure.js';
import type { WorkBudget } from './work.js';

/** +1 for a success, -1 for a failure, 0 otherwise: what one kept entry adds to a count. */
export function scorer(
  success: ComparePoint,
  failure: ComparePoint | undefined,
): (v: number) => number {
  return (v) => (matches(success, v) ? 1 : failure !== undefined && matches(failure, v) ? -1 : 0);
}

function isUniformRun(m: Measure): boolean {
  const n = m.values.length;
  if (n < 2 || m.values[n - 1]! - m.values[0]! !== n - 1) return false;
  const w = m.weights[0];
  return m.weights.every((x) => x === w);
}

/** The sum of `count` independent draws from `die`. */
export function sumOfIid(die: Measure, count: number, work: WorkBudget): Measure {
  if (count === 0) return constant(0);
  if (isUniformRun(die)) return sumOfUniformRun(die, count, work);
  // Binary powers: log2(count) convolutions instead of count.
  let result: Measure | undefined;
  let power = die;
  let n = count;
  for (;;) {
    if (n & 1) result = result === undefined ? power : add(result, power, work);
    n >>= 1;
    if (n === 0) return result!;
    power = add(power, power, work);
  }
}

/**
 * Sums of dice whose faces are equally likely and consecutive (a plain d6, a d6r1): each
 * further die is a sliding-window sum, with no multiplications at all.
 */
function sumOfUniformRun(die: Measure, count: number, work: WorkBudget): Measure {
  const width = die.values.length;
  const low = die.values[0]! * count;
  const length = (width - 1) * count + 1;
  // Charged in full before anything is allocated. Die n computes len = (n - 1) x (width - 1)
  // + width window sums of numbers about n x log2(width) bits long. Measured on this machine
  // (1000d6, 300d20, 100d100, 10d10000 to 30d10000, 3d100000, 1000d20), a sum costs about
  // 100 ns plus its length, and up to 8 times that once the arrays outgrow the caches (a
  // hundred thousand entries and more): units = len x (1 + bits / 384) x (1 to 8) keeps each
  // near 30 to 50 ns. (An earlier estimate charged a sixteenth of the sums at their final
  // length, and (1d30)d10000 ran 24 s inside its budget.)
  const bitsPerDie = Math.log2(width);
  let units = 0;
  for (let n = 1; n <= count; n++) {
    const length = (n - 1) * (width - 1) + width;
    const bits = n * bitsPerDie + bitsOf(die);
    units += length * (1 + bits / 384) * (1 + 7 * Math.min(1, length / 100_000));
  }
  work.charge(units, `summing ${count} dice`);
  let counts: bigint[] = [1n];
  for (let n = 1; n <= count; n++) {
    const next = new Array<bigint>(counts.length + width - 1);
    let window = 0n;
    for (let k = 0; k < next.length; k++) {
      if (k < counts.length) window += counts[k]!;
      if (k - width >= 0) window -= counts[k - width]!;
      next[k] = window;
    }
    counts = next;
  }
  const scale = die.weights[0]! ** BigInt(count);
  const values: number[] = new Array(length);
  const weights: bigint[] = new Array(length);
  for (let i = 0; i < length; i++) {
    values[i] = low + i;
    weights[i] = counts[i]! * scale;
  }
  return { values, weights, denominator: die.denominator ** BigInt(count) };
}

function binomialRow(n: number): bigint[] {
  const row: bigint[] = [1n];
  for (let c = 0; c < n; c++) row.push((row[c]! * BigInt(n - c)) / BigInt(c + 1));
  return row;
}

/**
 * Keep or drop the highest or lowest of `count` independent dice, then sum (or score) the kept
 * ones. Dynamic programming over the sorted outcomes, as icepool does: for each outcome,
 * how many dice show it; a state is (dice placed so far, total of the kept ones). The cost grows
 * with outcomes x dice x kept totals, never with the number of possible rolls.
 */
export function keepFromIid(
  die: Measure,
  count: number,
  keep: KeepModifier,
  work: WorkBudget,
  score?: (value: number) => number,
): Measure {
  const kept = keptCount(keep, count);
  const contribution = score ?? ((v: number) => v);
  if (kept === 0)
    return {
      values: [0],
      weights: [die.denominator ** BigInt(count)],
      denominator: die.denominator ** BigInt(count),
    };
  const highestFirst = keep.mode === 'kh' || keep.mode === 'dl';
  const order = die.values.map((_, i) => i);
  if (highestFirst) order.reverse();
  // Weights grow to about count x (bits of one die's denominator).
  const bits = count * bitsOf(die);
  const rows = new Map<number, bigint[]>();
  const row = (n: number): bigint[] => {
    let r = rows.get(n);
    if (r === undefined) {
      work.charge(n + 1, 'binomial coefficients', n);
      r = binomialRow(n);
      rows.set(n, r);
    }
    return r;
  };
  // states[j]: kept total -> weight, with j dice placed so far.
  let states: Map<number, bigint>[] = Array.from({ length: count + 1 }, () => new Map());
  states[0]!.set(0, 1n);
  for (let step = 0; step < order.length; step++) {
    const index = order[step]!;
    const value = contribution(die.values[index]!);
    const weight = die.weights[index]!;
    const last = step === order.length - 1;
    let stepWork = 0;
    for (let j = 0; j <= count; j++) stepWork += states[j]!.size * (last ? 1 : count - j + 1);
    work.charge(stepWork, 'keeping dice', bits);
    const powers: bigint[] = [1n];
    for (let c = 1; c <= count; c++) powers.push(powers[c - 1]! * weight);
    const next: Map<number, bigint>[] = Array.from({ length: count + 1 }, () => new Map());
    for (let j = 0; j <= count; j++) {
      const here = states[j]!;
      if (here.size === 0) continue;
      const binomials = row(count - j);
      for (let c = last ? count - j : 0; c <= count - j; c++) {
        const keptHere = Math.max(0, Math.min(c, kept - j));
        const factor = binomials[c]! * powers[c]!;
        const target = next[j + c]!;
        for (const [total, w] of here) {
          const t = total + keptHere * value;
          target.set(t, (target.get(t) ?? 0n) + w * factor);
        }
      }
    }
    states = next;
  }
  return fromMap(states[count]!, die.denominator ** BigInt(count));
}

/**
 * Keep or drop among entries that are not alike (the expressions of a `{group}`): a state is
 * the best `kept` values so far. Fine for the handful of entries a group has.
 */
export function keepFromEntries(
  entries: readonly Measure[],
  keep: KeepModifier,
  work: WorkBudget,
  score?: (value: number) => number,
): Measure {
  const kept = keptCount(keep, entries.length);
  const highestFirst = keep.mode === 'kh' || keep.mode === 'dl';
  let states = new Map<string, { best: number[]; weight: bigint }>([
    ['', { best: [], weight: 1n }],
  ]);
  let denominator = 1n;
  for (const entry of entries) {
    // Each step sorts and keys a small array: about eight steps' worth of work.
    work.charge(
      8 * states.size * entry.values.length * (kept + 1),
      'keeping group entries',
      denominator.toString(16).length * 4 + bitsOf(entry),
    );
    const next = new Map<string, { best: number[]; weight: bigint }>();
    for (const { best, weight } of states.values()) {
      for (let i = 0; i < entry.values.length; i++) {
        const merged = [...best, entry.values[i]!].sort(
          highestFirst ? (a, b) => b - a : (a, b) => a - b,
        );
        const trimmed = merged.slice(0, kept);
        const key = trimmed.join(',');
        const w = weight * entry.weights[i]!;
        const existing = next.get(key);
        if (existing === undefined) next.set(key, { best: trimmed, weight: w });
        else existing.weight += w;
      }
    }
    states = next;
    denominator *= entry.denominator;
  }
  const contribution = score ?? ((v: number) => v);
  const map = new Map<number, bigint>();
  for (const { best, weight } of states.values()) {
    const total = best.reduce((sum, v) => sum + contribution(v), 0);
    map.set(total, (map.get(total) ?? 0n) + weight);
  }
  return fromMap(map, denominator);
}
