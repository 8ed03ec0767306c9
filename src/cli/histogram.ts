import type { Distribution } from '../dice/index.js';

const BAR_WIDTH = 50;
const MAX_ROWS = 40;

interface Row {
  readonly label: string;
  readonly probability: number;
}

/** Tails rarer than this are folded into one row each, so the bars show where the rolls land. */
const TAIL = 1e-5;

/**
 * One row per value when there are few; otherwise the values between the rare tails grouped
 * into at most MAX_ROWS bands of equal width, with a row for each tail.
 */
function rowsOf(distribution: Distribution): Row[] {
  const points = distribution.distribution;
  if (points.length <= MAX_ROWS) {
    return points.map(([value, probability]) => ({ label: String(value), probability }));
  }
  let low = 0;
  for (let below = 0; low < points.length - 1 && below + points[low]![1] < TAIL; low++)
    below += points[low]![1];
  let high = points.length - 1;
  for (let above = 0; high > low && above + points[high]![1] < TAIL; high--)
    above += points[high]![1];
  const from = points[low]![0];
  const to = points[high]![0];
  const width = Math.ceil((to - from + 1) / MAX_ROWS);
  const bands = new Map<number, number>();
  let lowTail = 0;
  let highTail = 0;
  for (const [value, probability] of points) {
    if (value < from) lowTail += probability;
    else if (value > to) highTail += probability;
    else {
      const band = Math.floor((value - from) / width);
      bands.set(band, (bands.get(band) ?? 0) + probability);
    }
  }
  const rows: Row[] = [];
  if (lowTail > 0) rows.push({ label: `< ${from}`, probability: lowTail });
  for (const [band, probability] of [...bands.entries()].sort((a, b) => a[0] - b[0])) {
    const bandLow = from + band * width;
    const bandHigh = Math.min(bandLow + width - 1, to);
    rows.push({
      label: bandLow === bandHigh ? String(bandLow) : `${bandLow}..${bandHigh}`,
      probability,
    });
  }
  if (highTail > 0) rows.push({ label: `> ${to}`, probability: highTail });
  return rows;
}

function percent(p: number): string {
  if (p === 0) return '0%';
  if (p < 0.0001) return '<0.01%';
  return `${(p * 100).toFixed(2)}%`;
}

/** One bar per value (or per band of values when there are many), scaled to the likeliest. */
export function renderHistogram(distribution: Distribution): string {
  const rows = rowsOf(distribution);
  const top = Math.max(...rows.map((r) => r.probability));
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const lines = rows.map(({ label, probability }) => {
    const bar = '█'.repeat(top === 0 ? 0 : Math.round((probability / top) * BAR_WIDTH));
    return `${label.padStart(labelWidth)}  ${percent(probability).padStart(7)}  ${bar}`;
  });
  return lines.join('\n');
}

export function summaryLine(distribution: Distribution): string {
  const parts = [
    `mean ${round(distribution.mean)}`,
    `stdev ${round(distribution.stdev)}`,
    `min ${distribution.min}`,
    `max ${distribution.max}`,
  ];
  if (distribution.truncated > 0) {
    parts.push(
      `explosions cut off: ${distribution.truncated.toExponential(2)} of the probability not shown`,
    );
  }
  return parts.join(', ');
}

function round(x: number): string {
  return Number(x.toFixed(4)).toString();
}

export { percent };
