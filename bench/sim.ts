/**
 * Simulator benchmark, in the unit of issue 15: what a battle costs in raw draws of the
 * project's xoshiro128** generator, (raw `next32()` draws per second) / (battles per second),
 * both measured in the same run, so the figure holds when the shared machine's speed drifts.
 * Reports, never asserts.
 *
 *   npm run bench:sim                    # builds, then every example encounter, both policies
 *   BENCH_SECONDS=1 npm run bench:sim    # shorter measurements (default 3 s of battles each)
 *   BENCH_LONG=100000 npm run bench:sim  # fewer battles in the memory run (default 1,000,000)
 *   BENCH_ONLY=shining-force npm run bench:sim   # one system (a ruleset id)
 *   BENCH_TWO=0 BENCH_LONG=0 npm run bench:sim   # one worker only
 *
 * Targets (issue 15): every example encounter at most 25,000 raw draws a battle on one worker;
 * two workers at least 1.8x one; 1,000,000 battles under 300 MB peak RSS.
 *
 * Method. Raw draws: a tight loop of `next32()` on one generator (10M draws a slice). Battles:
 * `simulate` on one worker (this thread), warmed up, then twelve short slices alternating with
 * the raw loop, each rate its best slice, both by this process's CPU time: load from other
 * processes only ever adds time, and both rates of the ratio come from the same minutes. Two workers: twice the battles on two,
 * alternating with one, over the whole run (start-up included) and in its steady middle. The
 * machine's own ceiling: the same pure CPU loop (raw draws) in one process, then in two
 * processes at once, and the same in one and two worker threads, so a ratio below 1.8x can be
 * told apart from our runner's.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
// The built code, as `moogle sim` runs it: workers load plain JavaScript, no TypeScript loader.
import { SeededDice } from '../dist/dice/index.js';
import { readEncounterFile } from '../dist/encounters/file.js';
import { SYSTEMS } from '../dist/rulesets/index.js';
import { DEFAULT_POLICY } from '../dist/sim/policies.js';
import { simulate } from '../dist/sim/sim.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const LONG = Number(process.env.BENCH_LONG ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY;
/** BENCH_TWO=0 skips two workers and the machine's ceiling. */
const TWO = process.env.BENCH_TWO !== '0';
const TARGET = 25_000;
/** Slices of battles and of raw draws a measurement alternates. */
const SLICES = Number(process.env.BENCH_SLICES ?? 12);
const RAW_SLICE = 10_000_000;
const EXAMPLES = [
  'examples/ffrpg-wind-cave.yaml',
  'examples/ffviii-iron-giant.yaml',
  'examples/zodiac-keef-and-the-ogre.yaml',
  'examples/shining-force-gate.yaml',
];
/** The default first (the tactician since issue 15), then the policies the issue names. */
const POLICIES = [...new Set([DEFAULT_POLICY, 'focus-weakest', 'first'])];

let sink = 0;
/**
 * Milliseconds of this process's CPU time since `start`: on a shared machine a thread that is
 * waiting for a core uses none, so rates by CPU time drift much less than by the clock.
 */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Raw next32() draws a second of CPU time, over `draws` draws of one generator. */
function rawRound(draws: number): number {
  const dice = SeededDice.fromSeed('bench');
  const start = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < draws; i++) x ^= dice.next32();
  sink ^= x;
  return (draws / cpuMs(start)) * 1000;
}

/** Battles a second of CPU time on one worker (this thread: no other thread uses CPU then). */
async function battlesPerCpuSecond(e: Encounter, battles: number, policy: string): Promise<number> {
  const start = process.cpuUsage();
  const result = await simulate({
    system: e.system,
    setup: e.setup,
    battles,
    seed: 'bench',
    workers: 1,
    policy,
  }).result;
  if (result.battles !== battles) throw new Error('not every battle ran');
  return (battles / cpuMs(start)) * 1000;
}

