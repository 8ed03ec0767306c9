import { availableParallelism } from 'node:os';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { formatContentErrors } from '../content/index.js';
import { randomSeed } from '../dice/random/seed.js';
import { readEncounterFile } from '../encounters/file.js';
import { SYSTEMS } from '../rulesets/index.js';
import { playersSide } from '../sim/players.js';
import { DEFAULT_POLICY, POLICIES, type Policy } from '../sim/policies.js';
import {
  assignPolicies,
  formatSidePolicies,
  policyForEncounter,
  readPolicySpec,
  sidePolicy,
} from '../sim/policy-spec.js';
import { buildReport, renderReport } from '../sim/report.js';
import { defaultWorkers, MAX_BATTLES, MAX_WORKERS, simulate } from '../sim/sim.js';
import { ExitStatus, parseSeed, UsageError, wholeFlag } from './input.js';
import type { Io } from './io.js';

/** 128 + SIGINT: what a shell reports for a program stopped by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

interface SimFlags {
  n: string;
  seed?: string;
  workers?: string;
  policy: string;
  json?: boolean;
  content?: string;
}

/**
 * The policy `battle --auto --policy <spec>` plays, read exactly as `sim` reads it (one name,
 * or `side=name,...` with the encounter's side ids). Battle checks its flags before it reads
 * the encounter, so the policy names are checked now and the side ids when the policy is first
 * asked to decide, against the encounter it plays. Either mistake is a UsageError: the command
 * exits 2 naming the policies or the sides that exist.
 */
export function policyForBattle(text: string = DEFAULT_POLICY): Policy {
  const spec = readPolicySpec(text);
  if (!spec.ok) throw new UsageError(spec.error.message);
  let chosen: Policy | undefined;
  return (system, state, actions, random) => {
    if (chosen === undefined) {
      const assigned = assignPolicies(spec.value, system.view(state).sides);
      if (!assigned.ok) throw new UsageError(assigned.error.message);
      chosen = sidePolicy(system, state, assigned.value);
    }
    return chosen(system, state, actions, random);
  };
}

export function registerSim(program: Command, io: Io): void {
  program
    .command('sim')
    .description('simulate an encounter many times: win rates, rounds, survival, damage')
    .argument('<encounter>', 'an encounter file (see docs/encounters.md)')
    .requiredOption('-n, --battles <n>', 'how many battles')
    .option('--seed <seed>', 'seed, for the same result again')
    .option('--workers <w>', 'worker threads (default: one per core)')
    .option(
      '--policy <spec>',
      `who decides: one of ${Object.keys(POLICIES).join(', ')} for every side, or side=name,... per side`,
      DEFAULT_POLICY,
    )
    .option('--json', 'print one JSON object')
    .option(
      '--content <folder>',
      "content in place of the system's starter content: a table's library from `moogle table content export`",
    )
    .action(async (path: string, flags: SimFlags & { battles: string }) => {
      const battles = wholeFlag(flags.battles, '-n', 1, MAX_BATTLES);
      const asked =
        flags.workers === undefined
          ? defaultWorkers()
          : wholeFlag(flags.workers, '--workers', 1, MAX_WORKERS);
      // More threads than cores only add memory (each loads the rules: 64 on 2 cores took
      // 3.3 GB) and switching (8 times slower): at most one per core, and say so.
      const cores = availableParallelism();
      const workers = Math.min(asked, cores);
      if (workers < asked && flags.json !== true) {
        io.err(`moogle: --workers ${asked} lowered to ${workers}, the number of cores`);
      }
      // The same rule as battle's --seed: '' is refused, not hashed.
      const seed = flags.seed === undefined ? String(randomSeed()) : String(parseSeed(flags.seed));
      const read = readEncounterFile(
        path,
        SYSTEMS,
        flags.content === undefined ? {} : { content: flags.content },
      );
      if (!read.ok) throw new UsageError(formatContentErrors(read.errors).join('\n'));
      const { system, setup } = read.encounter;
      // Side ids are the encounter's, so the spec is read only once the encounter is.
      const initial = system.ruleset.initialState(setup);
      const chosen = policyForEncounter(system, initial, flags.policy);
      if (!chosen.ok) throw new UsageError(chosen.error.message);
      const { policies } = chosen.value;
      const sides = system.view(initial).sides;
      const showProgress = flags.json !== true && process.stderr.isTTY === true;
      const bar = showProgress
        ? new SingleBar({
            format: 'sim [{bar}] {percentage}% | {value}/{total} battles | {rate}/s | {eta}s left',
            stream: process.stderr,
            hideCursor: true,
          })
        : undefined;
      const started = Date.now();
      bar?.start(battles, 0, { rate: 0 });
      const run = simulate({
        system,
        setup,
        battles,
        seed,
        workers: Math.min(workers, battles),
        policy: flags.policy,
        onProgress: (done) =>
          bar?.update(done, {
            rate: Math.round(done / Math.max(0.001, (Date.now() - started) / 1000)),
          }),
      });
      let interrupted = false;
      const onSigint = (): void => {
        interrupted = true;
        run.stop();
      };
      process.once('SIGINT', onSigint);
      try {
        const aggregate = await run.result;
        bar?.stop();
        const partial = interrupted && aggregate.battles < battles;
        const report = buildReport(aggregate, {
          seed,
          policy: formatSidePolicies(policies),
          policies,
          players: playersSide(setup, sides),
          workers: Math.min(workers, battles),
          interrupted: partial,
          sides,
        });
        if (flags.json) io.out(JSON.stringify(report));
        else for (const line of renderReport(report)) io.out(line);
        if (partial) {
          throw new ExitStatus(
            EXIT_INTERRUPTED,
            `interrupted after ${aggregate.battles} of ${battles} battles: the result is partial`,
          );
        }
      } finally {
        process.removeListener('SIGINT', onSigint);
      }
    });
}
