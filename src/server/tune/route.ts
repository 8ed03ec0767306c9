/**
 * The builder's simulations: `POST /api/table/predict` (the players' win rate in a draft, a few
 * hundred battles) and `POST /api/table/tune` (the balance search over one monster's HP or
 * count, to a target win rate). Both answer as server-sent events on the POST's response
 * (`progress`, then `prediction`/`result`, or `failed`), and closing the response cancels.
 *
 * Each runs whole on ONE worker thread: the search plays 10-20 small batches, and a worker per
 * batch would pay its start-up every time. They count against the balance panel's limits
 * (simulations.ts): one run per table, threads for every table together, the time cap.
 */
import { Worker } from 'node:worker_threads';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_HP_FIELD } from '../../content/encounter-sheets.js';
import type { ContentLibrary } from '../../content/index.js';
import type { EncounterFile } from '../../encounters/file.js';
import type { Result } from '../../engine/index.js';
import { MAX_COUNT, variationOf } from '../../sim/balance/variation.js';
import type { SimRun } from '../../sim/sim.js';
import type { TableRecord, TokenGrant } from '../../store/index.js';
import { openEventStream } from '../event-stream.js';
import type { Simulations } from '../simulations.js';
import { type readRoster, systemOfTable } from '../tables.js';
import { draftEncounter } from './draft.js';
import type { TuneJob, TuneMessage } from './job.js';

export const TUNE_LIMITS = {
  /** Battles of a predicted win rate: a 95% interval of about ±5 points near 50%. */
  predictBattles: 300,
  /** The widest HP range searched: 2^20 values, about 20 bisection steps at worst. */
  hpSpan: 2 ** 20,
  /** The most copies of a monster a count search tries. */
  count: 20,
  fileChars: 200_000,
} as const;

const file = z.string().min(1).max(TUNE_LIMITS.fileChars);
const seed = z.string().min(1).max(200).optional();
const predictBody = z.strictObject({ file, seed });
const tuneBody = z.strictObject({
  file,
  seed,
  monster: z.string().min(1).max(200),
  field: z.enum(['hp', 'count']),
  low: z.number().int().min(1),
  high: z.number().int().min(1),
  /** The players' side's wanted win rate, 0 to 1. */
  target: z.number().min(0).max(1),
});

export interface TuneDeps {
  readonly simulations: Simulations;
  readonly runMs: number;
  readonly tableOf: (
    request: FastifyRequest,
    reply: FastifyReply,
    gmOnly: boolean,
  ) => Promise<{ grant: TokenGrant; table: TableRecord } | undefined>;
  readonly readRosterOf: (table: TableRecord) => ReturnType<typeof readRoster>;
  readonly libraryOf: (table: TableRecord) => Promise<Result<ContentLibrary>>;
}

function startTuneWorker(job: TuneJob): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const url = new URL(typescript ? './worker.ts' : './worker.js', import.meta.url);
  // Under tsx (tests) the worker is TypeScript: it registers the same loader first.
  return typescript
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true, workerData: job },
      )
    : new Worker(url, { workerData: job });
}

