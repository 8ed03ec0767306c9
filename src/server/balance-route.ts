import { availableParallelism } from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Result } from '../engine/index.js';
import { playersSide } from '../sim/players.js';
import { DEFAULT_POLICY } from '../sim/policies.js';
import { formatSidePolicies, policyForEncounter } from '../sim/policy-spec.js';
import { buildReport } from '../sim/report.js';
import { SimCancelled, type SimRun, simulate } from '../sim/sim.js';
import type { Store, TokenGrant } from '../store/index.js';
import { openEventStream } from './event-stream.js';
import type { Hub } from './live/hub.js';
import { Simulations } from './simulations.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The balance runs' worker threads: how many are alive, for tests and shutdown. */
    readonly simulations: Simulations;
  }
}

/**
 * The GM's balance panel: simulated battles of an encounter, streamed as server-sent events
 * (`progress`, then `report`), stopped when the page closes the stream. They start from the
 * encounter as it stands (`from=now`, what a GM weighing the next move asks about) or from its
 * setup (`from=start`). Every battle runs on worker threads, none on this one: one Shining
 * Force battle can be 10,000 commands, and a chunk of them here held other tables' pings for
 * seconds. Bounds on battles, on threads and on runs at once keep one table from taking the
 * server, and closing the stream terminates the run's threads mid-battle.
 */

export const BALANCE_LIMITS = {
  battles: 20_000,
  /**
   * Simulation worker threads on this server, every run together: one core is left to the
   * event loop, so on two cores one thread simulates and another table asks again later.
   */
  threads: Math.max(1, availableParallelism() - 1),
  /** Worker threads one run may take, when that many are free. */
  threadsPerRun: 2,
  /** Runs at once per table: a second (another tab) is refused while the first goes on. */
  runsPerTable: 1,
  /**
   * A run still going after this long stops after the battles in progress and reports what it
   * has (`interrupted`): 20,000 battles on a walled Shining Force field would hold the server's
   * thread for half an hour.
   */
  runMs: 120_000,
} as const;

/** The bounds a server may set otherwise (ServerOptions.balance): all but the battles. */
export type BalanceBounds = {
  readonly [K in Exclude<keyof typeof BALANCE_LIMITS, 'battles'>]: number;
};

const query = z.object({
  token: z.string().min(1).max(500).optional(),
  table: z.string().min(1).max(200).optional(),
  battles: z.coerce.number().int().min(1).max(BALANCE_LIMITS.battles).default(1000),
  seed: z.string().min(1).max(200).optional(),
  policy: z.string().min(1).max(200).default(DEFAULT_POLICY),
  from: z.enum(['now', 'start']).default('now'),
});
const params = z.object({ id: z.string().min(1).max(200) });

export function registerBalance(
  app: FastifyInstance,
  store: Store,
  hub: Hub,
  /** The grant of the request's token or session, as every route reads it. */
  grantOf: (request: FastifyRequest) => Promise<Result<TokenGrant>>,
  bounds: Partial<BalanceBounds> = {},
): void {
  const limits: BalanceBounds = { ...BALANCE_LIMITS, ...bounds };
  const simulations = new Simulations(limits);
  app.decorate('simulations', simulations);
  // A stream still open would keep app.close() waiting: the runs end first.
  app.addHook('preClose', () => simulations.cancelAll());

  app.get('/api/encounters/:id/balance', async (request: FastifyRequest, reply: FastifyReply) => {
    const q = query.safeParse(request.query);
    const p = params.safeParse(request.params);
    const fail = (status: number, code: string, message: string) =>
      reply.code(status).send({ error: { code, message } });
    if (!q.success || !p.success) {
      const issue = (q.error ?? p.error)?.issues[0];
      return fail(
        400,
        'balance/invalid',
        issue ? `${issue.path.join('.')}: ${issue.message}` : 'bad request',
      );
    }
    const grant = await grantOf(request);
    if (!grant.ok) return fail(401, grant.error.code, grant.error.message);
    if (grant.value.role !== 'gm') return fail(403, 'role/gm-only', 'only the GM runs the balance');
    const record = await store.getEncounter(p.data.id);
    if (record === undefined || record.tableId !== grant.value.tableId) {
      return fail(404, 'encounter/not-found', `no encounter ${p.data.id} at this table`);
    }
    const host = await hub.host(record.id);
    if (!host.ok) return fail(500, host.error.code, host.error.message);
    const system = host.value.system;
    const encounter = host.value.current;
    const setup = encounter.setup;
    const from = q.data.from;
    // Read once, now: states are never edited in place, so entries played while the battles
    // run do not reach them.
    const now = from === 'now' ? encounter.state : undefined;
    const entry = host.value.lastSeq;
    const start = now ?? system.ruleset.initialState(setup);
    const chosen = policyForEncounter(system, start, q.data.policy);
    if (!chosen.ok) return fail(400, 'balance/policy', chosen.error.message);
    const sides = system.view(start).sides;
    const battles = q.data.battles;
    const seed = q.data.seed ?? `balance-${record.id}`;

    const reserved = simulations.reserve(record.tableId);
    if (!reserved.ok) return fail(429, reserved.refusal.code, reserved.refusal.message);
    const { lease } = reserved;
    const { out, event } = openEventStream(reply);
    let lastSent = 0;
    let run: SimRun;
    try {
      run = simulate({
        system,
        setup,
        ...(now === undefined ? {} : { start: now }),
        battles,
        seed,
        workers: lease.threads,
        mainThread: false,
        background: true,
        policy: q.data.policy,
        onProgress: (done) => {
          // A few events a second are plenty for a progress bar.
          const now = Date.now();
          if (now - lastSent < 150 && done < battles) return;
          lastSent = now;
          event('progress', { done, battles });
        },
      });
    } catch (error) {
      // Nothing started, so nothing to wait for: the threads go back at once.
      lease.release();
      event('failed', { message: String(error) });
      out.end();
      return;
    }
    let cancelled = false;
    const cancel = async (): Promise<void> => {
      if (cancelled) return;
      cancelled = true;
      const closed = performance.now();
      await run.cancel();
      simulations.lastCancelMs = performance.now() - closed;
    };
    lease.attach(run, async () => {
      event('failed', { message: 'the server is stopping' });
      out.end();
      await cancel();
    });
    // The response closes before it ends only when the page went (or the connection dropped).
    out.on('close', () => {
      if (!out.writableEnded) void cancel();
    });
    const timeUp = setTimeout(() => run.stop(), limits.runMs);
    event('progress', { done: 0, battles });
    try {
      const aggregate = await run.result;
      const report = buildReport(aggregate, {
        seed,
        policy: formatSidePolicies(chosen.value.policies),
        policies: chosen.value.policies,
        players: playersSide(setup, sides),
        workers: lease.threads,
        interrupted: aggregate.battles < battles,
        sides,
        from,
        entry,
      });
      event('report', report);
    } catch (error) {
      if (!(error instanceof SimCancelled)) event('failed', { message: String(error) });
    } finally {
      clearTimeout(timeUp);
      // The threads stay counted until they are gone, so the bound is on threads alive; and
      // the stream ends after that, so the page may ask again as soon as it has its report.
      await run.exited;
      lease.release();
      if (!out.writableEnded) out.end();
    }
  });
}
