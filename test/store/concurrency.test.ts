import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../../src/engine/index.js';
import type { EntryAppended, Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [5, 6, 7, 8] } as const;

function undoEntry(seq: number): LogEntry {
  return { seq, type: 'undo', steps: 1 };
}

/** Two stores on one database, as two server processes would have. */
describe.each(KINDS)('two stores on one %s database', (kind) => {
  let location: Location;
  let first: Store;
  let second: Store;

  beforeAll(async () => {
    location = await freshLocation(kind);
    first = await open(location.location);
    second = await open(location.location);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await location?.dispose();
  });

  async function newEncounter(): Promise<string> {
    const table = await first.createTable({ systemId: 'ffrpg', name: 'race' });
    if (!table.ok) throw new Error(table.error.message);
    const encounter = await first.createEncounter({
      tableId: table.value.id,
      name: 'race',
      ruleset: 'ffrpg',
      setup: {},
      initialDice: DICE,
    });
    if (!encounter.ok) throw new Error(encounter.error.message);
    return encounter.value.id;
  }

  it('lets exactly one of two appends expecting the same number win; the other is stale', async () => {
    const id = await newEncounter();
    for (let seq = 1; seq <= 25; seq++) {
      const results = await Promise.all([
        first.appendEntry(id, seq, `first-${seq}`, undoEntry(seq)),
        second.appendEntry(id, seq, `second-${seq}`, undoEntry(seq)),
      ]);
      const won = results.filter((r) => r.ok);
      const lost = results.filter((r) => !r.ok);
      expect(won).toEqual([{ ok: true, seq }]);
      expect(lost).toEqual([{ ok: false, code: 'stale', current: seq }]);
    }
    const rows = await second.entriesSince(id, 0);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('writes one row for the same idempotency key sent twice at once', async () => {
    const id = await newEncounter();
    for (let seq = 1; seq <= 10; seq++) {
      const results = await Promise.all([
        first.appendEntry(id, seq, `key-${seq}`, undoEntry(seq)),
        second.appendEntry(id, seq, `key-${seq}`, undoEntry(seq)),
      ]);
      const sorted = results.map((r) => JSON.stringify(r)).sort();
      expect(sorted).toEqual(
        [
          JSON.stringify({ ok: true, seq }),
          JSON.stringify({ ok: true, seq, duplicate: true }),
        ].sort(),
      );
    }
    expect((await first.entriesSince(id, 0)).map((r) => r.idempotencyKey)).toEqual(
      Array.from({ length: 10 }, (_, i) => `key-${i + 1}`),
    );
  });

  it("tells each store's subscribers of the other's appends, by encounter and for all", async () => {
    const id = await newEncounter();
    const other = await newEncounter();
    const heardByFirst: EntryAppended[] = [];
    const heardBySecondAll: EntryAppended[] = [];
    const stopFirst = await first.subscribe(id, { appended: (c) => heardByFirst.push(c) });
    const stopSecond = await second.subscribe('*', { appended: (c) => heardBySecondAll.push(c) });

    expect((await second.appendEntry(id, 1, 'a', undoEntry(1))).ok).toBe(true);
    expect((await first.appendEntry(id, 2, 'b', undoEntry(2))).ok).toBe(true);
    expect((await first.appendEntry(other, 1, 'c', undoEntry(1))).ok).toBe(true);
    // A stale or duplicate append changes nothing and tells no one.
    await second.appendEntry(id, 2, 'd', undoEntry(2));
    await second.appendEntry(id, 3, 'a', undoEntry(3));
    await until(() => heardByFirst.length >= 2 && heardBySecondAll.length >= 3);
    expect(heardByFirst).toEqual([
      { encounterId: id, seq: 1 },
      { encounterId: id, seq: 2 },
    ]);
    expect(heardBySecondAll).toEqual([
      { encounterId: id, seq: 1 },
      { encounterId: id, seq: 2 },
      { encounterId: other, seq: 1 },
    ]);

    stopFirst();
    expect((await second.appendEntry(id, 3, 'e', undoEntry(3))).ok).toBe(true);
    await until(() => heardBySecondAll.length >= 4);
    // Give a late notification time to show up if unsubscribing did not work.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heardByFirst).toHaveLength(2);
    stopSecond();
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for notifications');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
