import type { ComparePoint, KeepModifier } from '../notation/ast.js';
import { matches } from '../notation/compare.js';
import { keptCount } from '../roll/pool.js';
import { add, bitsOf, constant, fromDense, fromMap, type Measure } from './measure.js';
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
 * Sums of dice whose faces are equally likely and consecutive (a plain d6, a d6r1), by a
 * recurrence instead of adding one die at a time. With m faces the ways to roll a total are the
 * coefficients g_k of G(x) = ((1 - x^m) / (1 - x))^n; G'/G = n/(1 - x) - n m x^(m-1)/(1 - x^m)
 * turns into
 *   (k + 1) g[k+1] = (k + n) g[k] + (k + 1 - m - n m) g[k+1-m] + (n (m - 1) + m - k) g[k-m],
 * three products by small numbers and one exact division per coefficient, and the counts are
 * symmetric, so only half are computed. 1000d10 took 1000 sliding-window passes over arrays of
 * up to 9,001 BigInts (1.5 s); this is 4,500 steps.
 */
function sumOfUniformRun(die: Measure, count: number, work: WorkBudget): Measure {
  const width = die.values.length;
  const low = die.values[0]!;
  const length = (width - 1) * count + 1;
  const half = Math.floor((length - 1) / 2);
  // Each step makes five BigInt operations on numbers of about count x log2(width) bits.
  // Measured on this 2-core machine under load (1000d6, 1000d10, 1000d20, 10d10000,
  // 30d10000): 200 to 500 ns a step per 64 bits of weight, charged as 40 units, the budget's
  // conservative end (10 ns a unit), so 1000d10 fits and 1000d20 or 30d10000 are refused.
  const bits = count * Math.log2(width) + bitsOf(die);
  work.charge((half + 1) * 40, `summing ${count} dice`, bits);
  const g = new Array<bigint>(length);
  g[0] = 1n;
  const n = BigInt(count);
  const m = BigInt(width);
  for (let k = 0; k < half; k++) {
    const K = BigInt(k);
    let next = (K + n) * g[k]!;
    if (k + 1 - width >= 0) next += (K + 1n - m - n * m) * g[k + 1 - width]!;
    if (k - width >= 0) next += (n * (m - 1n) + m - K) * g[k - width]!;
    g[k + 1] = next / (K + 1n);
  }
  for (let k = half + 1; k < length; k++) g[k] = g[length - 1 - k]!;
  const scale = die.weights[0]! ** BigInt(count);
  const values: number[] = new Array(length);
  const weights: bigint[] = new Array(length);
  for (let i = 0; i < length; i++) {
    values[i] = low * count + i;
    weights[i] = scale === 1n ? g[i]! : g[i]! * scale;
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
 * keepFromIid for a plain sum of kept dice with non-negative values, in BigInt: the programme of
 * odds/fast.ts keepSmall (a roll is finished, in (weight below)^(dice left) ways, as soon as its
 * kept dice are placed), for pools whose counts pass 2^53. States are (dice placed < kept, kept
 * total) instead of (every dice count, kept total), so 50d10kh5 is about outcomes x kept^2 x
 * totals steps rather than outcomes x dice^2 x totals.
 */
export function keepSummed(
  die: Measure,
  count: number,
  kept: number,
  highestFirst: boolean,
  work: WorkBudget,
): Measure {
  const m = die.values.length;
  const denominator = die.denominator ** BigInt(count);
  if (kept === 0) return { values: [0], weights: [denominator], denominator };
  // Every chain was cut off by truncated explosions: no roll is left to keep.
  if (m === 0) return { values: [], weights: [], denominator };
  const top = die.values[m - 1]!;
  const width = kept * top + 1;
  // States with j dice placed hold at most j x top + 1 totals, each moved `kept - j` ways.
  let perStep = 0;
  for (let j = 0; j < kept; j++) perStep += (j * top + 1) * (kept - j + 1);
  work.charge(
    m * perStep + kept * width + count * count,
    `keeping ${kept} of ${count} dice`,
    count * bitsOf(die),
  );
  let states = new Array<bigint>(kept * width).fill(0n);
  let next = new Array<bigint>(kept * width).fill(0n);
  const result = new Array<bigint>(width).fill(0n);
  states[0] = 1n;
  let below = 0n;
  for (const w of die.weights) below += w;
  const binomial: bigint[][] = [];
  for (let r = 0; r <= count; r++) binomial.push(binomialRow(r));
  const powW = new Array<bigint>(count + 1);
  const powB = new Array<bigint>(count + 1);
  for (let step = 0; step < m; step++) {
    const index = highestFirst ? m - 1 - step : step;
    const v = die.values[index]!;
    const w = die.weights[index]!;
    below -= w;
    powW[0] = 1n;
    powB[0] = 1n;
    for (let c = 1; c <= count; c++) {
      powW[c] = powW[c - 1]! * w;
      powB[c] = powB[c - 1]! * below;
    }
    next.fill(0n);
    for (let j = 0; j < kept; j++) {
      const r = count - j;
      const need = kept - j;
      const row = binomial[r]!;
      // Ways the r dice left put at least `need` on this outcome and the rest below it.
      let finish = 0n;
      for (let c = need; c <= r; c++) finish += row[c]! * powW[c]! * powB[r - c]!;
      const stay: bigint[] = [];
      for (let c = 0; c < need; c++) stay.push(row[c]! * powW[c]!);
      const base = j * width;
      const shiftFinish = need * v;
      for (let t = 0; t + shiftFinish < width; t++) {
        const st = states[base + t]!;
        if (st === 0n) continue;
        result[t + shiftFinish] = result[t + shiftFinish]! + st * finish;
        for (let c = 0; c < need; c++) {
          const at = base + c * width + t + c * v;
          next[at] = next[at]! + st * stay[c]!;
        }
      }
    }
    [states, next] = [next, states];
  }
  return fromDense(result, 0, denominator);
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
