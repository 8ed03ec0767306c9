import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeenEntry, StatePayload } from '../../src/server/protocol.js';
import type { Store } from '../../src/store/index.js';
import { freshLocation, type Location, open, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  ROOT,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

type Entry = Extract<Heard, { type: 'entry' }>;
type Refused = Extract<Heard, { type: 'refused' }>;

const RACES = 25;

/** The entries a client was pushed, one by one or several at once, in the order it got them. */
function entriesOf(client: Client): SeenEntry[] {
  return client.messages.flatMap((m) =>
    m.type === 'entry' ? [m.entry] : m.type === 'entries' ? m.entries : [],
  );
}

function lastEntry(client: Client, seq: number): Promise<Entry> {
  return client.until((m): m is Entry => m.type === 'entry' && m.seq === seq);
}

/**
 * Every process pushes every entry to each of its clients, in order, whoever appended it: two
 * `moogle serve` processes on one PostgreSQL, a GM on each, racing for the same entry number
 * round after round. The loser's clients must see the winner's entry (before the loser hears
 * `submit/stale`), so a retry from the state they hold is accepted.
 */
describe('two processes racing for entry numbers', () => {
  let location: Location;
  let store: Store;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    location = await freshLocation('postgres');
    store = await open(location.location);
    [a, b] = await Promise.all([spawnServe(location.location), spawnServe(location.location)]);
    // Two processes starting on a shared two-core machine can take longer than the default.
  }, 60_000);

  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGTERM');
    await store?.close();
    await location?.dispose();
    await stopFallbackPostgres();
  });

  it(`pushes the winner's entry to the loser's clients, ${RACES} races of ${RACES}`, async () => {
    const { gmToken } = await newTable(store, 'ffrpg');
    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'), 'delivery');
    const near = await Client.join(a.url, id, gmToken);
    const far = await Client.join(b.url, id, gmToken);
    const clients = [near.client, far.client];
    // Each client's own view of the present: what it would decide from.
    const held: StatePayload[] = [near.state, far.state];
    let raced = 0;
    let lostAtAppend = 0;
    for (let round = 0; round < RACES; round++) {
      const expectSeq = held[0]!.seq + 1;
      expect(held[1]!.seq + 1).toBe(expectSeq);
      const answers = await Promise.all(
        clients.map((client, i) =>
          client.submit(expectSeq, `r${round}-${i}`, {
            kind: 'command',
            command: held[i]!.actions[0]!.command,
          }),
        ),
      );
      const winner = answers.findIndex((answer) => answer.type === 'accepted');
      expect(winner).toBeGreaterThanOrEqual(0);
      const loser = 1 - winner;
      const lost = answers[loser] as Refused;
      expect(lost).toMatchObject({ type: 'refused', code: 'submit/stale', current: expectSeq });
      raced++;
      // Before the refusal, the loser's client already has the winning entry.
      const loserMessages = clients[loser]!.messages;
      const refusedAt = loserMessages.indexOf(lost);
      const entryAt = loserMessages.findIndex((m) => m.type === 'entry' && m.seq === expectSeq);
      expect(entryAt).toBeGreaterThanOrEqual(0);
      expect(entryAt).toBeLessThan(refusedAt);
      if (lost.message.includes('took that entry number first')) lostAtAppend++;
      for (const i of [0, 1]) held[i] = await lastEntry(clients[i]!, expectSeq);

      // The loser decides again from what it now holds: taking the command back.
      const retry = await clients[loser]!.submit(held[loser]!.seq + 1, `r${round}-retry`, {
        kind: 'undo',
        steps: 1,
      });
      expect(retry).toMatchObject({ type: 'accepted', seq: expectSeq + 1 });
      for (const i of [0, 1]) held[i] = await lastEntry(clients[i]!, expectSeq + 1);
    }
    const last = RACES * 2;
    for (const client of clients) {
      const seqs = entriesOf(client).map((e) => e.seq);
      // Consecutive from 1: no gap, no entry twice.
      expect(seqs).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    }
    const [x, y] = held as [Entry, Entry];
    expect(x.seq).toBe(last);
    expect(y.view).toEqual(x.view);
    expect(y.actions).toEqual(x.actions);
    expect([y.undoable, y.redoable]).toEqual([x.undoable, x.redoable]);
    const stored = await store.entriesSince(id, 0);
    expect(stored.map((row) => row.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    // Every entry each client was shown is the one the store holds.
    for (const client of clients) {
      expect(entriesOf(client).map((e) => e.kind)).toEqual(stored.map((row) => row.entry.type));
    }
    // Most rounds are real races, lost at the database rather than before it.
    expect(raced).toBe(RACES);
    expect(lostAtAppend).toBeGreaterThan(RACES / 2);
    for (const client of clients) client.close();
  });

  it('after losing its listening connection, pushes what it missed: entries and a reveal', async () => {
    const { gmToken } = await newTable(store, 'ffrpg');
    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'), 'resync');
    const near = await Client.join(a.url, id, gmToken);
    const far = await Client.join(b.url, id, gmToken);
    const clients = [near.client, far.client];
    const command = near.state.actions[0]!.command;
    expect(await clients[0]!.submit(1, 'first', { kind: 'command', command })).toMatchObject({
      type: 'accepted',
    });
    for (const client of clients) await lastEntry(client, 1);
    const combatant = near.state.view.combatants[0]!.id;
    // Both processes lose their listening connection (a database restart, a failover); while
    // they are away (at least 100 ms before they reconnect), the log and the record change.
    const admin = new pg.Client({ connectionString: location.location });
    await admin.connect();
    try {
      const listening = `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`;
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM (${listening}) l`);
      expect(killed.rowCount).toBe(2);
      while (((await admin.query(listening)).rowCount ?? 0) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      for (const [seq, type] of [
        [2, 'undo'],
        [3, 'redo'],
      ] as const) {
        const done = await store.appendEntry(id, seq, `away-${seq}`, { seq, type, steps: 1 });
        expect(done.ok).toBe(true);
      }
      expect((await store.setRevealed(id, [combatant])).ok).toBe(true);
    } finally {
      await admin.end();
    }
    for (const client of clients) {
      const shown = await client.until(
        (m): m is Extract<Heard, { type: 'changed' }> =>
          m.type === 'changed' && m.revealed.includes(combatant),
      );
      expect(shown.seq).toBe(3);
      expect(entriesOf(client).map((e) => [e.seq, e.kind])).toEqual([
        [1, 'command'],
        [2, 'undo'],
        [3, 'redo'],
      ]);
    }
    for (const client of clients) client.close();
  });
});

/**
 * Another process appends to a SQLite file the server has open (the CLI, a second server by
 * mistake): the server hears nothing of it until a submit loses at the database. Its clients
 * then get every entry they missed, in order, before the refusal, and the last of them with the
 * state after it.
 */
describe('entries appended where this process did not hear them', () => {
  it('pushes all of them, in order, when a submit finds them', async () => {
    const server = await startServer('sqlite');
    try {
      const { gmToken } = await newTable(server.store, 'ffrpg');
      const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'));
      const { client, state } = await Client.join(server.url, id, gmToken);
      const command = state.actions[0]!.command;
      expect(await client.submit(1, 'first', { kind: 'command', command })).toMatchObject({
        type: 'accepted',
        seq: 1,
      });
      // Three entries from another process, which this process's feed does not carry.
      const script = `
        import { openStore } from ${JSON.stringify(`${ROOT}dist/store/index.js`)};
        const store = (await openStore(process.argv[1])).value;
        for (const [seq, type] of [[2, 'undo'], [3, 'redo'], [4, 'undo']]) {
          const done = await store.appendEntry(process.argv[2], seq, 'elsewhere-' + seq, { seq, type, steps: 1 });
          if (!done.ok) throw new Error(JSON.stringify(done));
        }
        await store.close();`;
      execFileSync(
        process.execPath,
        ['--input-type=module', '-e', script, server.location.location, id],
        {
          stdio: 'inherit',
        },
      );
      const next = (await lastEntry(client, 1)).actions[0]!.command;
      const lost = await client.submit(2, 'late', { kind: 'command', command: next });
      expect(lost).toMatchObject({ type: 'refused', code: 'submit/stale', current: 4 });
      const refusedAt = client.messages.indexOf(lost);
      expect(entriesOf(client).map((e) => [e.seq, e.kind])).toEqual([
        [1, 'command'],
        [2, 'undo'],
        [3, 'redo'],
        [4, 'undo'],
      ]);
      const last = client.messages.map((m) => m.type).lastIndexOf('entry');
      expect(last).toBeLessThan(refusedAt);
      const pushed = client.messages[last] as Entry;
      expect(pushed).toMatchObject({ seq: 4, entry: { seq: 4 }, undoable: 0, redoable: 1 });
      // What was pushed is what a fresh connection is told.
      const { state: fresh } = await Client.join(server.url, id, gmToken);
      expect(pushed.view).toEqual(fresh.view);
      expect(pushed.actions).toEqual(fresh.actions);
      const retry = await client.submit(5, 'retry', { kind: 'redo', steps: 1 });
      expect(retry).toMatchObject({ type: 'accepted', seq: 5 });
      client.close();
    } finally {
      await server.stop();
    }
  });
});
