import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { freshLocation, type Location, open, stopFallbackPostgres } from '../store/fixtures.js';
import {
  BIN,
  Client,
  example,
  type Heard,
  http,
  newTable,
  type Running,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

const run = promisify(execFile);

type Refused = Extract<Heard, { type: 'refused' }>;
type Entry = Extract<Heard, { type: 'entry' }>;

/** Resolves with the socket's close and when it came (0: before this was called). */
function closing(client: Client): Promise<{ code: number; reason: string; at: number }> {
  return new Promise((resolve, reject) => {
    if (client.closed !== undefined) {
      resolve({ ...client.closed, at: 0 });
      return;
    }
    const timer = setTimeout(() => reject(new Error('the socket is still open after 5 s')), 5000);
    client.socket.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: String(reason), at: performance.now() });
    });
  });
}

/** A table with an encounter, its GM, and a second GM link (as `table invite --gm` makes). */
async function coGmTable(
  store: Store,
  url: string,
): Promise<{ gmToken: string; tableId: string; id: string; coGm: string; coGmId: string }> {
  const { table, gmToken } = await newTable(store, 'ffrpg');
  const id = await startEncounterOver(url, gmToken, example('ffrpg-wind-cave'), 'revoke');
  const co = await store.createToken(table.id, { role: 'gm' });
  if (!co.ok) throw new Error(co.error.message);
  return { gmToken, tableId: table.id, id, coGm: co.value.token, coGmId: co.value.info.tokenId };
}

/**
 * Revokes the co-GM's link over HTTP from the first server while the co-GM has two sockets on
 * each server: one sends a `gm hp` the moment the revocation is answered, the other stays
 * silent, watching another encounter (only the notice can close it). Every one closes with 4001
 * `revoked` within a second, after `refused` `auth/revoked`; no `gm hp` reaches the log; the
 * first GM's socket stays and still submits. Returns each socket's milliseconds from the
 * request to its close.
 */
async function revokeEverywhere(store: Store, urls: readonly string[]): Promise<number[]> {
  const { gmToken, id, coGm, coGmId } = await coGmTable(store, urls[0]!);
  const { client: gm, state } = await Client.join(urls[0]!, id, gmToken);
  const target = state.view.combatants[0]!;
  const elsewhere = await startEncounterOver(urls[0]!, gmToken, example('ffrpg-wind-cave'));
  const join = async (url: string, encounter: string) =>
    (await Client.join(url, encounter, coGm)).client;
  const talkers = await Promise.all(urls.map((url) => join(url, id)));
  const silent = await Promise.all(urls.map((url) => join(url, elsewhere)));
  // The co-GM's link works until it is revoked.
  const before = await talkers[0]!.submit(1, 'before', {
    kind: 'gm',
    line: `hp ${target.id} 5`,
  });
  expect(before).toMatchObject({ type: 'accepted', seq: 1 });
  for (const c of [gm, ...talkers]) {
    await c.until((m): m is Entry => m.type === 'entry' && m.seq === 1);
  }

  const coGms = [...talkers, ...silent];
  const closes = coGms.map(closing);
  const started = performance.now();
  const revoked = await http(`${urls[0]}/api/table/invites/${coGmId}`, gmToken, 'DELETE');
  expect(revoked).toMatchObject({ status: 200, body: { revoked: coGmId } });
  talkers.forEach((c, i) => {
    c.send({
      type: 'submit',
      expect: 2,
      key: `after-${i}`,
      action: { kind: 'gm', line: `hp ${target.id} 1` },
    });
  });
  const closed = await Promise.all(closes);
  const elapsed = closed.map((c) => (c.at === 0 ? 0 : c.at - started));
  for (const [i, c] of closed.entries()) {
    expect({ code: c.code, reason: c.reason }).toEqual({ code: 4001, reason: 'revoked' });
    expect(elapsed[i]).toBeLessThan(1000);
    const refusals = coGms[i]!.messages.filter((m): m is Refused => m.type === 'refused');
    expect(refusals.some((r) => r.code === 'auth/revoked' && r.key === undefined)).toBe(true);
    expect(coGms[i]!.messages.some((m) => m.type === 'accepted' && m.key !== 'before')).toBe(false);
  }

  // The log holds only what came before; the first GM's link still works.
  const after = await gm.submit(2, 'gm-after', { kind: 'gm', line: `hp ${target.id} 7` });
  expect(after).toMatchObject({ type: 'accepted', seq: 2 });
  const rows = await store.entriesSince(id, 0);
  expect(rows.map((r) => r.idempotencyKey)).toEqual(['before', 'gm-after']);
  expect(gm.closed).toBeUndefined();
  // And the revoked link opens nothing again.
  const again = await Client.connect(urls.at(-1)!, id, coGm);
  expect(await again.next('refused')).toMatchObject({ code: 'auth/invalid' });
  gm.close();
  return elapsed;
}

