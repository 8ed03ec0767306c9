/**
 * The search itself, over any source of battles: a sequential test at each value tried, inside a
 * safeguarded interpolation search over a grid of values.
 *
 * A value is played in batches, and after each its win rate is judged: **on target** once its 95%
 * Wilson interval holds the target and is at most `tolerance` either side (or lies wholly within
 * the target ± `tolerance`): the search stops there; **below** or **above** once its 99%
 * interval lies wholly on one side: the bracket moves; otherwise it gets another batch, up to a
 * bound, after which its rate alone decides. A value far from the target is settled by its first
 * small batch; only values near it get many battles.
 *
 * The next value tried lies where the line through the bracket's two ends, in log-odds, meets the
 * target (win rates against a field are roughly logistic curves), kept an eighth of the bracket
 * from either end; a step that did not halve the bracket is followed by a plain bisection, so
 * the bracket at least halves every two steps whatever the curve, and only bisection is used
 * once the points left would not cover two steps per halving. When the bracket is two
 * neighbouring values the search ends on the one whose rate is nearer the target.
 */
import { wilson, Z95 } from '../report.js';

/** Battles a sampler played for one batch and how many of them the side won. */
export interface Sample {
  readonly wins: number;
  readonly battles: number;
}

/**
 * Plays batch `batch` (0, 1, 2...) of `battles` battles at `value`. Batch sizes depend only on
 * the batch number, so a sampler whose seeds are a function of (value, batch) gives every point
 * the same rate whatever order the search visits it in.
 */
export type Sampler = (value: number, batch: number, battles: number) => Promise<Sample>;

export interface SearchBounds {
  /** Battles of a point's first batch (`-n`); later batches as `batchSize` says. */
  readonly battles: number;
  /** The most battles one point may get. */
  readonly battlesPerPoint: number;
  /** The most points tried. */
  readonly points: number;
  /** The most battles in all. */
  readonly totalBattles: number;
}

/** The values searched: low, low + step, ..., high (the last step may be short). */
export interface Grid {
  readonly low: number;
  readonly high: number;
  readonly step: number;
}

export interface BalancePoint {
  readonly value: number;
  readonly rate: number;
  /** The 95% Wilson interval of the rate. */
  readonly low: number;
  readonly high: number;
  readonly battles: number;
  readonly wins: number;
}

/**
 * Why the search ended: a value's rate was measured within the tolerance of the target; the
 * bracket closed on two neighbouring values, each clearly on its side of the target; the battle,
 * point or per-point budget ran out first; the target lies outside the rates of the range's
 * ends; Ctrl-C.
 */
export type StopReason = 'on-target' | 'separated' | 'budget' | 'outside' | 'interrupted';

export interface SearchOutcome {
  /** Every value tried, sorted by value. */
  readonly points: readonly BalancePoint[];
  /**
   * The value on target, or else the one whose rate is nearest the target among those tried
   * inside the bracket (the search rules out the rest); undefined when the target is outside.
   */
  readonly chosen: BalancePoint | undefined;
  /** The values tried that bound where the target lies, as far as the search narrowed it. */
  readonly bracket: { readonly low: number; readonly high: number };
  /**
   * `above`: the target is above the rates at both ends of the range (by their intervals);
   * `below`: below them. Undefined when the range holds it.
   */
  readonly outside: 'above' | 'below' | undefined;
  /** Whether the rate rose with the value, judged by the ends. */
  readonly increasing: boolean;
  readonly stop: StopReason;
  /** Battles played in all. */
  readonly battles: number;
}

export interface SearchOptions {
  /** Asked after every batch: true once the user asked to stop (Ctrl-C, a cancel). */
  readonly stopped?: () => boolean;
  /** How near the target a value's rate must be measured to end the search; DEFAULT_TOLERANCE. */
  readonly tolerance?: number;
}

/**
 * ±4 points of win rate: what a GM tuning to 75% can tell at the table (70% and 80% play
 * differently; 74% and 76% hardly), and measured in 500-600 battles at a rate near 75% (a 95%
 * interval at 600 battles is ±3.5 points), so that a tune of every example encounter answers
 * within 5 s on two cores. ±3 points costs about 1.5x the battles (docs/sim.md, "Balance").
 */
export const DEFAULT_TOLERANCE = 0.04;

