/**
 * A simulation worker: plays its range of battles and posts the aggregate back. Progress and
 * the stop request travel through shared memory, so the battle loop never waits on messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemById } from '../rulesets/index.js';
import { policyNamed } from './policies.js';
import { runBattles } from './runner.js';

export interface WorkerJob {
  readonly system: string;
  readonly setup: unknown;
  readonly policy: string;
  readonly seed: string;
  readonly from: number;
  readonly to: number;
  /** Int32 slots: [0] the stop flag, [1 + worker] battles done by each worker. */
  readonly shared: SharedArrayBuffer;
  readonly index: number;
}

const job = workerData as WorkerJob;
const system = systemById(job.system);
const policy = policyNamed(job.policy);
if (system === undefined || policy === undefined || parentPort === null) {
  throw new Error(
    `simulation worker started without a known system and policy (${job.system}, ${job.policy})`,
  );
}
const flags = new Int32Array(job.shared);
const aggregate = runBattles(system, job.setup, policy, job, {
  shouldStop: () => Atomics.load(flags, 0) !== 0,
  progress: (done) => Atomics.store(flags, 1 + job.index, done),
});
parentPort.postMessage(aggregate);
