/**
 * Dice engine benchmark: Moogle against @dice-roller/rpg-dice-roller, in the same run, on the
 * same machine. Reports rates and ratios, never asserts; run with `npm run bench`.
 *
 * Targets (issue 2): explained roll() at least 5x rpg-dice-roller's parse-and-roll on every
 * expression; total-only path within 5x of the raw PRNG on 1d100; exact odds of 4d6kh3 under
 * 5 ms, 10d10kh3 and 100d10 under 50 ms. Issue 15: exact odds cold at least as fast as icepool
 * 2.2.2 on seven expressions and 1000d10 under 250 ms (bench/cold-odds.ts; BENCH_COLD=0 skips
 * it, BENCH_COLD_ONLY=1 runs only it, BENCH_BEFORE=<checkout> adds an earlier tree's times).
 */
import { DiceRoll } from '@dice-roller/rpg-dice-roller';
import { DiceExpression, parseDice, seededDice } from '../src/dice/index.js';
import { coldOdds } from './cold-odds.js';

const EXPRESSIONS = [
  '1d100',
  '2d10',
  '3d6+2',
  '4d6kh3',
  '1d6!',
  '10d10',
  '(1d8*10)+25',
  '5d100',
  'd%',
];
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 100);
const ROUNDS = 5;

/** Calls per second of `fn` over one round of ROUND_MS. */
function timeRound(fn: () => void): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 500; i++) fn();
    calls += 500;
    elapsed = performance.now() - start;
  } while (elapsed < ROUND_MS);
  return (calls / elapsed) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Median rates of several functions, timed in alternating rounds after a warm-up long enough
 * for the optimising compiler, so load from other processes on this shared machine falls on
 * all of them alike.
 */
function rates(...fns: (() => void)[]): number[] {
  for (const fn of fns) for (let i = 0; i < 50_000; i++) fn();
  const samples: number[][] = fns.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    fns.forEach((fn, i) => {
      samples[i]!.push(timeRound(fn));
    });
  }
  return samples.map(median);
}

function fmt(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)}M/s`;
  return `${(perSecond / 1e3).toFixed(0)}k/s`;
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

let sink = 0;
const dice = seededDice(12345);

if (process.env.BENCH_COLD_ONLY === '1') {
  coldOdds();
  process.exit(0);
}

console.log(`Node ${process.version}; median of ${ROUNDS} rounds of ${ROUND_MS} ms each\n`);

// 1. The simulation path against the raw generator, measured first and back to back.
const d100 = parseDice('1d100');
const [raw = 0, total = 0] = rates(
  () => {
    sink ^= dice.next32();
  },
  () => {
    sink ^= d100.total(dice);
  },
);
console.log('Total-only path (simulations) against the raw xoshiro128** generator:');
table(
  ['what', 'rate', 'raw / this', 'target'],
  [
    ['raw next32()', fmt(raw), '1.00', ''],
    [
      '1d100 total()',
      fmt(total),
      (raw / total).toFixed(2),
      `<= 5 ${raw / total <= 5 ? 'met' : 'MISSED'}`,
    ],
  ],
);

// 2. Explained rolls against rpg-dice-roller's parse-and-roll.
console.log(
  '\nExplained roll() (cached parse, full tree) against rpg-dice-roller new DiceRoll(expr):',
);
const rows: string[][] = [];
for (const expression of EXPRESSIONS) {
  const compiled = parseDice(expression);
  const [peer = 0, ours = 0, withText = 0, totals = 0] = rates(
    () => {
      sink ^= new DiceRoll(expression).total;
    },
    () => {
      sink ^= parseDice(expression).roll({ dice }).total;
    },
    () => {
      sink ^= parseDice(expression).roll({ dice }).text.length;
    },
    () => {
      sink ^= compiled.total(dice);
    },
  );
  rows.push([
    expression,
    fmt(peer),
    fmt(ours),
    `${(ours / peer).toFixed(1)}x`,
    fmt(withText),
    `${(withText / peer).toFixed(1)}x`,
    fmt(totals),
    ours / peer >= 5 ? 'met' : 'MISSED',
  ]);
}
table(
  ['expression', 'rpg-dice-roller', 'moogle roll', 'ratio', '+ text', 'ratio', 'total()', '>= 5x'],
  rows,
);

// 3. Exact odds, first call on a fresh parse (what a user waits for) and warm.
console.log('\nExact odds (distribution):');
const oddsRows: string[][] = [];
for (const [expression, targetMs] of [
  ['4d6kh3', 5],
  ['10d10kh3', 50],
  ['100d10', 50],
] as const) {
  const coldStart = performance.now();
  const result = new DiceExpression(expression).distribution();
  const cold = performance.now() - coldStart;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    new DiceExpression(expression).distribution();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const warm = times[2]!;
  oddsRows.push([
    expression,
    `${cold.toFixed(1)} ms`,
    `${warm.toFixed(1)} ms`,
    `< ${targetMs} ms ${warm < targetMs ? 'met' : 'MISSED'}`,
    result.mean.toFixed(4),
  ]);
}
table(['expression', 'first call', 'warm median', 'target', 'mean'], oddsRows);
if (sink === 0.5) console.log(sink); // keeps the work observable

// 4. Exact odds cold against icepool 2.2.2 (issue 15), one fresh process per call.
if (process.env.BENCH_COLD !== '0') coldOdds();
