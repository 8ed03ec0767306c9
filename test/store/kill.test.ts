import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledChild, freshLocation, KINDS, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [9, 9, 9, 9] } as const;

/**
 * When to kill the writer: after so many accepted entries (1: at once; then deeper into a run
 * of commits) or after so many milliseconds of appending, whatever it was doing then.
 */
const MOMENTS = [
  { afterAccepted: 1 },
  { afterMs: 0 },
  { afterAccepted: 150 },
  { afterMs: 250 },
] as const;

interface Round {
  readonly accepted: readonly number[];
  readonly signal: NodeJS.Signals | null;
}

/** Starts the writer at `firstSeq`, kills it with SIGKILL at `moment`, returns what it printed. */
async function killedWriter(
  location: string,
  encounterId: string,
  firstSeq: number,
  moment: (typeof MOMENTS)[number],
): Promise<Round> {
  const script = await bundledChild('append-child');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, location, encounterId, String(firstSeq)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const accepted: number[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const kill = () => child.kill('SIGKILL');
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') {
        if ('afterMs' in moment) setTimeout(kill, moment.afterMs);
        return;
      }
      const match = /^accepted (\d+)$/.exec(line);
      if (match === null) return;
      accepted.push(Number(match[1]));
      if ('afterAccepted' in moment && accepted.length === moment.afterAccepted) kill();
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`the writer stopped by itself: ${stderr}`));
      else resolve({ accepted, signal });
    });
  });
}

// Both kinds at once: most of the time is each writer's start, not the database.
describe.concurrent.each(KINDS)('SIGKILL of a writer on %s', (kind) => {
  it('loses no accepted entry, never writes one twice, and the database opens cleanly', async () => {
    const location = await freshLocation(kind);
    try {
      const setup = await open(location.location);
      const table = await setup.createTable({ systemId: 'ffrpg', name: 'kill' });
      if (!table.ok) throw new Error(table.error.message);
      const encounter = await setup.createEncounter({
        tableId: table.value.id,
        name: 'kill',
        ruleset: 'ffrpg',
        setup: {},
        initialDice: DICE,
      });
      if (!encounter.ok) throw new Error(encounter.error.message);
      await setup.close();
      const id = encounter.value.id;

      const everAccepted: number[] = [];
      let next = 1;
      for (const moment of MOMENTS) {
        const round = await killedWriter(location.location, id, next, moment);
        everAccepted.push(...round.accepted);
        if (kind === 'sqlite') {
          // The file as the killed process left it (WAL not yet checkpointed) is consistent.
          const file = new Database(location.location);
          expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
          file.close();
        }
        // Restarted, as a server would be: it opens (running migrations) and finds every row.
        const store = await open(location.location);
        const rows = await store.entriesSince(id, 0);
        await store.close();
        const seqs = rows.map((row) => row.seq);
        // Numbered 1..n without a hole or a repeat, each with the key it was sent with.
        expect(seqs).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
        expect(rows.every((row) => row.idempotencyKey === `key-${row.seq}`)).toBe(true);
        expect(rows.every((row) => row.entry.seq === row.seq)).toBe(true);
        // Every entry the writer was told was accepted is there. One more may be there too:
        // committed, but killed before it could say so.
        const present = new Set(seqs);
        expect(everAccepted.filter((seq) => !present.has(seq))).toEqual([]);
        expect(rows.length - everAccepted.length).toBeGreaterThanOrEqual(0);
        expect(rows.length - everAccepted.length).toBeLessThanOrEqual(MOMENTS.length);
        next = rows.length + 1;
      }
      // The kills landed while it was appending, not only before it started.
      expect(everAccepted.length).toBeGreaterThan(150);
    } finally {
      await location.dispose();
    }
  });
});
