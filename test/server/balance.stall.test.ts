import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { BALANCE_LIMITS, type BalanceBounds } from '../../src/server/balance-route.js';
import { freshLocation, open, stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  newTable,
  type Running,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';
import { type PingReport, probePings } from './ping-probe.js';

/**
 * The heaviest balance run a GM can start, while another table plays: battles run on worker
 * threads only, so the other table's pings are answered on time; closing the stream ends the
 * run's threads at once; and the server's threads and each table's runs are bounded.
 */

afterAll(stopFallbackPostgres);

/**
 * The gate of Guardiana with six columns of rock between the sides and 999 rounds before a
 * draw: nobody can reach anybody, so every battle plays all 999 rounds, about the simulator's
 * cap of 10,000 commands (85 ms a battle on one core).
 */
function walledField(): string {
  const gate = example('shining-force-gate');
  const rows = gate.slice(gate.indexOf('  rows:\n'), gate.indexOf('sides:'));
  const walled = `  rows:\n${'    - "...######..."\n'.repeat(6)}`;
  let file = gate
    .replace(rows, walled)
    .replace('battlefield:', 'options: { maxRounds: 999 }\nbattlefield:');
  for (const [from, to] of [
    ['at: G2', 'at: K2'],
    ['at: G4', 'at: K4'],
    ['at: H3', 'at: L3'],
    ['at: F6', 'at: K6'],
    ['at: H5', 'at: L5'],
  ] as const) {
    file = file.replace(from, to);
  }
  return file;
}

/** An open balance stream: its events as they come, and the page's Cancel (abort). */
class Stream {
  readonly events: { event: string; data: unknown }[] = [];
  private constructor(
    readonly status: number,
    readonly body: unknown,
    private readonly controller: AbortController,
    readonly ended: Promise<void>,
  ) {}

  static async open(url: string): Promise<Stream> {
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok || response.body === null) {
      const body = (await response.json()) as unknown;
      return new Stream(response.status, body, controller, Promise.resolve());
    }
    let stream: Stream | undefined;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const read = async (): Promise<void> => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            stream?.events.push({
              event: /^event: (.*)$/m.exec(block)?.[1] ?? 'message',
              data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown,
            });
          }
        }
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
    };
    stream = new Stream(response.status, undefined, controller, read());
    return stream;
  }

  abort(): void {
    this.controller.abort();
  }
}

