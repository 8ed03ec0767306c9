/**
 * Append latency and throughput, one writer and several: not a test (timings depend on the
 * machine), run by hand: node --import tsx test/store/measure-append.ts [entries]
 * Uses the same PostgreSQL the tests find, in a database of its own, dropped afterwards.
 */
import { performance } from 'node:perf_hooks';
import type { LogEntry } from '../../src/engine/index.js';
import { type OpenStoreOptions, openStore, type Store } from '../../src/store/index.js';
import { freshLocation } from './fixtures.js';
import { findOrStartPostgres, freshDatabase } from './postgres-server.js';

const ENTRIES = Number(process.argv[2] ?? 2000);
const DICE = { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] } as const;
// About the size of a real command entry (a command, a handful of events, dice states).
const PADDING = 'x'.repeat(1500);

async function encounter(store: Store): Promise<string> {
  const table = await store.createTable({ systemId: 'ffrpg', name: 'bench' });
  if (!table.ok) throw new Error(table.error.message);
  const created = await store.createEncounter({
    tableId: table.value.id,
    name: 'bench',
    ruleset: 'ffrpg',
    setup: {},
    initialDice: DICE,
  });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

function entry(seq: number): LogEntry {
  return { seq, type: 'undo', steps: 1, padding: PADDING } as LogEntry;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(label: string, location: string, options: OpenStoreOptions = {}) {
  const opened = await openStore(location, options);
  if (!opened.ok) throw new Error(opened.error.message);
  const store = opened.value;
  const id = await encounter(store);
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let seq = 1; seq <= ENTRIES; seq++) {
    const t0 = performance.now();
    const result = await store.appendEntry(id, seq, `k${seq}`, entry(seq));
    latencies.push(performance.now() - t0);
    if (!result.ok) throw new Error(JSON.stringify(result));
  }
  const seconds = (performance.now() - started) / 1000;
  // This process's CPU (user and system, the kernel's share of a sync included) per append:
  // what the table server spends on its store for each submit, at the least.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPerAppend = (cpu.user + cpu.system) / 1000 / ENTRIES;
  latencies.sort((a, b) => a - b);
  // Several writers, one encounter each, as many tables submitting at once would be.
  const writers = 8;
  const ids = await Promise.all(Array.from({ length: writers }, () => encounter(store)));
  const perWriter = Math.floor(ENTRIES / writers);
  const parallelStart = performance.now();
  await Promise.all(
    ids.map(async (encounterId) => {
      for (let seq = 1; seq <= perWriter; seq++) {
        const result = await store.appendEntry(encounterId, seq, `k${seq}`, entry(seq));
        if (!result.ok) throw new Error(JSON.stringify(result));
      }
    }),
  );
  const parallelSeconds = (performance.now() - parallelStart) / 1000;
  await store.close();
  console.log(
    `${label.padEnd(26)} one writer: p50 ${percentile(latencies, 50).toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms, ${(ENTRIES / seconds).toFixed(0)} appends/s, ${cpuPerAppend.toFixed(3)} ms CPU each; ${writers} writers: ${((perWriter * writers) / parallelSeconds).toFixed(0)} appends/s`,
  );
}

const postgres = await findOrStartPostgres((line) => console.log(line));
try {
  for (const synchronous of ['full', 'normal'] as const) {
    const sqlite = await freshLocation('sqlite');
    await measure(`SQLite WAL sync=${synchronous}`, sqlite.location, {
      sqliteSynchronous: synchronous,
    });
    await sqlite.dispose();
  }
  const database = await freshDatabase(postgres.adminUrl);
  await measure('PostgreSQL (loopback)', database.url);
  await database.drop();
} finally {
  await postgres.stop();
}
