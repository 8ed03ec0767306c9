import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnySystem } from '../rulesets/system.js';
import { type Aggregate, emptyAggregate, mergeAggregates } from './aggregate.js';
import { policyNamed } from './policies.js';
import { runBattles } from './runner.js';
import type { WorkerJob } from './worker.js';

/** The most battles one run may ask for: a bound on time, not on memory (which stays flat). */
export const MAX_BATTLES = 100_000_000;
export const MAX_WORKERS = 64;

export interface SimOptions {
  readonly system: AnySystem;
  readonly setup: unknown;
  readonly battles: number;
  readonly seed: string;
  readonly workers: number;
  readonly policy: string;
  /** Called now and then with the battles finished so far. */
  readonly onProgress?: (done: number) => void;
}

export interface SimRun {
  /** Resolves with every battle played, or those played before stop() was called. */
  readonly result: Promise<Aggregate>;
  /** Ask the workers to finish the battle they are on and report what they have. */
  stop(): void;
}

/** Battle ranges for each worker: contiguous, covering 0..battles-1 exactly. */
export function splitBattles(battles: number, workers: number): { from: number; to: number }[] {
  const ranges: { from: number; to: number }[] = [];
  const share = Math.floor(battles / workers);
  let extra = battles % workers;
  let from = 0;
  for (let i = 0; i < workers; i++) {
    const to = from + share + (extra-- > 0 ? 1 : 0);
    ranges.push({ from, to });
    from = to;
  }
  return ranges;
}

export function defaultWorkers(): number {
  return Math.max(1, Math.min(MAX_WORKERS, availableParallelism()));
}

/**
 * Runs `battles` simulated battles over worker threads. Battle i always uses the seeds
 * `${seed}:${i}`, so the result is the same for a seed whatever the number of workers.
 * With one worker the battles run on this thread, which is also what tests and small runs want.
 */
export function simulate(options: SimOptions): SimRun {
  const policy = policyNamed(options.policy);
  if (policy === undefined) throw new Error(`unknown policy ${options.policy}`);
  const shared = new SharedArrayBuffer(4 * (1 + options.workers));
  const flags = new Int32Array(shared);
  const progress = (): number => {
    let done = 0;
    for (let i = 0; i < options.workers; i++) done += Atomics.load(flags, 1 + i);
    return done;
  };
  const stop = (): void => {
    Atomics.store(flags, 0, 1);
  };
  if (options.workers === 1) {
    const result = new Promise<Aggregate>((resolve, reject) => {
      // Let the caller install a Ctrl-C handler before the loop starts; yield every chunk.
      const aggregate = emptyAggregate();
      const chunk = 2_000;
      let next = 0;
      const step = (): void => {
        try {
          const to = Math.min(options.battles, next + chunk);
          mergeAggregates(
            aggregate,
            runBattles(
              options.system,
              options.setup,
              policy,
              { seed: options.seed, from: next, to },
              {
                shouldStop: () => Atomics.load(flags, 0) !== 0,
              },
            ),
          );
          next = to;
          Atomics.store(flags, 1, aggregate.battles);
          options.onProgress?.(aggregate.battles);
          if (next >= options.battles || Atomics.load(flags, 0) !== 0) resolve(aggregate);
          else setImmediate(step);
        } catch (error) {
          reject(error);
        }
      };
      setImmediate(step);
    });
    return { result, stop };
  }
  const typescript = import.meta.url.endsWith('.ts');
  const url = new URL(typescript ? './worker.ts' : './worker.js', import.meta.url);
  // Under tsx (tests, bench) the worker is TypeScript: it registers the same loader first.
  const start = (job: WorkerJob): Worker =>
    typescript
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`,
          { eval: true, workerData: job },
        )
      : new Worker(url, { workerData: job });
  const ranges = splitBattles(options.battles, options.workers);
  const timer = setInterval(() => options.onProgress?.(progress()), 200);
  const runs = ranges.map(
    (range, index) =>
      new Promise<Aggregate>((resolve, reject) => {
        const job: WorkerJob = {
          system: options.system.ruleset.id,
          setup: options.setup,
          policy: options.policy,
          seed: options.seed,
          from: range.from,
          to: range.to,
          shared,
          index,
        };
        const worker = start(job);
        worker.once('message', (aggregate: Aggregate) => resolve(aggregate));
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (code !== 0) reject(new Error(`a simulation worker stopped with code ${code}`));
        });
      }),
  );
  const result = Promise.all(runs)
    .then((parts) => parts.reduce(mergeAggregates, emptyAggregate()))
    .finally(() => {
      clearInterval(timer);
      options.onProgress?.(progress());
    });
  return { result, stop };
}
