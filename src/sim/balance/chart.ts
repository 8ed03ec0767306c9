/**
 * A balance search as a person reads it: the answer in a sentence, then the curve of the points
 * tried, one line each, sorted by value: a bar solid up to the low end of the 95% interval and
 * shaded across it, the target as a line down the chart, the chosen value marked.
 */
import type { BalanceResult } from './balance.js';
import type { BalancePoint } from './search.js';

const WIDTH = 40;

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function column(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * WIDTH);
}

function bar(p: BalancePoint, target: number): string {
  const low = column(p.low);
  const high = column(p.high);
  const mark = column(target);
  let text = '';
  for (let c = 0; c <= WIDTH; c++) {
    if (c === mark) text += '│';
    else if (c < low) text += '█';
    else if (c <= high) text += '░';
    else text += ' ';
  }
  return text;
}

function showValue(value: number): string {
  return value.toLocaleString('en-US', { maximumSignificantDigits: 12, useGrouping: false });
}

export function renderBalance(result: BalanceResult): string[] {
  const { vary, target } = result;
  const name = `${vary.combatant}.${vary.field}`;
  const lines: string[] = [];
  const who = `${target.name} (${target.side})`;
  lines.push(
    `${name} from ${showValue(vary.low)} to ${showValue(vary.high)}${vary.whole ? '' : ` in steps of ${showValue(vary.step)}`} (${vary.original} in ${vary.originalIn}), for ${who} to win ${pct(target.rate)}`,
  );
  lines.push(
    `${result.battles.toLocaleString('en-US')} battles (seed ${result.seed}, policy ${result.policy}, ${result.bounds.battles.toLocaleString('en-US')} a point to start)`,
  );
  lines.push('');
  if (result.value !== null && result.winRate !== null) {
    const w = result.winRate;
    lines.push(
      `${name} = ${showValue(result.value)}: ${target.name} wins ${pct(w.rate)} (95% interval ${pct(w.low)} to ${pct(w.high)})`,
    );
  } else if (result.outside !== null) {
    const ends = result.points;
    const first = ends[0];
    const last = ends.at(-1);
    const at = (p: BalancePoint | undefined): string =>
      p === undefined
        ? ''
        : `${pct(p.rate)} (${pct(p.low)} to ${pct(p.high)}) at ${showValue(p.value)}`;
    lines.push(
      `No value in ${showValue(vary.low)}..${showValue(vary.high)} gives ${target.name} ${pct(target.rate)}: the target is ${result.outside} the win rate over the whole range, ${at(first)} and ${at(last)}.`,
    );
    lines.push('Widen the range, or vary another field.');
  }
  const holding = result.points.filter((p) => p.low <= target.rate && target.rate <= p.high);
  if (result.value !== null && holding.length > 1) {
    lines.push(
      `${holding.length} values tried are within sampling error of the target: ${holding.map((p) => showValue(p.value)).join(', ')}`,
    );
  }
  if (result.stop === 'on-target') {
    lines.push(
      `On target: measured to ±${pct(result.tolerance)} (--tolerance), its 95% interval holds ${pct(result.target.rate)}.`,
    );
  } else if (result.stop === 'separated') {
    lines.push(
      'The target lies between two neighbouring values, each clearly on its side of it: the nearer is chosen.',
    );
  } else if (result.stop === 'budget') {
    lines.push(
      `Stopped at the budget (${result.bounds.totalBattles.toLocaleString('en-US')} battles, ${result.bounds.points} points, ${result.bounds.battlesPerPoint.toLocaleString('en-US')} battles a point) before a value was measured on target: more battles (-n, --budget) or a wider --tolerance would settle it.`,
    );
  } else if (result.stop === 'interrupted') {
    lines.push('Interrupted: a partial result.');
  }
  lines.push('');
  const label = name.length > 24 ? 'value' : name;
  const valueWidth = Math.max(label.length, ...result.points.map((p) => showValue(p.value).length));
  const head = `  ${label.padStart(valueWidth)}  ${'battles'.padStart(7)}  ${'rate'.padStart(6)}  ${'95% interval'.padEnd(14)}    `;
  const axis = ' '.repeat(WIDTH + 1).split('');
  const mark = column(target.rate);
  axis[mark] = '▼';
  lines.push(`${head}${axis.join('')}`);
  for (const p of result.points) {
    const chosen = p.value === result.value;
    const interval = `${pct(p.low)}-${pct(p.high)}`;
    lines.push(
      `${chosen ? '▶' : ' '} ${showValue(p.value).padStart(valueWidth)}  ${p.battles.toLocaleString('en-US').padStart(7)}  ${pct(p.rate).padStart(6)}  ${interval.padEnd(14)}  0%${bar(p, target.rate)}100%${chosen ? '  ◀ chosen' : ''}`,
    );
  }
  return lines;
}
