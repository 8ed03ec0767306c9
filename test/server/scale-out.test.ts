import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatePayload } from '../../src/server/protocol.js';
import type { Store } from '../../src/store/index.js';
import { freshLocation, type Location, open, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
} from './harness.js';

type Entry = Extract<Heard, { type: 'entry' }>;

/**
 * Two `moogle serve` processes on one PostgreSQL, as a table would scale out: no sticky
 * sessions, an entry accepted by one reaches clients of the other, and two submits racing for
 * one entry number through different processes cannot both win.
 */
describe('two server processes on one PostgreSQL', () => {
  let location: Location;
  let store: Store;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    location = await freshLocation('postgres');
    store = await open(location.location);
    [a, b] = await Promise.all([spawnServe(location.location), spawnServe(location.location)]);
    // Two `moogle serve` processes starting beside a busy suite took over the default 10 s.
  }, 60_000);

  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGTERM');
    await store?.close();
    await location?.dispose();
    await stopFallbackPostgres();
  });

  it('delivers what one accepts to the clients of the other, in order', async () => {
    const { gmToken } = await newTable(store, 'ffrpg');
    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'), 'scale');
    const { client: gm, state } = await Client.join(a.url, id, gmToken);
    const { client: far } = await Client.join(b.url, id, gmToken);
    let current: StatePayload = state;
    for (let i = 0; i < 5; i++) {
      const answer = await gm.submit(current.seq + 1, `a-${i}`, {
        kind: 'command',
        command: current.actions[0]!.command,
      });
      expect(answer.type).toBe('accepted');
      current = await gm.until((m): m is Entry => m.type === 'entry' && m.seq === current.seq + 1);
    }
    const received: Entry[] = [];
    for (let i = 0; i < 5; i++) received.push(await far.next('entry'));
    expect(received.map((m) => m.entry.seq)).toEqual([1, 2, 3, 4, 5]);
    const last = received[4]!;
    // The far process sees the same state: the same figures and the same offered actions.
    expect(last.view).toEqual(current.view);
    expect(last.actions).toEqual(current.actions);

    // The far process takes the next submit from where the near one left it.
    const next = await far.submit(6, 'b-6', { kind: 'command', command: last.actions[0]!.command });
    expect(next).toMatchObject({ type: 'accepted', seq: 6 });
    expect((await gm.until((m): m is Entry => m.type === 'entry' && m.seq === 6)).entry.seq).toBe(
      6,
    );
    gm.close();
    far.close();
  });

  it('lets only one of two racing submits take an entry number', async () => {
    const { gmToken } = await newTable(store, 'ffrpg');
    const id = await startEncounterOver(a.url, gmToken, example('ffrpg-wind-cave'), 'race');
    const { client: near, state } = await Client.join(a.url, id, gmToken);
    const { client: far } = await Client.join(b.url, id, gmToken);
    const first = await near.submit(1, 'first', {
      kind: 'command',
      command: state.actions[0]!.command,
    });
    expect(first.type).toBe('accepted');
    await far.until((m): m is Entry => m.type === 'entry' && m.seq === 1);
    for (let round = 0; round < 10; round++) {
      const expectSeq = (await store.lastSeq(id)) + 1;
      const [x, y] = await Promise.all([
        near.submit(expectSeq, `near-${round}`, { kind: 'undo', steps: 1 }),
        far.submit(expectSeq, `far-${round}`, { kind: 'undo', steps: 1 }),
      ]);
      const answers = [x, y];
      const won = answers.filter((r) => r.type === 'accepted');
      const lost = answers.filter((r) => r.type === 'refused');
      // Both asked for the same number: one wins, the other is told it is stale.
      expect(won.length).toBe(1);
      expect(lost[0]).toMatchObject({ code: 'submit/stale', current: expectSeq });
      const rows = await store.entriesSince(id, expectSeq - 1);
      expect(rows.length).toBe(1);
      {
        // Put the command back so the next round has one to undo.
        const redoSeq = expectSeq + 1;
        const redo = await near.submit(redoSeq, `redo-${round}`, { kind: 'redo', steps: 1 });
        if (redo.type === 'refused') {
          expect(redo.code).toBe('submit/stale');
          await near.submit(redo.current! + 1, `redo2-${round}`, { kind: 'redo', steps: 1 });
        }
      }
    }
    const all = await store.entriesSince(id, 0);
    expect(all.map((r) => r.seq)).toEqual(all.map((_, i) => i + 1));
    expect(new Set(all.map((r) => r.idempotencyKey)).size).toBe(all.length);
    near.close();
    far.close();
  });
});
