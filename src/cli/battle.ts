import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { formatContentErrors } from '../content/index.js';
import { seededDice } from '../dice/index.js';
import { randomSeed } from '../dice/random/seed.js';
import { readEncounterFile } from '../encounters/file.js';
import { type AnyEncounter, Encounter, loadEncounter } from '../engine/index.js';
import { writeAtomically } from '../files/write-all.js';
import { RULESETS, SYSTEMS } from '../rulesets/index.js';
import type { AnySystem } from '../rulesets/system.js';
import { DEFAULT_POLICY, POLICIES, type Policy } from '../sim/policies.js';
import { newAutosavePath } from './battle/autosave.js';
import { LineReader } from './battle/lines.js';
import { eventLines, outcomeLine, stateLines } from './battle/screen.js';
import { BattleSession, ScriptStopped } from './battle/session.js';
import { ExitStatus, parseSeed, UsageError } from './input.js';
import type { Io } from './io.js';
import { readSaveJson } from './read-save.js';
import { policyForBattle } from './sim.js';

/** --auto stops here: a policy that never ends a battle must not run forever. */
export const MAX_AUTO_COMMANDS = 10_000;

interface BattleFlags {
  seed?: string;
  load?: string;
  auto?: boolean;
  policy?: string;
  dice?: string;
  /** A path, or false for --no-autosave. */
  autosave?: string | false;
  keepGoing?: boolean;
  content?: string;
}

export function registerBattle(program: Command, io: Io): void {
  const policies = Object.keys(POLICIES).join(', ');
  program
    .command('battle')
    .description('play an encounter in the terminal: moogle battle examples/ffrpg-wind-cave.yaml')
    .argument('<encounter>', 'an encounter file (docs/encounters.md)')
    .option('--seed <seed>', 'seed the dice, to play the same battle again')
    .option('--load <save>', 'resume a save written by the save command')
    .option('--auto', 'let a policy play every side to the end')
    .option(
      '--policy <name>',
      `the policy for --auto: ${policies} (default ${DEFAULT_POLICY}), or one per side: party=random,enemies=attacker`,
    )
    .option(
      '--dice <mode>',
      'manual: ask for every roll (physical dice, typed as they lie: 10, 3 5, or total:N for a total with modifiers); auto: roll them',
      'auto',
    )
    .option(
      '--autosave <file>',
      'write every accepted command here at once (default: a new file in ./moogle-saves)',
    )
    .option('--no-autosave', 'keep no autosave')
    .option('--keep-going', 'from a script: go on past a rejected line instead of stopping')
    .option(
      '--content <folder>',
      "content in place of the system's starter content: a table's library from `moogle table content export`",
    )
    .action((file: string, flags: BattleFlags) => runBattle(file, flags, io));
}

