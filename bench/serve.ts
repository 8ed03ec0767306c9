/**
 * `npm run bench:serve`: the table server under the load of many tables, on SQLite and on
 * PostgreSQL. For each store: a `moogle serve` process, and a separate load-generator process
 * (bench/serve-load.ts) holding six WebSockets per table, each table's GM submitting about every
 * 2 s. Reports p50/p99 of submit-to-acknowledge and submit-to-every-other-client, errors, the
 * server's memory per table, and the most tables held with p99 under 50 ms, stepping up the
 * number of tables. The issue's target: p99 under 20 ms at 200 tables on both.
 *
 *   npm run bench:serve [-- --seconds 20 --steps 50,100,200,400,800 --stores sqlite,postgres]
 *   MOOGLE_BENCH_PG_URL=postgres://... to name the PostgreSQL (else the tests' way of finding one)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTable, recruit, startEncounter } from '../src/server/tables.js';
import { openStore, type Store } from '../src/store/index.js';
import { findOrStartPostgres, freshDatabase } from '../test/store/postgres-server.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback;
};
const SECONDS = Number(option('seconds', '20'));
const STEPS = option('steps', '50,100,200,400,800').split(',').map(Number);
const STORES = option('stores', 'sqlite,postgres').split(',') as ('sqlite' | 'postgres')[];
const INTERVAL_MS = 2000;
const OTHERS = 5;

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  // MOOGLE_BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server alone.
  const flags = process.env.MOOGLE_BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...flags, join(ROOT, 'bin/moogle.js'), 'serve', '--port', '0', '--db', db, '--no-log'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /serving on (http:\/\/\S+)/.exec(err);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

async function prepareTables(store: Store, count: number) {
  const file = readFileSync(join(ROOT, 'examples/ffrpg-wind-cave.yaml'), 'utf8');
  const tables: { encounter: string; tokens: string[] }[] = [];
  for (let i = 0; i < count; i++) {
    const created = await createTable(store, 'ffrpg', `Bench ${i}`);
    if (!created.ok) throw new Error(created.error.message);
    const table = created.value.table;
    for (const c of ['hiro', 'haze', 'mint']) await recruit(store, table, c);
    const encounter = await startEncounter(store, table, { file, seed: `bench-${i}` });
    if (!encounter.ok) throw new Error(encounter.error.message);
    const tokens = [created.value.gm.token];
    for (const c of ['hiro', 'haze', 'mint']) {
      const t = await store.createToken(table.id, { role: 'player', characterId: c });
      if (t.ok) tokens.push(t.value.token);
    }
    while (tokens.length < 1 + OTHERS) {
      const t = await store.createToken(table.id, { role: 'spectator' });
      if (t.ok) tokens.push(t.value.token);
    }
    tables.push({ encounter: encounter.value.id, tokens });
  }
  return tables;
}

interface StepResult {
  tables: number;
  ackP50: number;
  ackP99: number;
  fanP50: number;
  fanP99: number;
  errors: number;
  submitted: number;
  rssPerTableKb: number;
}

async function step(store: Store, db: string, tables: number, dir: string): Promise<StepResult> {
  const plan = await prepareTables(store, tables);
  const server = await serve(db);
  try {
    const idle = rssKb(server.child.pid!);
    const planFile = join(dir, `plan-${tables}.json`);
    writeFileSync(
      planFile,
      JSON.stringify({
        url: server.url,
        durationMs: SECONDS * 1000,
        intervalMs: INTERVAL_MS,
        tables: plan,
      }),
    );
    const load = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench/serve-load.ts'), planFile],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    load.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    let loaded = idle;
    const sampler = setInterval(() => {
      loaded = Math.max(loaded, rssKb(server.child.pid!));
    }, 500);
    const code = await new Promise<number | null>((resolve) => load.once('exit', resolve));
    clearInterval(sampler);
    if (code !== 0) throw new Error(`load generator exited ${code}`);
    const result = JSON.parse(out) as {
      ack: number[];
      fanout: number[];
      errors: number;
      submitted: number;
    };
    return {
      tables,
      ackP50: percentile(result.ack, 50),
      ackP99: percentile(result.ack, 99),
      fanP50: percentile(result.fanout, 50),
      fanP99: percentile(result.fanout, 99),
      errors: result.errors,
      submitted: result.submitted,
      rssPerTableKb: (loaded - idle) / tables,
    };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
  }
}

async function runStore(kind: 'sqlite' | 'postgres'): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const tables of STEPS) {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-bench-serve-'));
    let db = join(dir, 'moogle.db');
    let drop = async (): Promise<void> => {};
    if (kind === 'postgres') {
      const admin =
        process.env.MOOGLE_BENCH_PG_URL ?? (await findOrStartPostgres(() => {})).adminUrl;
      const fresh = await freshDatabase(admin);
      db = fresh.url;
      drop = fresh.drop;
    }
    const store = await openStore(db);
    if (!store.ok) throw new Error(store.error.message);
    try {
      const r = await step(store.value, db, tables, dir);
      results.push(r);
      const f = (n: number) => n.toFixed(1).padStart(6);
      console.log(
        `${kind.padEnd(8)} ${String(tables).padStart(5)} tables: ack p50 ${f(r.ackP50)} p99 ${f(r.ackP99)} ms · others p50 ${f(r.fanP50)} p99 ${f(r.fanP99)} ms · ${r.submitted} submits, ${r.errors} errors · ${r.rssPerTableKb.toFixed(0)} KB/table`,
      );
      if (r.fanP99 >= 50 && r.ackP99 >= 50) break;
    } finally {
      await store.value.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

async function main(): Promise<void> {
  console.log(
    `bench:serve: ${OTHERS + 1} WebSocket clients per table, a submit every ~${INTERVAL_MS / 1000} s per table, ${SECONDS} s per step, loopback`,
  );
  for (const kind of STORES) {
    const results = await runStore(kind);
    const held = results.filter((r) => Math.max(r.ackP99, r.fanP99) < 50).map((r) => r.tables);
    const at200 = results.find((r) => r.tables === 200);
    console.log(
      `${kind}: most tables held with p99 under 50 ms: ${held.length ? Math.max(...held) : 'none of the steps'}` +
        (at200
          ? ` · at 200 tables p99 ${Math.max(at200.ackP99, at200.fanP99).toFixed(1)} ms (target 20)`
          : ''),
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
