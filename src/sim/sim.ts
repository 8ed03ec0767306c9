import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnySystem } from '../rulesets/system.js';
import { type Aggregate, emptyAggregate, mergeAggregates, roundsAfter } from './aggregate.js';
import { playChunk } from './play-queue.js';
import { policyForEncounter } from './policy-spec.js';
import { WorkQueue } from './work-queue.js';
import type { WorkerJob } from './worker.js';

/** The most battles one run may ask for: a bound on time, not on memory (which stays flat). */
export const MAX_BATTLES = 100_000_000;
export const MAX_WORKERS = 64;

export interface SimOptions {
  readonly system: AnySystem;
  readonly setup: unknown;
  /**
   * The state every battle starts from instead of the setup's initial state: an encounter as it
   * stands (HP lost, statuses, newcomers, the clock), plain data as the engine's states are.
   * The battles' dice are still the run's own seeds, not the encounter's; rounds are counted
   * from it (see roundsAfter).
   */
  readonly start?: unknown;
  readonly battles: number;
  readonly seed: string;
  readonly workers: number;
  /** A policy spec: one name for every side, or `side=name,...` (see parsePolicySpec). */
  readonly policy: string;
  /** Called now and then with the battles finished so far. */
  readonly onProgress?: (done: number) => void;
  /**
   * false: every battle through the runner's loop over the rules, never a system's kernel
   * (src/sim/kernels/): the same report, slower; to measure or check the kernel against it.
   */
  readonly kernel?: boolean;
  /**
   * false: every battle on `workers` worker threads and none on this one, whose event loop then
   * stays free for whatever else it serves (the table server's sockets). By default this thread
   * plays too, as `moogle sim` wants on a machine it has to itself.
   */
  readonly mainThread?: boolean;
  /**
   * Worker threads at the lowest CPU priority (on Linux, where a thread has its own), so that
   * when cores are short the rest of the process, a server's event loop, runs first.
   */
  readonly background?: boolean;
}

export interface SimRun {
  /** Resolves with every battle played, or those played before stop() was called. */
  readonly result: Promise<Aggregate>;
  /** Ask every thread to finish the battle it is on and report what it has. */
  stop(): void;
  /**
   * Ends the run now, mid-battle: its worker threads are terminated, since one Shining Force
   * battle may run 10,000 commands, too long to wait for; `result` rejects with SimCancelled.
   * Resolves once every worker thread is gone.
   */
  cancel(): Promise<void>;
  /** The run's worker threads still alive (started, not yet exited). */
  threads(): number;
  /** Resolves once every worker thread the run started has exited, however the run ended. */
  readonly exited: Promise<void>;
}

/** What a cancelled run's result rejects with. */
export class SimCancelled extends Error {
  constructor() {
    super('the simulation was cancelled');
    this.name = 'SimCancelled';
  }
}

/** A worker thread playing chunks of `job`'s queue; it posts its aggregate when none are left. */
export function startWorker(job: WorkerJob): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const url = new URL(typescript ? './worker.ts' : './worker.js', import.meta.url);
  // Under tsx (tests, bench) the worker is TypeScript: it registers the same loader first.
  return typescript
    ? new Worker(
        `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
        { eval: true, workerData: job },
      )
    : new Worker(url, { workerData: job });
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
}

/**
 * Runs `battles` simulated battles on `workers` threads: this one and `workers - 1` worker
 * threads (or `workers` worker threads alone, with `mainThread: false`), all taking chunks
 * from one shared queue. This thread starts at once while the
 * workers load, and nobody idles at the end while another finishes a fixed share. Battle i
 * always uses the seeds `${seed}:${i}` and the aggregate is sums of integers, so the result is
 * the same for a seed whatever the number of workers.
 */
export function simulate(options: SimOptions): SimRun {
  const { start } = options;
  const chosen = policyForEncounter(
    options.system,
    start ?? options.system.ruleset.initialState(options.setup),
    options.policy,
  );
  if (!chosen.ok) throw new Error(chosen.error.message);
  const { policy } = chosen.value;
  const queue = WorkQueue.create(options.battles);
  const mainThread = options.mainThread ?? true;
  const workers: Worker[] = [];
  const exits: Promise<void>[] = [];
  let alive = 0;
  let cancelled = false;
  const helpers = Array.from(
    { length: mainThread ? Math.max(0, options.workers - 1) : Math.max(1, options.workers) },
    () =>
      new Promise<Aggregate>((resolve, reject) => {
        const worker = startWorker({
          system: options.system.ruleset.id,
          setup: options.setup,
          ...(start === undefined ? {} : { start }),
          policy: options.policy,
          seed: options.seed,
          battles: options.battles,
          shared: queue.shared,
          ...(options.kernel === false ? { kernel: false } : {}),
          ...(options.background === true ? { nice: 19 } : {}),
        });
        workers.push(worker);
        alive += 1;
        exits.push(
          new Promise<void>((exited) =>
            worker.once('exit', () => {
              alive -= 1;
              exited();
            }),
          ),
        );
        worker.once('message', (aggregate: Aggregate) => resolve(aggregate));
        worker.once('error', (error) => {
          // One failed thread fails the run: stop the others rather than play on for nothing.
          queue.stop();
          reject(cancelled ? new SimCancelled() : error);
        });
        worker.once('exit', (code) => {
          if (cancelled) reject(new SimCancelled());
          else if (code !== 0) reject(new Error(`a simulation worker stopped with code ${code}`));
        });
      }),
  );
  const here = new Promise<Aggregate>((resolve, reject) => {
    const aggregate = emptyAggregate();
    if (!mainThread) {
      resolve(aggregate);
      return;
    }
    // A chunk at a time, yielding between them so progress, messages and Ctrl-C get through.
    const step = (): void => {
      try {
        const more = playChunk(
          options.system,
          options.setup,
          policy,
          options.seed,
          queue,
          aggregate,
          start,
          options.kernel,
        );
        options.onProgress?.(queue.done());
        if (more) setImmediate(step);
        else resolve(aggregate);
      } catch (error) {
        queue.stop();
        reject(error);
      }
    };
    // Let the caller install a Ctrl-C handler before the first chunk.
    setImmediate(step);
  });
  // Once this thread runs out of chunks the workers may still be finishing theirs.
  const timer = setInterval(() => options.onProgress?.(queue.done()), 200);
  const result = Promise.all([here, ...helpers])
    .then((parts) => parts.reduce(mergeAggregates, emptyAggregate()))
    .then((total) =>
      start === undefined ? total : roundsAfter(total, options.system.rounds(start)),
    )
    .finally(() => {
      clearInterval(timer);
      options.onProgress?.(queue.done());
    });
  const exited = Promise.all(exits).then(() => undefined);
  return {
    result,
    stop: () => queue.stop(),
    async cancel() {
      cancelled = true;
      queue.stop();
      await Promise.all(workers.map((worker) => worker.terminate()));
      await exited;
    },
    threads: () => alive,
    exited,
  };
}
