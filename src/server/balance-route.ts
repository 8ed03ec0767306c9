import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { playersSide } from '../sim/players.js';
import { DEFAULT_POLICY } from '../sim/policies.js';
import { formatSidePolicies, policyForEncounter } from '../sim/policy-spec.js';
import { buildReport } from '../sim/report.js';
import { simulate } from '../sim/sim.js';
import type { Store } from '../store/index.js';
import type { Hub } from './live/hub.js';

/**
 * The GM's balance panel: simulated battles of an encounter, streamed as server-sent events
 * (`progress`, then `report`), stopped when the page closes the stream. They start from the
 * encounter as it stands (`from=now`, what a GM weighing the next move asks about) or from its
 * setup (`from=start`). The battles run on a
 * worker thread and in small chunks on this one, so live play goes on meanwhile; a bound on
 * battles and on runs at once keeps one table from taking the server.
 */

export const BALANCE_LIMITS = {
  battles: 20_000,
  /** Runs at once on this server; another asks again later. */
  runs: 2,
  /** Threads per run: this one and one worker, on the two cores a small server has. */
  workers: 2,
} as const;

const query = z.object({
  token: z.string().min(1).max(500),
  battles: z.coerce.number().int().min(1).max(BALANCE_LIMITS.battles).default(1000),
  seed: z.string().min(1).max(200).optional(),
  policy: z.string().min(1).max(200).default(DEFAULT_POLICY),
  from: z.enum(['now', 'start']).default('now'),
});
const params = z.object({ id: z.string().min(1).max(200) });

export function registerBalance(app: FastifyInstance, store: Store, hub: Hub): void {
  let running = 0;

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
    const grant = await store.checkToken(q.data.token);
    if (!grant.ok) return fail(401, 'auth/invalid', 'this token is unknown or revoked');
    if (grant.value.role !== 'gm') return fail(403, 'role/gm-only', 'only the GM runs the balance');
    const record = await store.getEncounter(p.data.id);
    if (record === undefined || record.tableId !== grant.value.tableId) {
      return fail(404, 'encounter/not-found', `no encounter ${p.data.id} at this table`);
    }
    const host = await hub.host(record.id);
    if (!host.ok) return fail(500, host.error.code, host.error.message);
    if (running >= BALANCE_LIMITS.runs) {
      return fail(429, 'balance/busy', 'the server is running other simulations: try again soon');
    }
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

    running += 1;
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const event = (name: string, data: unknown): void => {
      if (!out.writableEnded) out.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    let lastSent = 0;
    const run = simulate({
      system,
      setup,
      ...(now === undefined ? {} : { start: now }),
      battles,
      seed,
      workers: Math.min(BALANCE_LIMITS.workers, battles),
      policy: q.data.policy,
      onProgress: (done) => {
        // A few events a second are plenty for a progress bar.
        const now = Date.now();
        if (now - lastSent < 150 && done < battles) return;
        lastSent = now;
        event('progress', { done, battles });
      },
    });
    let cancelled = false;
    request.raw.on('close', () => {
      if (!out.writableEnded) {
        cancelled = true;
        run.stop();
      }
    });
    event('progress', { done: 0, battles });
    try {
      const aggregate = await run.result;
      const report = buildReport(aggregate, {
        seed,
        policy: formatSidePolicies(chosen.value.policies),
        policies: chosen.value.policies,
        players: playersSide(setup, sides),
        workers: Math.min(BALANCE_LIMITS.workers, battles),
        interrupted: cancelled || aggregate.battles < battles,
        sides,
        from,
        entry,
      });
      event('report', report);
    } catch (error) {
      event('failed', { message: String(error) });
    } finally {
      running -= 1;
      out.end();
    }
  });
}