function rawRate(rounds: number): number {
  let best = 0;
  for (let r = 0; r < rounds; r++) best = Math.max(best, rawRound(RAW_SLICE));
  return best;
}

interface Encounter {
  readonly name: string;
  readonly system: (typeof SYSTEMS)[number];
  readonly setup: unknown;
}

async function battlesPerSecond(
  e: Encounter,
  battles: number,
  workers: number,
  policy: string,
): Promise<number> {
  const start = performance.now();
  const result = await simulate({
    system: e.system,
    setup: e.setup,
    battles,
    seed: 'bench',
    workers,
    policy,
  }).result;
  if (result.battles !== battles) throw new Error('not every battle ran');
  return (battles / (performance.now() - start)) * 1000;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const pad = (s: string, n: number): string => s.padStart(n);

const encounters: Encounter[] = [];
for (const file of EXAMPLES) {
  const read = readEncounterFile(file, SYSTEMS);
  if (!read.ok) throw new Error(`${file} does not load`);
  const { system, setup } = read.encounter;
  if (ONLY !== undefined && system.ruleset.id !== ONLY) continue;
  encounters.push({ name: system.ruleset.id, system, setup });
}

console.log(
  `Node ${process.version}; about ${SECONDS} s of battles a measurement, in ${SLICES} slices\n`,
);
console.log(
  'One worker, in raw xoshiro128** next32() draws a battle, by CPU time (target <= 25,000):\n',
);
console.log(
  `${'system'.padEnd(14)} ${'policy'.padEnd(14)} ${pad('battles/s', 10)} ${pad('raw draws/s', 12)} ${pad('draws/battle', 13)}`,
);
rawRate(2); // warm up the raw loop's compiled code
const costs = new Map<string, number>();
for (const e of encounters) {
  for (const policy of POLICIES) {
    // Warm up, and size the slices. Raw draws and battles alternate in short slices and each
    // keeps its best: on a shared machine some slices get a whole core, and the two rates in a
    // ratio then come from the same conditions.
    const warm = await battlesPerSecond(e, 500, 1, policy);
    const battles = Math.max(100, Math.round((warm * SECONDS) / SLICES));
    let rate = 0;
    let raw = 0;
    for (let slice = 0; slice < SLICES; slice++) {
      raw = Math.max(raw, rawRound(RAW_SLICE));
      rate = Math.max(rate, await battlesPerCpuSecond(e, battles, policy));
    }
    const cost = raw / rate;
    costs.set(`${e.name} ${policy}`, rate);
    console.log(
      `${e.name.padEnd(14)} ${policy.padEnd(14)} ${pad(fmt(rate), 10)} ${pad(`${(raw / 1e6).toFixed(0)}M`, 12)} ${pad(fmt(cost), 13)}  ${cost <= TARGET ? 'met' : 'MISSED'}`,
    );
  }
}

/**
 * Battles a second on `workers` threads: over the whole run (what a user waits for, worker
 * start-up included), and in its steady middle (from a quarter to three quarters of the
 * battles done, every thread playing).
 */
async function scaling(
  e: Encounter,
  battles: number,
  workers: number,
  policy: string,
): Promise<{ whole: number; steady: number }> {
  const marks: [number, number][] = [];
  const start = performance.now();
  const result = await simulate({
    system: e.system,
    setup: e.setup,
    battles,
    seed: 'bench',
    workers,
    policy,
    onProgress: (done) => marks.push([performance.now(), done]),
  }).result;
  const end = performance.now();
  if (result.battles !== battles) throw new Error('not every battle ran');
  const from = marks.find(([, done]) => done >= battles / 4) ?? [start, 0];
  const to = marks.find(([, done]) => done >= (3 * battles) / 4) ?? [end, battles];
  return {
    whole: (battles / (end - start)) * 1000,
    steady: to[0] > from[0] ? ((to[1] - from[1]) / (to[0] - from[0])) * 1000 : 0,
  };
}

if (TWO)
  console.log(
    '\nTwo workers against one, alternating, best of three (target >= 1.8x); whole run and steady middle:\n',
  );
for (const e of TWO ? encounters : []) {
  const policy = POLICIES[0]!;
  const battles = Math.max(2000, Math.round((costs.get(`${e.name} ${policy}`) ?? 1000) * 2));
  let one = { whole: 0, steady: 0 };
  let two = { whole: 0, steady: 0 };
  for (let round = 0; round < 3; round++) {
    const a = await scaling(e, battles, 1, policy);
    const b = await scaling(e, battles * 2, 2, policy);
    one = { whole: Math.max(one.whole, a.whole), steady: Math.max(one.steady, a.steady) };
    two = { whole: Math.max(two.whole, b.whole), steady: Math.max(two.steady, b.steady) };
  }
  console.log(
    `${e.name.padEnd(14)} 1 worker ${pad(fmt(one.whole), 7)}/s   2 workers ${pad(fmt(two.whole), 7)}/s   ${(two.whole / one.whole).toFixed(2)}x  ${two.whole / one.whole >= 1.8 ? 'met' : 'MISSED'}   steady ${(two.steady / one.steady).toFixed(2)}x`,
  );
}

// The machine's own ceiling: the raw loop alone, then two at once, as processes and as threads.
const LOOP = `
  const { SeededDice } = await import(${JSON.stringify(new URL('../dist/dice/index.js', import.meta.url).href)});
  const dice = SeededDice.fromSeed('ceiling');
  let x = 0;
  for (let i = 0; i < 400_000_000; i++) x ^= dice.next32();
  if (x === 0.5) console.log(x);
`;
function inProcess(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', LOOP], {
      stdio: 'inherit',
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
  });
}
function inThread(): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(`(async () => {${LOOP}})()`, { eval: true });
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    worker.once('error', reject);
  });
}
async function speedup(run: () => Promise<void>): Promise<number> {
  let one = Number.POSITIVE_INFINITY;
  let two = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 2; round++) {
    let start = performance.now();
    await run();
    one = Math.min(one, performance.now() - start);
    start = performance.now();
    await Promise.all([run(), run()]);
    two = Math.min(two, performance.now() - start);
  }
  return (2 * one) / two;
}
if (TWO)
  console.log(
    `\nThe machine's ceiling, a pure CPU loop (raw draws), two at once against one:\n` +
      `  processes ${(await speedup(inProcess)).toFixed(2)}x   worker threads ${(await speedup(inThread)).toFixed(2)}x`,
  );

