import { availableParallelism } from 'node:os';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatContentErrors } from '../content/index.js';
import { randomSeed } from '../dice/random/seed.js';
import { readEncounterFile } from '../encounters/file.js';
import { SYSTEMS } from '../rulesets/index.js';
import {
  BalanceRefusal,
  balanceSearch,
  DEFAULT_BATTLES_PER_POINT,
  DEFAULT_BUDGET_POINTS,
} from '../sim/balance/balance.js';
import { renderBalance } from '../sim/balance/chart.js';
import { DEFAULT_TOLERANCE } from '../sim/balance/search.js';
import { readRate, readTargetSpec, readVarySpec } from '../sim/balance/spec.js';
import { DEFAULT_POLICY, POLICIES } from '../sim/policies.js';
import { readPolicySpec } from '../sim/policy-spec.js';
import { defaultWorkers, MAX_BATTLES, MAX_WORKERS } from '../sim/sim.js';
import { ExitStatus, parseSeed, UsageError, wholeFlag } from './input.js';
import type { Io } from './io.js';
import { EXIT_INTERRUPTED } from './sim.js';

/** The target lies outside the win rates the range gives: no value in it will do. */
export const EXIT_OUTSIDE = 3;

interface BalanceFlags {
  vary: string;
  target: string;
  battles?: string;
  step?: string;
  budget?: string;
  tolerance?: string;
  seed?: string;
  workers?: string;
  policy: string;
  json?: boolean;
}

function positive(text: string, flag: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} takes a number above 0, got '${text}'`);
  }
  return value;
}

function readTolerance(text: string): number {
  const rate = readRate(text);
  if (rate === undefined) {
    throw new UsageError(`--tolerance takes a win rate, as 0.03 or 3%, got '${text}'`);
  }
  return rate;
}

export function registerBalance(program: Command, io: Io): void {
  program
    .command('balance')
    .description('find the value of a sheet field that gives a side a win rate, by simulation')
    .argument('<encounter>', 'an encounter file (see docs/encounters.md)')
    .requiredOption(
      '--vary <spec>',
      "<combatant>.<field>=<low>..<high>, as heket.stats.hp=100..400 (a sheet field), goblin-2.maxHp=5..60 (one entry's maximum HP) or ogre.count=1..6",
    )
    .requiredOption('--target <spec>', '<side>=<rate>, as party=0.5 or party=50%')
    .option(
      '-n, --battles <n>',
      `battles a point to start with (default ${DEFAULT_BATTLES_PER_POINT})`,
    )
    .option('--step <s>', 'distance between values tried (default 1 for whole numbers)')
    .option(
      '--budget <battles>',
      `the most battles in all (default ${DEFAULT_BUDGET_POINTS} times -n)`,
    )
    .option(
      '--tolerance <rate>',
      `how near the target the answer's rate must be measured, as 0.03 or 3% (default ${DEFAULT_TOLERANCE * 100}%)`,
    )
    .option('--seed <seed>', 'seed, for the same result again')
    .option('--workers <w>', 'worker threads (default: one per core)')
    .option(
      '--policy <spec>',
      `who decides: one of ${Object.keys(POLICIES).join(', ')} for every side, or side=name,... per side`,
      DEFAULT_POLICY,
    )
    .option('--json', 'print one JSON object')
    .action(async (path: string, flags: BalanceFlags) => {
      const vary = readVarySpec(flags.vary);
      if (!vary.ok) throw new UsageError(vary.error.message);
      const target = readTargetSpec(flags.target);
      if (!target.ok) throw new UsageError(target.error.message);
      const policy = readPolicySpec(flags.policy);
      if (!policy.ok) throw new UsageError(policy.error.message);
      const battles =
        flags.battles === undefined
          ? DEFAULT_BATTLES_PER_POINT
          : wholeFlag(flags.battles, '-n', 1, MAX_BATTLES);
      const budget =
        flags.budget === undefined
          ? Math.min(MAX_BATTLES, battles * DEFAULT_BUDGET_POINTS)
          : wholeFlag(flags.budget, '--budget', 1, MAX_BATTLES);
      const step = flags.step === undefined ? undefined : positive(flags.step, '--step');
      const tolerance = flags.tolerance === undefined ? undefined : readTolerance(flags.tolerance);
      const asked =
        flags.workers === undefined
          ? defaultWorkers()
          : wholeFlag(flags.workers, '--workers', 1, MAX_WORKERS);
      const workers = Math.min(asked, availableParallelism());
      const seed = flags.seed === undefined ? String(randomSeed()) : String(parseSeed(flags.seed));
      const read = readEncounterFile(path, SYSTEMS);
      if (!read.ok) throw new UsageError(formatContentErrors(read.errors).join('\n'));
      const bar =
        flags.json !== true && process.stderr.isTTY === true
          ? new SingleBar({
              format: 'balance [{bar}] {value} battles of at most {total}',
              stream: process.stderr,
              hideCursor: true,
            })
          : undefined;
      const started = balanceSearch({
        encounter: read.encounter,
        vary: vary.value,
        target: target.value,
        battles,
        totalBattles: budget,
        seed,
        workers,
        policy: flags.policy,
        onProgress: (done) => bar?.update(done),
        ...(step === undefined ? {} : { step }),
        ...(tolerance === undefined ? {} : { tolerance }),
      });
      if (!started.ok) throw new UsageError(started.error.message);
      const run = started.value;
      bar?.start(budget, 0);
      const onSigint = (): void => run.stop();
      process.once('SIGINT', onSigint);
      try {
        const result = await run.result
          .catch((error: unknown) => {
            if (error instanceof BalanceRefusal) throw new UsageError(error.message);
            throw error;
          })
          .finally(() => bar?.stop());
        if (flags.json) io.out(JSON.stringify(result));
        else for (const line of renderBalance(result)) io.out(line);
        if (result.interrupted) {
          throw new ExitStatus(
            EXIT_INTERRUPTED,
            `interrupted after ${result.battles} battles: the result is partial`,
          );
        }
        if (result.outside !== null) {
          const name = `${vary.value.combatant}.${vary.value.field}`;
          throw new ExitStatus(
            EXIT_OUTSIDE,
            `the target ${flags.target} lies ${result.outside} the win rates ${name} gives from ${vary.value.low} to ${vary.value.high}`,
          );
        }
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    });
}
