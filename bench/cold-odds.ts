/**
 * Exact odds cold, against icepool 2.2.2 (issue 15): for each expression a fresh `node`
 * process times Moogle's first call and a fresh `python3` process times icepool's first call,
 * imports not counted on either side, alternating so load from other work on this shared
 * machine falls on both alike. Reports medians and icepool / Moogle; never asserts.
 *
 * icepool is unpacked from ../shared/peers at bench time into a temporary folder and deleted
 * afterwards: the peer is never copied into the project. Without ../shared/peers this part says
 * so and is skipped. BENCH_BEFORE=<folder holding src/dice/index.ts of an earlier checkout>
 * adds that checkout's first call as a column, for before/after numbers from one run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PEER = resolve(ROOT, '../shared/peers/icepool-2.2.2-src.tgz');
const REPS = Number(process.env.BENCH_COLD_REPS ?? 5);

/** Moogle's notation and icepool's equivalent, as its README gives them. */
const PAIRS: readonly [string, string][] = [
  ['4d6kh3', 'd6.highest(4,3)'],
  ['10d10kh3', 'd10.highest(10,3)'],
  ['20d6kh10', 'd6.highest(20,10)'],
  ['3d20kh1', 'd20.highest(3,1)'],
  ['8d6', '8@d6'],
  ['100d10', '100@d10'],
  ['5d100', '5@d100'],
];

const PYTHON = `
import sys, time, json, icepool
from icepool import d6, d10, d20, d100
expr = sys.argv[1]
t = time.perf_counter()
try:
    m = eval(expr).mean()
    print(json.dumps({"ms": (time.perf_counter() - t) * 1000, "mean": float(m)}))
except RecursionError:
    print(json.dumps({"error": "RecursionError"}))
`;

interface FirstCall {
  readonly ms?: number;
  readonly mean?: number;
  readonly path?: string;
  readonly error?: string;
}

function run(command: string, args: string[], env?: NodeJS.ProcessEnv): FirstCall {
  const child = spawnSync(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as FirstCall;
  } catch {
    const reason = child.stderr
      .trim()
      .split('\n')
      .find((l) => /Error/.test(l));
    return { error: (reason ?? `exit ${child.status}`).slice(0, 60) };
  }
}

function moogle(expression: string, module?: string, maxWork?: number): FirstCall {
  const args = ['--import', 'tsx', 'bench/odds-first-call.ts', expression];
  if (module !== undefined) args.push(module);
  return run(
    process.execPath,
    args,
    maxWork === undefined ? undefined : { ODDS_MAX_WORK: String(maxWork) },
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function ms(value: number | undefined): string {
  if (value === undefined) return '-';
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`;
}

/** Median time of REPS runs, or the first error. */
function summary(calls: FirstCall[]): { ms?: number; error?: string } {
  const times = calls.flatMap((c) => (c.ms === undefined ? [] : [c.ms]));
  if (times.length === 0) return { error: calls[0]?.error ?? 'no result' };
  return { ms: median(times) };
}

function table(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function coldOdds(): void {
  const before = process.env.BENCH_BEFORE;
  const beforeModule = before === undefined ? undefined : resolve(before, 'src/dice/index.ts');
  if (beforeModule !== undefined && !existsSync(beforeModule)) {
    console.log(`\nBENCH_BEFORE: ${beforeModule} not found; no before column.`);
  }
  const withBefore = beforeModule !== undefined && existsSync(beforeModule);
  const hasPeer = existsSync(PEER);
  console.log(
    `\nExact odds cold (fresh process each, first call timed, imports not counted; median of ${REPS}):`,
  );
  let peerDir: string | undefined;
  if (!hasPeer) {
    console.log(`  ${PEER} is absent: the icepool comparison is skipped.`);
  } else {
    peerDir = mkdtempSync(join(tmpdir(), 'moogle-icepool-'));
    const untar = spawnSync('tar', ['xzf', PEER, '-C', peerDir]);
    if (untar.status !== 0) {
      console.log('  could not unpack icepool: the comparison is skipped.');
      rmSync(peerDir, { recursive: true, force: true });
      peerDir = undefined;
    }
  }
  const icepool = (expression: string): FirstCall =>
    run('python3', ['-c', PYTHON, expression], { PYTHONPATH: join(peerDir!, 'src') });
  try {
    const rows: string[][] = [];
    const cases: [string, string | undefined][] = [...PAIRS, ['1000d10', '1000@d10']];
    for (const [expression, peerExpression] of cases) {
      const ours: FirstCall[] = [];
      const theirs: FirstCall[] = [];
      const old: FirstCall[] = [];
      // 1000d10: the old code needs a raised budget; icepool fails on it (recursion), once.
      const big = expression === '1000d10';
      for (let rep = 0; rep < REPS; rep++) {
        ours.push(moogle(expression));
        if (peerDir !== undefined && peerExpression !== undefined && (!big || rep === 0)) {
          theirs.push(icepool(peerExpression));
        }
        if (withBefore && (!big || rep < 3)) {
          old.push(moogle(expression, beforeModule, big ? 1_000_000_000 : undefined));
        }
      }
      const o = summary(ours);
      const t = summary(theirs);
      const b = summary(old);
      const ratio = o.ms !== undefined && t.ms !== undefined ? t.ms / o.ms : undefined;
      const target = big
        ? o.ms !== undefined && o.ms < 250
          ? '< 250 ms met'
          : '< 250 ms MISSED'
        : ratio === undefined
          ? '-'
          : ratio >= 1
            ? '>= 1 met'
            : '>= 1 MISSED';
      const row = [
        expression,
        ours[0]?.path ?? '-',
        o.error ?? ms(o.ms),
        peerDir === undefined ? 'skipped' : (t.error ?? ms(t.ms)),
        ratio === undefined ? '-' : `${ratio.toFixed(2)}x`,
        target,
      ];
      if (withBefore) {
        row.push(b.error ?? ms(b.ms));
        row.push(b.ms !== undefined && o.ms !== undefined ? `${(b.ms / o.ms).toFixed(1)}x` : '-');
      }
      rows.push(row);
    }
    const header = ['expression', 'path', 'moogle', 'icepool', 'icepool/moogle', 'target'];
    if (withBefore) header.push('before', 'before/now');
    table(header, rows);
  } finally {
    if (peerDir !== undefined) rmSync(peerDir, { recursive: true, force: true });
  }
}
