/**
 * A simulation worker: claims chunks of battles from the shared queue until none are left and
 * posts its aggregate back. Progress and the stop request travel through shared memory, so the
 * battle loop never waits on messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemById } from '../rulesets/index.js';
import { playQueue } from './play-queue.js';
import { policyNamed } from './policies.js';
import { WorkQueue } from './work-queue.js';

export interface WorkerJob {
  readonly system: string;
  readonly setup: unknown;
  readonly policy: string;
  readonly seed: string;
  readonly battles: number;
  readonly shared: SharedArrayBuffer;
}

const job = workerData as WorkerJob;
const system = systemById(job.system);
const policy = policyNamed(job.policy);
if (system === undefined || policy === undefined || parentPort === null) {
  throw new Error(
    `simulation worker started without a known system and policy (${job.system}, ${job.policy})`,
  );
}
const queue = new WorkQueue(job.shared, job.battles);
parentPort.postMessage(playQueue(system, job.setup, policy, job.seed, queue));
