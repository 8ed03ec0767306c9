import type { AnySystem } from '../rulesets/system.js';
import { type Aggregate, emptyAggregate, mergeAggregates } from './aggregate.js';
import type { Policy } from './policies.js';
import { runBattles } from './runner.js';
import type { WorkQueue } from './work-queue.js';

/** Plays one claimed chunk into `into`; false when the queue has nothing left for this thread. */
export function playChunk(
  system: AnySystem,
  setup: unknown,
  policy: Policy,
  seed: string,
  queue: WorkQueue,
  into: Aggregate,
  start?: unknown,
  kernel?: boolean,
): boolean {
  const range = queue.claim();
  if (range === undefined) return false;
  const part = runBattles(
    system,
    setup,
    policy,
    { seed, ...range },
    {
      shouldStop: () => queue.stopped(),
      ...(kernel === false ? { kernel } : {}),
    },
    start,
  );
  queue.finished(part.battles);
  mergeAggregates(into, part);
  return true;
}

/** Plays chunks until the queue is empty or stopped (a worker thread's whole life). */
export function playQueue(
  system: AnySystem,
  setup: unknown,
  policy: Policy,
  seed: string,
  queue: WorkQueue,
  start?: unknown,
  kernel?: boolean,
): Aggregate {
  const aggregate = emptyAggregate();
  while (playChunk(system, setup, policy, seed, queue, aggregate, start, kernel)) {
    // each chunk is merged as it finishes
  }
  return aggregate;
}
