/**
 * The search itself, over any source of battles: a bisection on a grid of values that reads each
 * point's win rate with its 95% Wilson interval. A point whose interval lies wholly on one side
 * of the target moves the bracket; one whose interval holds the target gets more battles, up to
 * a bound, before its rate alone decides. Once the bracket is two neighbouring values, both get
 * more battles until their intervals separate or the budget is spent. The answer is the value
 * tried whose rate is nearest the target.
 */
import { wilson } from '../report.js';

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
  /** Battles of a point's first batch (`-n`). Each later batch doubles the point's battles. */
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
 * Why the search ended: the neighbours' intervals separated; the battle, point or per-point
 * budget ran out first; the target lies outside the rates of the range's ends; Ctrl-C.
 */
export type StopReason = 'separated' | 'budget' | 'outside' | 'interrupted';

export interface SearchOutcome {
  /** Every value tried, sorted by value. */
  readonly points: readonly BalancePoint[];
  /**
   * The value whose rate is nearest the target among those tried inside the bracket (the
   * bisection rules out the rest); undefined when the target is outside.
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

/** Where a point's interval lies from the target. */
function side(t: Tally, target: number): 'below' | 'above' | 'holds' {
  const p = pointOf(t);
  if (p.high < target) return 'below';
  if (p.low > target) return 'above';
  return 'holds';
}

export async function searchBalance(
  grid: Grid,
  target: number,
  bounds: SearchBounds,
  sample: Sampler,
  stopped: () => boolean = () => false,
): Promise<SearchOutcome> {
  const tallies = new Map<number, Tally>();
  let spent = 0;
  let interrupted = false;
  const size = (batches: number): number =>
    batches === 0 ? bounds.battles : bounds.battles * 2 ** (batches - 1);
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
  let lo = 0;
  let hi = gridSteps(grid);
  const finish = (
    stop: StopReason,
    increasing: boolean,
    outside?: 'above' | 'below',
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
    return {
      points,
      chosen: outside === undefined ? nearest : undefined,
      bracket: { low: gridValue(grid, lo), high: gridValue(grid, hi) },
      outside,
      increasing,
      stop: interrupted ? 'interrupted' : stop,
      battles: spent,
    };
  };

  const last = hi;
  if (!(await play(0)) || !(await play(last))) return finish('budget', true);
  const ends = [tallies.get(0)!, tallies.get(last)!] as const;
  const increasing = pointOf(ends[1]).rate >= pointOf(ends[0]).rate;
  const lowEnd = side(ends[0], target);
  if (lowEnd !== 'holds' && lowEnd === side(ends[1], target)) {
    return finish('outside', increasing, lowEnd === 'below' ? 'above' : 'below');
  }
  // +1: the target lies at higher values than this point; -1: at lower; 0: cannot tell yet.
  const towards = (i: number): number => {
    const s = side(tallies.get(i)!, target);
    if (s === 'holds') return 0;
    return (s === 'below') === increasing ? 1 : -1;
  };
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (!(await play(mid))) return finish('budget', increasing);
    while (towards(mid) === 0 && canPlay(mid)) {
      if (!(await play(mid))) return finish('budget', increasing);
    }
    let move = towards(mid);
    if (move === 0) {
      // As many battles as a point may have and still no side: its rate alone decides.
      const rate = pointOf(tallies.get(mid)!).rate;
      move = rate < target === increasing ? 1 : -1;
    }
    if (move > 0) lo = mid;
    else hi = mid;
  }
  // Two neighbours: more battles, to the one with fewer first, until their intervals part.
  // Parted intervals count only at equal battles (or when the one with fewer may have no
  // more): a point seen in a single first batch is the likeliest to be one of the one-in-twenty
  // whose interval misses, and a bisection visits many points.
  for (;;) {
    const a = pointOf(tallies.get(lo)!);
    const b = pointOf(tallies.get(hi)!);
    const fewer = a.battles <= b.battles ? lo : hi;
    const more = fewer === lo ? hi : lo;
    const even = a.battles === b.battles || !canPlay(fewer);
    if (even && (a.high < b.low || b.high < a.low)) return finish('separated', increasing);
    const next = [fewer, more].find(canPlay);
    if (next === undefined || !(await play(next))) return finish('budget', increasing);
  }
}