/** startServer, with the balance runs' bounds changed. */
async function serverWith(balance: Partial<BalanceBounds>): Promise<Running> {
  const where = await freshLocation('sqlite');
  const store = await open(where.location);
  const server = await buildServer({ store, logger: false, balance });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    store,
    server,
    location: where,
    async stop() {
      await server.shutdown();
      await store.close();
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('the heaviest balance run, on moogle serve as deployed', () => {
  let location: Awaited<ReturnType<typeof freshLocation>>;
  let store: Awaited<ReturnType<typeof open>>;
  let server: ServeProcess;
  const streams: Stream[] = [];

  beforeAll(async () => {
    location = await freshLocation('sqlite');
    store = await open(location.location);
    server = await spawnServe(location.location);
  });
  afterAll(async () => {
    for (const s of streams) s.abort();
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
    }
    await store?.close();
    await location?.dispose();
  });

  /**
   * Starts 20,000 battles of `file` and pings from another table for `ms` or until the run's
   * report, whichever comes first; then closes the stream.
   */
  async function pingsDuring(
    system: string,
    file: string,
    ms: number,
  ): Promise<{ pings: PingReport; finished: boolean; runMs: number }> {
    const gm = await newTable(store, system);
    const id = await startEncounterOver(server.url, gm.gmToken, file);
    const other = await newTable(store, 'ffrpg');
    const otherId = await startEncounterOver(server.url, other.gmToken, example('ffrpg-wind-cave'));
    const { client } = await Client.join(server.url, otherId, other.gmToken);
    try {
      // A second of pings first, not held to the bound: the server's first answers run cold
      // code. Printed, so that a failure shows how noisy the machine was without the run.
      const warm = probePings(client, 50);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const before = await warm.stop();
      console.log('pings before the run', before);
      const began = performance.now();
      const run = await Stream.open(
        `${server.url}/api/encounters/${id}/balance?token=${gm.gmToken}&battles=${BALANCE_LIMITS.battles}&seed=stall`,
      );
      streams.push(run);
      expect(run.status).toBe(200);
      const probe = probePings(client, 50);
      let finished = false;
      await Promise.race([
        new Promise((resolve) => setTimeout(resolve, ms)),
        run.ended.then(() => {
          finished = true;
        }),
      ]);
      // Stopped at once, so that every ping counted was due while the battles ran.
      const pings = await probe.stop();
      const runMs = performance.now() - began;
      if (finished) expect(run.events.at(-1)?.event).toBe('report');
      run.abort();
      return { pings, finished, runMs };
    } finally {
      client.close();
    }
  }

  it("keeps another table's pings under 50 ms (p99) during 20,000 battles on a walled field", async () => {
    const { pings, finished } = await pingsDuring('shining-force', walledField(), 5_000);
    console.log('pings during 20,000 battles on a walled field', pings);
    // Half an hour of battles on one thread: far from done. 50 ms apart for 5 s: about 100
    // pings, so the p99 is not just the one worst.
    expect(finished).toBe(false);
    expect(pings.count).toBeGreaterThanOrEqual(95);
    expect(pings.unanswered).toBe(0);
    expect(pings.p99).toBeLessThan(50);
  }, 30_000);

  it('and during 20,000 battles of the stock Wind Cave', async () => {
    // About 4 s of one core on this machine, less with more: pinged while it lasts, up to 5 s.
    const { pings, finished, runMs } = await pingsDuring(
      'ffrpg',
      example('ffrpg-wind-cave'),
      5_000,
    );
    console.log('pings during 20,000 battles of the Wind Cave', { ...pings, finished, runMs });
    expect(pings.count).toBeGreaterThanOrEqual(20);
    expect(pings.unanswered).toBe(0);
    expect(pings.p99).toBeLessThan(50);
  }, 30_000);
});

describe('balance runs, in this process where their threads can be counted', () => {
  let running: Running;
  const streams: Stream[] = [];
  const stream = async (url: string): Promise<Stream> => {
    const s = await Stream.open(url);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    running = await startServer('sqlite');
  });
  afterAll(async () => {
    for (const s of streams) s.abort();
    await running?.stop();
    // Stopping the server cancels what runs: no simulation thread outlives it.
    expect(running?.server.app.simulations.live() ?? 0).toBe(0);
    await running?.location.dispose();
  });

  it("ends the run's threads within 100 ms of the stream closing, mid-battle", async () => {
    const sims = running.server.app.simulations;
    const gm = await newTable(running.store, 'shining-force');
    const id = await startEncounterOver(running.url, gm.gmToken, walledField());
    const run = await stream(
      `${running.url}/api/encounters/${id}/balance?token=${gm.gmToken}&battles=20000&seed=c`,
    );
    expect(run.status).toBe(200);
    await waitFor(() => sims.live() > 0, 5_000);
    expect(sims.live()).toBeLessThanOrEqual(BALANCE_LIMITS.threads);
    // Well into its battles (85 ms each), far from the end of any chunk (250 of them).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(sims.live()).toBeGreaterThan(0);
    const closed = performance.now();
    run.abort();
    await waitFor(() => sims.running() === 0, 5_000);
    const seen = performance.now() - closed;
    console.log('cancel', { server: sims.lastCancelMs, seenByTheTest: seen });
    // Timed by the server, from the response's close to the last thread's exit.
    expect(sims.lastCancelMs).toBeLessThan(100);
    expect(sims.live()).toBe(0);
  }, 30_000);

  it("refuses a table's second run and, once the server's threads are taken, other tables' runs", async () => {
    // Three threads, two a run: the first table's run takes two, the second's the last one.
    const small = await serverWith({ threads: 3, threadsPerRun: 2 });
    try {
      const sims = small.server.app.simulations;
      const url = (id: string, token: string, battles = 20_000) =>
        `${small.url}/api/encounters/${id}/balance?token=${token}&battles=${battles}&seed=b`;
      const walled = walledField();
      const tables = [];
      for (let i = 0; i < 3; i++) {
        const table = await newTable(small.store, 'shining-force');
        tables.push({ ...table, id: await startEncounterOver(small.url, table.gmToken, walled) });
      }
      const [a, b, c] = tables as [(typeof tables)[0], (typeof tables)[0], (typeof tables)[0]];
      const first = await stream(url(a.id, a.gmToken));
      expect(first.status).toBe(200);
      const again = await stream(url(a.id, a.gmToken, 10));
      expect(again.status).toBe(429);
      expect(again.body).toEqual({
        error: { code: 'balance/busy', message: expect.stringContaining('this table') },
      });
      const second = await stream(url(b.id, b.gmToken));
      expect(second.status).toBe(200);
      const third = await stream(url(c.id, c.gmToken));
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        error: { code: 'balance/busy', message: expect.stringContaining('other tables') },
      });
      await waitFor(() => sims.live() === 3, 10_000);
      expect(sims.running()).toBe(2);

      // Once the first run is cancelled its threads are free: the third table's run starts.
      first.abort();
      await waitFor(() => sims.running() === 1, 5_000);
      const now = await stream(url(c.id, c.gmToken));
      expect(now.status).toBe(200);
      now.abort();
      second.abort();
      await waitFor(() => sims.live() === 0, 5_000);
    } finally {
      await small.stop();
      await small.location.dispose();
    }
  }, 30_000);

  it('cancels the runs when the server stops, telling their streams', async () => {
    const stopping = await serverWith({});
    try {
      const table = await newTable(stopping.store, 'shining-force');
      const id = await startEncounterOver(stopping.url, table.gmToken, walledField());
      const run = await Stream.open(
        `${stopping.url}/api/encounters/${id}/balance?token=${table.gmToken}&battles=20000&seed=s`,
      );
      expect(run.status).toBe(200);
      const sims = stopping.server.app.simulations;
      await waitFor(() => sims.live() > 0, 5_000);
      // An open stream would keep the server from closing: the runs end first.
      await stopping.stop();
      await run.ended;
      expect(run.events.at(-1)).toEqual({
        event: 'failed',
        data: { message: 'the server is stopping' },
      });
      expect(sims.live()).toBe(0);
    } finally {
      await stopping.location.dispose();
    }
  }, 30_000);

  it('stops a run that outlasts its time after the battles in progress, and reports them', async () => {
    const timed = await serverWith({ runMs: 1_500 });
    try {
      const table = await newTable(timed.store, 'shining-force');
      const id = await startEncounterOver(timed.url, table.gmToken, walledField());
      const began = performance.now();
      const run = await stream(
        `${timed.url}/api/encounters/${id}/balance?token=${table.gmToken}&battles=20000&seed=t`,
      );
      await run.ended;
      const took = performance.now() - began;
      const report = run.events.at(-1)!;
      expect(report.event).toBe('report');
      const { battles, interrupted } = report.data as { battles: number; interrupted: boolean };
      expect(interrupted).toBe(true);
      expect(battles).toBeLessThan(20_000);
      // The time, then the battles in progress (under 0.1 s each here), then the threads' exit.
      expect(took).toBeLessThan(1_500 + 1_500);
      expect(timed.server.app.simulations.live()).toBe(0);
    } finally {
      await timed.stop();
      await timed.location.dispose();
    }
  }, 30_000);
});
