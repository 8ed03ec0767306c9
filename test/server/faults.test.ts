import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/server/limits.js';
import { POSTGRES_TIMEOUTS } from '../../src/store/index.js';
import { type StoppablePostgres, startStoppablePostgres } from '../store/postgres-server.js';
import {
  Client,
  example,
  type Heard,
  http,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
} from './harness.js';

type State = Extract<Heard, { type: 'state' | 'entry' }>;

/**
 * The table server through a PostgreSQL outage: a throwaway server this file starts, stops
 * (every connection cut, nothing answering), freezes (answering nothing, refusing nothing) and
 * brings back. Never the machine's shared PostgreSQL: stopping that would fail everyone's tests.
 */
describe('a PostgreSQL outage', () => {
  let postgres: StoppablePostgres;
  let running: Running;
  let gmToken: string;
  let id: string;
  let gm: Client;
  let latest: State;

  beforeAll(async () => {
    postgres = await startStoppablePostgres();
    running = await startServer('postgres', {
      kind: 'postgres',
      location: postgres.url,
      dispose: async () => {},
    });
    ({ gmToken } = await newTable(running.store, 'ffrpg'));
    id = await startEncounterOver(running.url, gmToken, example('ffrpg-wind-cave'), 'outage');
    const joined = await Client.join(running.url, id, gmToken);
    gm = joined.client;
    latest = joined.state;
    const first = await submitNext('first');
    expect(first.type).toBe('accepted');
  }, 120_000);

  afterAll(async () => {
    gm?.close();
    await running?.stop();
    await postgres?.remove();
  }, 60_000);

  /** The GM submits the first action offered now, as entry latest.seq + 1. */
  async function submitNext(key: string) {
    const answer = await gm.submit(latest.seq + 1, key, {
      kind: 'command',
      command: latest.actions[0]!.command,
    });
    if (answer.type === 'accepted') {
      latest = await gm.until((m): m is State => m.type === 'entry' && m.seq === answer.seq);
    }
    return answer;
  }

  async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await run();
    return { value, ms: Math.round(performance.now() - started) };
  }

  /** What the in-process server holds for the GM: what a new client would be sent. */
  async function held() {
    const host = await running.server.hub.held(id);
    if (host === undefined) throw new Error('the encounter is not held');
    return {
      seq: host.lastSeq,
      log: host.current.log.length,
      state: host.statePayload({ role: 'gm' }),
    };
  }

  async function ready(): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
    const { value, ms } = await timed(() => http(`${running.url}/readyz`, undefined, 'GET'));
    return { ...value, ms };
  }

  async function waitReady(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while ((await ready()).status !== 200) {
      if (Date.now() > deadline) throw new Error('the store never came back');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('refuses a submit while the database is down, keeps the encounter as it was, and goes on after', async () => {
    const before = await held();
    expect(before.seq).toBe(1);
    await postgres.down();

    const refused = await timed(() => submitNext('while-down'));
    console.log(`database down: submit refused in ${refused.ms} ms`);
    expect(refused.value).toMatchObject({ type: 'refused', code: 'server/storage' });
    expect(refused.ms).toBeLessThan(POSTGRES_TIMEOUTS.queryMs);
    // Nothing of the unstored entry stays: not in the log, not in what a client is sent.
    expect(await held()).toEqual(before);
    expect(gm.messages.some((m) => m.type === 'entry' && m.seq === 2)).toBe(false);

    const readiness = await ready();
    console.log(`database down: /readyz ${readiness.status} in ${readiness.ms} ms`);
    expect(readiness.status).toBe(503);
    expect(readiness.body).toMatchObject({ error: { code: 'server/storage' } });
    expect(readiness.ms).toBeLessThan(SERVER_LIMITS.readyMs + 1_000);

    const route = await http<{ error?: { code: string }; code?: string }>(
      `${running.url}/api/encounters/${id}`,
      gmToken,
      'GET',
    );
    expect(route.status).toBe(503);
    expect(route.body.error?.code ?? route.body.code).toBe('server/storage');

    const newcomer = await Client.connect(running.url, id, gmToken);
    const answer = await newcomer.next('refused');
    expect(answer.code).toBe('server/storage');
    await newcomer.until((m): m is never => false, 5_000).catch(() => undefined);
    expect(newcomer.closed?.code).toBe(1013);

    await postgres.up();
    await waitReady();
    const after = await submitNext('after-down');
    expect(after).toMatchObject({ type: 'accepted', seq: 2 });

    const { client, state } = await Client.join(running.url, id, gmToken);
    const entries = client.messages.flatMap((m) => (m.type === 'entries' ? m.entries : []));
    expect(entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(state.seq).toBe(2);
    client.close();
  }, 90_000);

  it('answers /readyz at once and refuses a submit in bounded time while the database hangs', async () => {
    postgres.pause();
    try {
      const readiness = await ready();
      console.log(`database hung: /readyz ${readiness.status} in ${readiness.ms} ms`);
      expect(readiness.status).toBe(503);
      expect(readiness.ms).toBeLessThan(SERVER_LIMITS.readyMs + 1_000);

      const before = await held();
      const refused = await timed(() => submitNext('while-hung'));
      console.log(`database hung: submit refused in ${refused.ms} ms`);
      expect(refused.value).toMatchObject({ type: 'refused', code: 'server/storage' });
      expect(refused.ms).toBeLessThan(
        POSTGRES_TIMEOUTS.queryMs + POSTGRES_TIMEOUTS.connectMs + 1_000,
      );
      expect(await held()).toEqual(before);
    } finally {
      postgres.resume();
    }
    await waitReady();
    // The hung server may have run the insert once it woke (it was sent): the client cannot
    // know, so it sends the same submit again, and it is applied once either way.
    const again = await gm.submit(latest.seq + 1, 'while-hung', {
      kind: 'command',
      command: latest.actions[0]!.command,
    });
    expect(again).toMatchObject({ type: 'accepted', seq: 3 });
    const { client, state } = await Client.join(running.url, id, gmToken);
    expect(state.seq).toBe(3);
    client.close();
  }, 90_000);
});