async function runBattle(file: string, flags: BattleFlags, io: Io): Promise<void> {
  if (flags.dice !== 'manual' && flags.dice !== 'auto') {
    throw new UsageError(`--dice is manual or auto, not '${flags.dice}'`);
  }
  if (flags.auto && flags.dice === 'manual') {
    throw new UsageError('--auto rolls every die itself: drop --dice manual');
  }
  if (flags.policy !== undefined && !flags.auto) throw new UsageError('--policy needs --auto');
  const policy = policyForBattle(flags.policy);
  const seed = flags.seed === undefined ? randomSeed() : parseSeed(flags.seed);

  const read = readEncounterFile(
    file,
    SYSTEMS,
    flags.content === undefined ? {} : { content: flags.content },
  );
  if (!read.ok) throw new UsageError(formatContentErrors(read.errors).join('\n'));
  const { system, setup, name, library } = read.encounter;
  const encounter =
    flags.load === undefined ? created(system, setup, seed) : loaded(system, flags.load);

  const autosave = autosavePath(file, flags);
  io.out(`${name} (${system.ruleset.name})`);
  // The seed decides the dice of a new battle and the policy's choices: print it to replay.
  if (flags.load === undefined || flags.auto) {
    io.out(`Seed ${seed}: --seed ${seed} plays it again`);
  }
  if (flags.load !== undefined) {
    io.out(`Resumed ${flags.load}: ${encounter.undoable} commands in force`);
  }
  if (flags.auto) {
    autoPlay(io, system, encounter, policy, seed);
    if (autosave !== undefined) {
      try {
        writeAtomically(autosave, `${JSON.stringify(encounter.save())}\n`);
      } catch (error) {
        throw new ExitStatus(
          2,
          `cannot write the autosave ${autosave}: ${(error as Error).message}`,
        );
      }
      io.out(`Autosaved to ${autosave}; --load ${autosave} resumes it.`);
    }
    return;
  }
  if (autosave !== undefined) io.out(`Autosave: ${autosave} (every command, as it is accepted)`);
  const input = io.input ?? process.stdin;
  const reader = new LineReader(input, io, input.isTTY === true && io.write !== undefined);
  if (reader.interactive) io.out('Type help for the commands.');
  // Ctrl-C ends the program at once; every accepted command is already in the autosave, so say
  // where, and exit as interrupted.
  const interrupted = (): void => {
    io.out('');
    io.out(
      autosave === undefined
        ? 'Interrupted.'
        : `Interrupted: every accepted command is in ${autosave}; --load ${autosave} resumes it.`,
    );
    process.exit(130);
  };
  if (reader.interactive) process.once('SIGINT', interrupted);
  try {
    await new BattleSession(io, system, encounter, reader, {
      manual: flags.dice === 'manual',
      library,
      encounterFile: file,
      keepGoing: flags.keepGoing === true,
      ...(autosave === undefined ? {} : { autosave }),
    }).run();
  } catch (error) {
    if (error instanceof ScriptStopped) throw new UsageError(error.message);
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupted);
    reader.close();
  }
}

/** The autosave file: the one named, none with --no-autosave, else a new one in the saves folder. */
function autosavePath(encounterFile: string, flags: BattleFlags): string | undefined {
  if (flags.autosave === false) return undefined;
  if (typeof flags.autosave === 'string') {
    if (resolve(flags.autosave) === resolve(encounterFile))
      throw new UsageError('--autosave names the encounter file; choose another file');
    return flags.autosave;
  }
  try {
    return newAutosavePath(encounterFile, new Date(), existsSync);
  } catch (error) {
    throw new UsageError(`cannot make the autosave folder: ${(error as Error).message}`);
  }
}

function created(system: AnySystem, setup: unknown, seed: number | string): AnyEncounter {
  const result = Encounter.create(system.ruleset, setup, seed);
  if (!result.ok) throw new UsageError(result.error.message);
  return result.value;
}

function loaded(system: AnySystem, file: string): AnyEncounter {
  const json = readSaveJson(file);
  const result = loadEncounter(json, RULESETS);
  if (!result.ok) throw new UsageError(`${file}: ${result.error.message}`);
  if (result.value.ruleset.id !== system.ruleset.id) {
    throw new UsageError(
      `${file}: the save is for ${result.value.ruleset.name}, the encounter file for ${system.ruleset.name}`,
    );
  }
  return result.value;
}

/**
 * The policy plays every side, printing each command's events, until the battle ends. Its
 * choices come from their own seeded stream, so the battle's dice are the same as a person
 * playing the same actions would get.
 */
function autoPlay(
  io: Io,
  system: AnySystem,
  encounter: AnyEncounter,
  policy: Policy,
  seed: number | string,
): void {
  const random = seededDice(`${seed}:policy`);
  for (let commands = 0; !encounter.outcome().over; commands++) {
    if (commands === MAX_AUTO_COMMANDS) {
      io.out(`Stopped after ${MAX_AUTO_COMMANDS} commands: the battle had not ended.`);
      return;
    }
    const actions = encounter.legalActions();
    if (actions.length === 0) {
      io.out('Stopped: nobody can act, and the battle has not ended.');
      return;
    }
    const action = policy(system, encounter.state, actions, random);
    const result = encounter.submit(action.command);
    if (!result.ok) {
      // A legal action refused is a bug in the ruleset, not something the user did.
      throw new Error(
        `the rules refused their own legal action '${action.label}': ${result.error.message}`,
      );
    }
    for (const line of eventLines(system, result.value, encounter.state, action.label))
      io.out(line);
  }
  for (const line of stateLines(system, encounter)) io.out(line);
  io.out(outcomeLine(system, encounter, encounter.outcome()));
}