/**
 * The interval that moves the bracket: 99%, wider than the 95% one reported. A value is judged
 * after each of its batches, and every look is a chance for a value that holds the target to
 * seem not to; the wider interval keeps the chance of a wrong turn over a point's looks near 5%.
 */
export const Z_CLEAR = 2.5758293035489;

/**
 * The battles of a point's batch `batch` (0, 1, 2...), from the first batch's `first`: a point's
 * battles grow to 1, 2, 3, 4, 6, 8, 12, 16, 24, 32... times `first`, by a half or a third each
 * time, so that a point is judged soon after it has the battles its verdict needs, and never
 * plays twice what it needed.
 */
export function batchSize(first: number, batch: number): number {
  return batch < 4 ? first : first * 2 ** Math.floor((batch - 2) / 2);
}

/** Values shown and used as seeds: twelve significant digits, so 0.1 + 0.2 is 0.3. */
export function gridValue(grid: Grid, i: number): number {
  const last = gridSteps(grid);
  if (i >= last) return grid.high;
  return Number((grid.low + i * grid.step).toPrecision(12));
}

/** The index of the last value: high itself, even when the step does not divide the range. */
export function gridSteps(grid: Grid): number {
  return Math.ceil((grid.high - grid.low) / grid.step - 1e-9);
}

interface Tally {
  readonly index: number;
  readonly value: number;
  wins: number;
  battles: number;
  batches: number;
}

function pointOf(t: Tally): BalancePoint {
  const [low, high] = wilson(t.wins, t.battles);
  const rate = t.battles === 0 ? 0 : t.wins / t.battles;
  // Wilson's bound at 100% comes out a rounding error short of 1: keep the rate inside.
  return {
    value: t.value,
    rate,
    low: Math.min(low, rate),
    high: Math.max(high, rate),
    battles: t.battles,
    wins: t.wins,
  };
}

/** What a point's battles so far say of it. */
type Verdict = 'on-target' | 'below' | 'above' | 'unsure';

export function verdictOf(
  wins: number,
  battles: number,
  target: number,
  tolerance: number,
): Verdict {
  if (battles === 0) return 'unsure';
  const rate = wins / battles;
  const [low95, high95] = wilson(wins, battles, Z95);
  const low = Math.min(low95, rate);
  const high = Math.max(high95, rate);
  const [lowClear, highClear] = wilson(wins, battles, Z_CLEAR);
  if (Math.max(highClear, rate) < target) return 'below';
  if (Math.min(lowClear, rate) > target) return 'above';
  // Measured to ± the tolerance: the 95% interval decides, one look only.
  if (high - low <= 2 * tolerance) {
    if (high < target) return 'below';
    if (low > target) return 'above';
    return 'on-target';
  }
  return 'unsure';
}

/** Log-odds of a rate, a half battle either way so that 0% and 100% stay finite. */
function logOdds(wins: number, battles: number): number {
  const p = (wins + 0.5) / (battles + 1);
  return Math.log(p / (1 - p));
}

