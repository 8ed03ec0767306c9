/**
 * A tune or a predicted win rate, played whole on this one thread: the balance search's batches
 * are small (100-1,600 battles), and a worker per batch would pay a worker's start-up (loading
 * the rules) every batch. Progress goes back as messages; a cancel terminates the thread.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ContentLibrary } from '../../content/index.js';
import { balanceSearch } from '../../sim/balance/balance.js';
import { playersSide } from '../../sim/players.js';
import { DEFAULT_POLICY } from '../../sim/policies.js';
import { wilson } from '../../sim/report.js';
import { simulate } from '../../sim/sim.js';
import { loadSystem } from '../../sim/system-loaders.js';
import { draftEncounter } from './draft.js';
import type { TuneJob, TuneMessage } from './job.js';

const job = workerData as TuneJob;
const port = parentPort;
const post = (message: TuneMessage): void => port?.postMessage(message);
if (process.platform === 'linux') setPriority(19);

async function main(): Promise<TuneMessage> {
  const system = await loadSystem(job.system);
  if (system === undefined) return { type: 'failed', message: `unknown system ${job.system}` };
  const library = ContentLibrary.fromJSON(job.library);
  const encounter = draftEncounter(system, library, job.roster, job.file);
  if (!encounter.ok) return { type: 'failed', message: encounter.error.message };
  const sides = system.view(system.ruleset.initialState(encounter.value.setup)).sides;
  const party = playersSide(encounter.value.setup, sides)?.id ?? sides[0]!.id;
  let last = 0;
  const progress = (battles: number): void => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    post({ type: 'progress', battles });
  };
  if (job.kind === 'predict') {
    const run = simulate({
      system,
      setup: encounter.value.setup,
      battles: job.battles,
      seed: job.seed,
      workers: 1,
      policy: DEFAULT_POLICY,
      onProgress: progress,
    });
    const aggregate = await run.result;
    const wins = aggregate.wins[party] ?? 0;
    const [low, high] = wilson(wins, aggregate.battles);
    const rate = aggregate.battles === 0 ? 0 : wins / aggregate.battles;
    return {
      type: 'prediction',
      prediction: {
        side: party,
        battles: aggregate.battles,
        wins,
        rate,
        low: Math.min(low, rate),
        high: Math.max(high, rate),
      },
    };
  }
  const started = balanceSearch({
    encounter: encounter.value,
    vary: job.vary,
    target: { side: party, rate: job.target },
    seed: job.seed,
    workers: 1,
    onProgress: progress,
  });
  if (!started.ok) return { type: 'failed', message: started.error.message };
  return { type: 'result', result: await started.value.result };
}

post(await main().catch((error: unknown) => ({ type: 'failed' as const, message: String(error) })));