// Memory: the cheapest system (the most battles a second), on two workers.
if (LONG > 0) await memory();
if (sink === 0.5) console.log(sink);

async function memory(): Promise<void> {
  const cheapest = encounters
    .map((e) => ({ e, rate: costs.get(`${e.name} ${POLICIES[0]}`) ?? 0 }))
    .sort((a, b) => b.rate - a.rate)[0]!.e;
  let peak = process.memoryUsage().rss;
  const marks: string[] = [];
  let nextMark = 100_000;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  const long = simulate({
    system: cheapest.system,
    setup: cheapest.setup,
    battles: LONG,
    seed: 'bench-memory',
    workers: 2,
    policy: POLICIES[0]!,
    onProgress: (done) => {
      peak = Math.max(peak, process.memoryUsage().rss);
      if (done >= nextMark) {
        marks.push(`${fmt(nextMark / 1000)}k ${(peak / 2 ** 20).toFixed(0)} MB`);
        nextMark += 100_000;
      }
    },
  });
  await long.result;
  clearInterval(sampler);
  console.log(
    `\nMemory: ${fmt(LONG)} battles of ${cheapest.name} on two workers in ${((performance.now() - started) / 1000).toFixed(0)} s, ` +
      `peak RSS ${(peak / 2 ** 20).toFixed(0)} MB (target < 300 MB; workers are threads of this process)`,
  );
  console.log(`  peak RSS by battles done: ${marks.join(', ')}`);
}
