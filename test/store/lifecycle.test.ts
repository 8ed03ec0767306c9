import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { EntryAppended } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { freshLocation, KINDS, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [1, 1, 1, 1] } as const;

describe.each(KINDS)('opening a %s store', (kind) => {
  it('runs the migrations once when two stores open a fresh database at the same moment', async () => {
    const location = await freshLocation(kind);
    try {
      const [a, b] = await Promise.all([
        openStore(location.location),
        openStore(location.location),
      ]);
      expect(a.ok && b.ok).toBe(true);
      if (a.ok) await a.value.close();
      if (b.ok) await b.value.close();
    } finally {
      await location.dispose();
    }
  });

  it('refuses, as an error value, a database migrated by a newer Moogle', async () => {
    const location = await freshLocation(kind);
    try {
      await (await open(location.location)).close();
      const future = { name: '9999-from-the-future', timestamp: new Date().toISOString() };
      if (kind === 'sqlite') {
        const file = new Database(location.location);
        file
          .prepare('INSERT INTO moogle_migration (name, timestamp) VALUES (?, ?)')
          .run(future.name, future.timestamp);
        file.close();
      } else {
        const client = new pg.Client({ connectionString: location.location });
        await client.connect();
        await client.query('INSERT INTO moogle_migration (name, timestamp) VALUES ($1, $2)', [
          future.name,
          future.timestamp,
        ]);
        await client.end();
      }
      expect(await openStore(location.location)).toMatchObject({
        ok: false,
        error: { code: 'store/newer-schema' },
      });
    } finally {
      await location.dispose();
    }
  });
});

describe('PostgreSQL notifications', () => {
  it('tells listeners to resync when the listening connection is lost, and hears again after', async () => {
    const location = await freshLocation('postgres');
    const store = await open(location.location);
    try {
      const table = await store.createTable({ systemId: 'ffrpg', name: 'n' });
      if (!table.ok) throw new Error(table.error.message);
      const encounter = await store.createEncounter({
        tableId: table.value.id,
        name: 'n',
        ruleset: 'ffrpg',
        setup: {},
        initialDice: DICE,
      });
      if (!encounter.ok) throw new Error(encounter.error.message);
      const id = encounter.value.id;
      const heard: EntryAppended[] = [];
      let resyncs = 0;
      await store.subscribe(id, { appended: (c) => heard.push(c), resync: () => resyncs++ });
      // The server ends the listening connection, as a restart or a failover would.
      const admin = new pg.Client({ connectionString: location.location });
      await admin.connect();
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      await admin.end();
      expect(killed.rowCount).toBe(1);
      await until(() => resyncs === 1);
      expect((await store.appendEntry(id, 1, 'k1', { seq: 1, type: 'undo', steps: 1 })).ok).toBe(
        true,
      );
      await until(() => heard.length === 1);
      expect(heard).toEqual([{ encounterId: id, seq: 1 }]);
    } finally {
      await store.close();
      await location.dispose();
    }
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