export function registerTune(app: FastifyInstance, deps: TuneDeps): void {
  const { simulations } = deps;
  const fail = (reply: FastifyReply, status: number, code: string, message: string) =>
    reply.code(status).send({ error: { code, message } });

  async function prepare(
    request: FastifyRequest,
    reply: FastifyReply,
    text: string,
  ): Promise<
    | Result<{ job: Omit<TuneJob, 'kind'>; tableId: string; check: Result<EncounterFile> }>
    | undefined
  > {
    const found = await deps.tableOf(request, reply, true);
    if (found === undefined) return undefined;
    const system = systemOfTable(found.table);
    if (!system.ok) return system;
    const roster = await deps.readRosterOf(found.table);
    if (!roster.ok) return roster;
    // The table's own library, as a started fight reads it: the GM tunes what they keep.
    const library = await deps.libraryOf(found.table);
    if (!library.ok) return library;
    const check = draftEncounter(system.value, library.value, roster.value, text);
    return {
      ok: true,
      value: {
        job: {
          system: system.value.ruleset.id,
          file: text,
          roster: roster.value,
          library: library.value.toJSON(),
          seed: '',
        },
        tableId: found.table.id,
        check,
      },
    };
  }

  /** Runs `job` on its own worker thread, streaming its messages to the response. */
  function stream(reply: FastifyReply, tableId: string, job: TuneJob): FastifyReply | undefined {
    const reserved = simulations.reserve(tableId);
    if (!reserved.ok) return fail(reply, 429, reserved.refusal.code, reserved.refusal.message);
    const { lease } = reserved;
    const { out, event } = openEventStream(reply);
    const started = performance.now();
    const worker = startTuneWorker(job);
    let alive = true;
    let cancelled = false;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    void exited.then(() => {
      alive = false;
    });
    const finished = new Promise<TuneMessage>((resolve) => {
      worker.on('message', (message: TuneMessage) => {
        if (message.type === 'progress') event('progress', { battles: message.battles });
        else resolve(message);
      });
      worker.once('error', (error) => resolve({ type: 'failed', message: String(error) }));
      worker.once('exit', () =>
        resolve({ type: 'failed', message: cancelled ? 'cancelled' : 'the run ended early' }),
      );
    });
    const cancel = async (): Promise<void> => {
      cancelled = true;
      const closed = performance.now();
      await worker.terminate();
      simulations.lastCancelMs = performance.now() - closed;
    };
    const run: SimRun = {
      result: new Promise(() => {}),
      stop: () => void cancel(),
      cancel,
      threads: () => (alive ? 1 : 0),
      exited,
    };
    lease.attach(run, async () => {
      event('failed', { message: 'the server is stopping' });
      out.end();
      await cancel();
    });
    out.on('close', () => {
      if (!out.writableEnded) void cancel();
    });
    // The search cannot report part of an answer as a sim run can: past the cap it is ended.
    const timeUp = setTimeout(() => {
      event('failed', { message: `the run took longer than ${deps.runMs / 1000} s and was ended` });
      void cancel();
    }, deps.runMs);
    event('progress', { battles: 0 });
    void (async () => {
      const message = await finished;
      clearTimeout(timeUp);
      const ms = Math.round(performance.now() - started);
      // The thread is gone and the run released before the answer goes out: a page that asks
      // again as soon as it reads the answer is not refused as busy.
      await worker.terminate();
      await exited;
      lease.release();
      if (message.type === 'prediction') event('prediction', { ...message.prediction, ms });
      else if (message.type === 'result') event('result', { ...message.result, ms });
      else if (message.type === 'failed' && !cancelled)
        event('failed', { message: message.message });
      if (!out.writableEnded) out.end();
    })();
    return undefined;
  }

  app.post('/api/table/predict', async (request, reply) => {
    const body = predictBody.safeParse(request.body);
    if (!body.success) {
      const issue = body.error.issues[0]!;
      return fail(reply, 400, 'tune/invalid', `${issue.path.join('.')}: ${issue.message}`);
    }
    const prepared = await prepare(request, reply, body.data.file);
    if (prepared === undefined) return reply;
    if (!prepared.ok) return fail(reply, 400, prepared.error.code, prepared.error.message);
    const { job, tableId, check } = prepared.value;
    if (!check.ok) return fail(reply, 400, check.error.code, check.error.message);
    return (
      stream(reply, tableId, {
        ...job,
        kind: 'predict',
        battles: TUNE_LIMITS.predictBattles,
        seed: body.data.seed ?? 'predict',
      }) ?? reply
    );
  });

  app.post('/api/table/tune', async (request, reply) => {
    const body = tuneBody.safeParse(request.body);
    if (!body.success) {
      const issue = body.error.issues[0]!;
      return fail(reply, 400, 'tune/invalid', `${issue.path.join('.')}: ${issue.message}`);
    }
    const { monster, field, low, high, target } = body.data;
    const bound = field === 'count' ? TUNE_LIMITS.count : TUNE_LIMITS.hpSpan;
    if (!(low < high) || high > (field === 'count' ? Math.min(bound, MAX_COUNT) : bound)) {
      return fail(
        reply,
        400,
        'tune/range',
        `the range ${low}..${high} is not a range of ${field === 'count' ? `counts from 1 to ${bound}` : `HP from 1 to ${bound}`}: low below high`,
      );
    }
    const prepared = await prepare(request, reply, body.data.file);
    if (prepared === undefined) return reply;
    if (!prepared.ok) return fail(reply, 400, prepared.error.code, prepared.error.message);
    const { job, tableId, check } = prepared.value;
    if (!check.ok) return fail(reply, 400, check.error.code, check.error.message);
    const encounter = check.value;
    // A monster of the draft, not a character: the GM tunes the opposition. Its HP is varied
    // through the draft's own `maxHp` override (of the entry with that id, or every entry of that
    // monster), so the answer goes back into the draft and the table's sheet stays as it is.
    const path = field === 'count' ? 'count' : MAX_HP_FIELD;
    const kind = encounter.system.kinds.find((k) => k.kind.endsWith('/monster'));
    const sheet = kind === undefined ? undefined : encounter.library.get(kind, monster);
    const vary = { combatant: monster, field: path, low, high };
    const variation =
      sheet === undefined && field === 'count' ? undefined : variationOf(encounter, vary);
    if (variation === undefined || !variation.ok) {
      return fail(
        reply,
        400,
        'tune/field',
        variation?.error.message ?? `the draft has no monster '${monster}'`,
      );
    }
    for (const end of [low, high]) {
      const built = variation.value.setupAt(end);
      if (!built.ok) return fail(reply, 400, 'tune/range', built.error.message);
    }
    return (
      stream(reply, tableId, {
        ...job,
        kind: 'tune',
        vary,
        target,
        seed: body.data.seed ?? 'tune',
      }) ?? reply
    );
  });
}