export async function searchBalance(
  grid: Grid,
  target: number,
  bounds: SearchBounds,
  sample: Sampler,
  options: SearchOptions = {},
): Promise<SearchOutcome> {
  const stopped = options.stopped ?? (() => false);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const tallies = new Map<number, Tally>();
  let spent = 0;
  let interrupted = false;
  const size = (batches: number): number => batchSize(bounds.battles, batches);
  const canPlay = (i: number): boolean => {
    const t = tallies.get(i);
    const n = size(t?.batches ?? 0);
    if (t === undefined && tallies.size >= bounds.points) return false;
    if (t !== undefined && t.battles + n > bounds.battlesPerPoint) return false;
    return spent + n <= bounds.totalBattles;
  };
  /** One more batch at grid index i; false when the budget forbids it or Ctrl-C came. */
  const play = async (i: number): Promise<boolean> => {
    if (interrupted || !canPlay(i)) return false;
    let t = tallies.get(i);
    if (t === undefined) {
      t = { index: i, value: gridValue(grid, i), wins: 0, battles: 0, batches: 0 };
      tallies.set(i, t);
    }
    const got = await sample(t.value, t.batches, size(t.batches));
    t.wins += got.wins;
    t.battles += got.battles;
    t.batches++;
    spent += got.battles;
    if (stopped()) interrupted = true;
    return !interrupted;
  };
  const verdict = (i: number): Verdict => {
    const t = tallies.get(i)!;
    return verdictOf(t.wins, t.battles, target, tolerance);
  };
  /** Points whose side was judged by their rate alone, at their bound: not clearly apart. */
  const byRate = new Set<number>();
  /**
   * More batches at i until its verdict is known: on target, below or above (by its rate once
   * it may have no more). Undefined when the battle or point budget, or Ctrl-C, ends the search.
   */
  const settle = async (i: number): Promise<Exclude<Verdict, 'unsure'> | undefined> => {
    if (!tallies.has(i) && !(await play(i))) return undefined;
    for (;;) {
      const v = verdict(i);
      if (v !== 'unsure') return v;
      if (interrupted) return undefined;
      const t = tallies.get(i)!;
      if (t.battles + size(t.batches) > bounds.battlesPerPoint) {
        byRate.add(i);
        return t.wins / t.battles < target ? 'below' : 'above';
      }
      if (!(await play(i))) return undefined;
    }
  };
  let lo = 0;
  let hi = gridSteps(grid);
  let increasing = true;
  const finish = (
    stop: StopReason,
    outside?: 'above' | 'below',
    onTarget?: number,
  ): SearchOutcome => {
    const played = [...tallies.values()]
      .filter((t) => t.battles > 0)
      .sort((a, b) => a.value - b.value);
    const points = played.map(pointOf);
    const inside = played.filter((t) => t.index >= lo && t.index <= hi).map(pointOf);
    const nearest = inside.sort(
      (a, b) =>
        Math.abs(a.rate - target) - Math.abs(b.rate - target) ||
        b.battles - a.battles ||
        a.value - b.value,
    )[0];
    const found = onTarget === undefined ? undefined : pointOf(tallies.get(onTarget)!);
    return {
      points,
      chosen: outside === undefined ? (found ?? nearest) : undefined,
      bracket: { low: gridValue(grid, lo), high: gridValue(grid, hi) },
      outside,
      increasing,
      stop: interrupted ? 'interrupted' : stop,
      battles: spent,
    };
  };

  const last = hi;
  // Both ends' first batches before either gets more: the direction of the curve comes from
  // them, and an end far from the target is settled by its first batch.
  if (!(await play(0)) || !(await play(last))) return finish('budget');
  const rateAt = (i: number): number => {
    const t = tallies.get(i)!;
    return t.wins / t.battles;
  };
  increasing = rateAt(last) >= rateAt(0);
  const lowEnd = await settle(0);
  if (lowEnd === undefined) return finish('budget');
  if (lowEnd === 'on-target') return finish('on-target', undefined, 0);
  const highEnd = await settle(last);
  if (highEnd === undefined) return finish('budget');
  if (highEnd === 'on-target') return finish('on-target', undefined, last);
  increasing = rateAt(last) >= rateAt(0);
  if (lowEnd === highEnd && !byRate.has(0) && !byRate.has(last)) {
    return finish('outside', lowEnd === 'below' ? 'above' : 'below');
  }
  // +1: the target lies at higher values than a point with this verdict; -1: at lower.
  const towards = (v: 'below' | 'above'): number => ((v === 'below') === increasing ? 1 : -1);
  let bisect = false;
  while (hi - lo > 1) {
    const width = hi - lo;
    let fraction = 0.5;
    // Interpolation only while the points left would still cover a bisection of what remains
    // after two steps of it, so that a range of 2^40 steps still closes within MAX_POINTS.
    const left = bounds.points - tallies.size;
    if (!bisect && left >= 2 * Math.ceil(Math.log2(width))) {
      const a = tallies.get(lo)!;
      const b = tallies.get(hi)!;
      const from = logOdds(a.wins, a.battles);
      const to = logOdds(b.wins, b.battles);
      const want = Math.log(target / (1 - target));
      const at = (want - from) / (to - from);
      if (Number.isFinite(at)) fraction = Math.min(7 / 8, Math.max(1 / 8, at));
    }
    const mid = lo + Math.min(width - 1, Math.max(1, Math.round(fraction * width)));
    const v = await settle(mid);
    if (v === undefined) return finish('budget');
    if (v === 'on-target') return finish('on-target', undefined, mid);
    if (towards(v) > 0) lo = mid;
    else hi = mid;
    // An interpolated step that left more than half the bracket is followed by a bisection.
    bisect = !bisect && (hi - lo) * 2 > width;
  }
  return finish(byRate.has(lo) || byRate.has(hi) ? 'budget' : 'separated');
}
