/**
 * A simulation worker: claims chunks of battles from the shared queue until none are left and
 * posts its aggregate back. Progress and the stop request travel through shared memory, so the
 * battle loop never waits on messages.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { playQueue } from './play-queue.js';
import { policyForEncounter } from './policy-spec.js';
import { loadSystem } from './system-loaders.js';
import { WorkQueue } from './work-queue.js';

export interface WorkerJob {
  readonly system: string;
  readonly setup: unknown;
  /** The state every battle starts from (SimOptions.start); the setup's initial state if absent. */
  readonly start?: unknown;
  /** The policy spec as the user gave it (`random`, `party=random,enemies=attacker`). */
  readonly policy: string;
  readonly seed: string;
  readonly battles: number;
  readonly shared: SharedArrayBuffer;
  /** SimOptions.kernel. */
  readonly kernel?: boolean;
  /** SimOptions.background: this thread's nice value, 19 the lowest priority. */
  readonly nice?: number;
}

const job = workerData as WorkerJob;
// On Linux a nice value is a thread's own, so this lowers only this thread; elsewhere it would
// lower the whole process, the server's event loop with it, so there it is left alone.
if (job.nice !== undefined && process.platform === 'linux') setPriority(job.nice);
const system = await loadSystem(job.system);
if (system === undefined || parentPort === null) {
  throw new Error(`simulation worker started without a known system (${job.system})`);
}
// The spec, read again here: a function cannot cross to a thread, and the same text against
// the same state gives the same policy for every side.
const start = job.start ?? system.ruleset.initialState(job.setup);
const chosen = policyForEncounter(system, start, job.policy);
if (!chosen.ok) throw new Error(`simulation worker: ${chosen.error.message}`);
const queue = new WorkQueue(job.shared, job.battles);
parentPort.postMessage(
  playQueue(system, job.setup, chosen.value.policy, job.seed, queue, job.start, job.kernel),
);