describe('revoking a link closes its sockets at once', () => {
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

  it('in every process on one PostgreSQL', async () => {
    const elapsed = await revokeEverywhere(store, [a.url, b.url]);
    expect(elapsed).toHaveLength(4);
  });

  it('in every process, also when the notice was missed', async () => {
    const { id, coGm, coGmId } = await coGmTable(store, a.url);
    const sockets = await Promise.all(
      [a.url, b.url].map(async (url) => (await Client.join(url, id, coGm)).client),
    );
    const closes = sockets.map(closing);
    // Both processes lose their listening connection, as in a database restart or failover, and
    // the link is revoked before they are back (they wait at least 100 ms to reconnect).
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
      expect(await store.revokeToken(coGmId)).toBe(true);
    } finally {
      await admin.end();
    }
    // Back, each reads again every link with a socket open.
    for (const closed of await Promise.all(closes)) {
      expect(closed).toMatchObject({ code: 4001, reason: 'revoked' });
    }
    for (const socket of sockets) {
      expect(socket.messages.at(-1)).toMatchObject({ type: 'refused', code: 'auth/revoked' });
    }
  });

  it('on SQLite', async () => {
    const server = await startServer('sqlite');
    try {
      await revokeEverywhere(server.store, [server.url]);
    } finally {
      await server.stop();
    }
  });
});

/**
 * A revocation this process never hears of: `moogle table revoke` from another process on the
 * SQLite file the server has open. The link's next submit is refused and its socket closed,
 * nothing applied.
 */
describe('a revocation whose notice never came', () => {
  let server: Running;

  beforeAll(async () => {
    server = await startServer('sqlite');
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('refuses the next submit and closes the socket', async () => {
    const { tableId, id, coGm, coGmId } = await coGmTable(server.store, server.url);
    const { client, state } = await Client.join(server.url, id, coGm);
    const target = state.view.combatants[0]!;
    await run(process.execPath, [
      BIN,
      'table',
      'revoke',
      tableId,
      coGmId,
      '--db',
      server.location.location,
    ]);
    const closed = closing(client);
    const answer = await client.submit(1, 'late', { kind: 'gm', line: `hp ${target.id} 1` });
    expect(answer).toMatchObject({ type: 'refused', code: 'auth/revoked' });
    expect(await closed).toMatchObject({ code: 4001, reason: 'revoked' });
    expect(await server.store.entriesSince(id, 0)).toEqual([]);
  });

  it('says revoked, not what else is wrong, to a submit that would be refused anyway', async () => {
    const { gmToken, tableId, id } = await coGmTable(server.store, server.url);
    const { client: gm, state } = await Client.join(server.url, id, gmToken);
    const target = state.view.combatants[0]!;
    expect(await gm.submit(1, 'kept', { kind: 'gm', line: `hp ${target.id} 5` })).toMatchObject({
      type: 'accepted',
      seq: 1,
    });
    // Each answered without an append: a retry of an accepted key, a stale number, a line the
    // rules refuse. Each is checked against the link first.
    const refusedAnyway = [
      [1, 'kept', `hp ${target.id} 5`],
      [7, 'stale', `hp ${target.id} 1`],
      [2, 'unknown', 'no such command'],
    ] as const;
    for (const [expect_, key, line] of refusedAnyway) {
      const co = await server.store.createToken(tableId, { role: 'gm' });
      if (!co.ok) throw new Error(co.error.message);
      const { client } = await Client.join(server.url, id, co.value.token);
      await run(process.execPath, [
        BIN,
        'table',
        'revoke',
        tableId,
        co.value.info.tokenId,
        '--db',
        server.location.location,
      ]);
      const closed = closing(client);
      const answer = await client.submit(expect_, key, { kind: 'gm', line });
      expect(answer, key).toMatchObject({ type: 'refused', code: 'auth/revoked' });
      expect(await closed).toMatchObject({ code: 4001, reason: 'revoked' });
    }
    expect((await server.store.entriesSince(id, 0)).map((e) => e.seq)).toEqual([1]);
  });
});
