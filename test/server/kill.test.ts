import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEncounter } from '../../src/engine/index.js';
import { RULESETS } from '../../src/rulesets/index.js';
import type { Store } from '../../src/store/index.js';
import { freshLocation, KINDS, open, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  type Heard,
  newTable,
  spawnServe,
  startEncounterOver,
} from './harness.js';

afterAll(stopFallbackPostgres);

type Entry = Extract<Heard, { type: 'entry' | 'state' }>;

/**
 * Several clients submitting as fast as they are answered, each taking back and putting back
 * the fight's first command (always legal, so every submit is a real entry), racing each other
 * for entry numbers. Returns every key the server said was accepted, and as which number.
 */
async function load(url: string, encounterId: string, token: string, clients: number) {
  const acked = new Map<string, number>();
  let stopped = false;
  const sockets: Client[] = [];
  const runs = Array.from({ length: clients }, async (_, n) => {
    let client: Client;
    try {
      client = (await Client.join(url, encounterId, token)).client;
    } catch {
      return;
    }
    sockets.push(client);
    let latest = client.messages.filter((m): m is Entry => m.type === 'state').at(-1)!;
    while (!stopped && client.closed === undefined) {
      for (const m of client.messages) {
        if ((m.type === 'entry' || m.type === 'state') && m.seq > latest.seq) latest = m;
      }
      const key = `${n}-${randomUUID()}`;
      const action =
        latest.redoable > 0
          ? ({ kind: 'redo', steps: 1 } as const)
          : ({ kind: 'undo', steps: 1 } as const);
      try {
        const answer = await client.submit(latest.seq + 1, key, action);
        if (answer.type === 'accepted') acked.set(key, answer.seq);
        else if (answer.current !== undefined && answer.current > latest.seq) {
          await client
            .until((m): m is Entry => m.type === 'entry' && m.seq >= answer.current!, 2000)
            .catch(() => undefined);
        }
      } catch {
        return; // the server went away mid-submit: that answer never came
      }
    }
  });
  return {
    acked,
    stop: async () => {
      stopped = true;
      for (const s of sockets) s.close();
      await Promise.all(runs);
    },
    done: Promise.all(runs),
  };
}

async function checkLog(store: Store, encounterId: string, acked: ReadonlyMap<string, number>) {
  const rows = await store.entriesSince(encounterId, 0);
  // Numbered 1, 2, 3... with no hole, each entry whole (the engine replays it below).
  expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
  const bySeq = new Map(rows.map((r) => [r.seq, r.idempotencyKey]));
  const byKey = new Map(rows.map((r) => [r.idempotencyKey, r.seq]));
  expect(byKey.size).toBe(rows.length);
  for (const [key, seq] of acked) {
    expect(bySeq.get(seq), `acknowledged ${key} as ${seq}`).toBe(key);
  }
  const loaded = await store.loadEncounter(encounterId);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const rebuilt = loadEncounter(loaded.value.saved, RULESETS);
  expect(rebuilt.ok).toBe(true);
  return rows.length;
}

describe.each(KINDS)('kill -9 of moogle serve on %s under load', (kind) => {
  it('loses no acknowledged entry and leaves no half entry, across kills and restarts', async () => {
    const location = await freshLocation(kind);
    const store = await open(location.location);
    try {
      const { gmToken } = await newTable(store, 'ffrpg');
      let server = await spawnServe(location.location);
      const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'), 'kill');
      const { client: first, state } = await Client.join(server.url, id, gmToken);
      const begin = await first.submit(1, 'begin', {
        kind: 'command',
        command: state.actions[0]!.command,
      });
      expect(begin.type).toBe('accepted');
      first.close();
      const acked = new Map<string, number>([['begin', 1]]);
      let entries = 1;
      for (const killAfterMs of [300, 900]) {
        const running = await load(server.url, id, gmToken, 4);
        // Killed mid-flow: once submits are being taken (on a busy machine the sockets took
        // longer than 700 ms to get going), then after a while more.
        const flowing = Date.now() + 30_000;
        while (running.acked.size < 3 && Date.now() < flowing) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, killAfterMs));
        server.child.kill('SIGKILL');
        await new Promise((resolve) => server.child.once('exit', resolve));
        await running.stop();
        for (const [k, v] of running.acked) acked.set(k, v);
        const count = await checkLog(store, id, acked);
        expect(count).toBeGreaterThan(entries);
        entries = count;
        server = await spawnServe(location.location);
        const { client, state: after } = await Client.join(server.url, id, gmToken);
        expect(after.seq).toBe(count);
        client.close();
      }
      expect(acked.size).toBeGreaterThan(10);
      console.log(`${kind}: ${acked.size} acknowledged entries survived two kill -9`);
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    } finally {
      await store.close();
      await location.dispose();
    }
  });
});
