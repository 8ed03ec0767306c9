import { Command, CommanderError } from 'commander';
import { describeUserError, ExitStatus } from './input.js';
import { type Io, processIo } from './io.js';

type Register = (program: Command, io: Io) => void;

/**
 * Each command's module, loaded only when it is run (or for the whole help): `moogle roll`
 * should not wait for the rulesets, the simulator and the server to load. In the order the
 * help lists them.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  roll: async () => (await import('./roll.js')).registerRoll,
  odds: async () => (await import('./odds.js')).registerOdds,
  check: async () => (await import('./check.js')).registerCheck,
  demo: async () => (await import('./demo.js')).registerDemo,
  schemas: async () => (await import('./schemas.js')).registerSchemas,
  battle: async () => (await import('./battle.js')).registerBattle,
  sim: async () => (await import('./sim.js')).registerSim,
  serve: async () => (await import('./serve.js')).registerServe,
  table: async () => (await import('./table.js')).registerTable,
  balance: async () => (await import('./balance.js')).registerBalance,
};

/** Exit statuses: 0 success, 2 the user's input was rejected, 1 Moogle itself failed. */
export const EXIT_OK = 0;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 1;

/**
 * The program with `command` alone when it names one (what a run needs), else with every
 * command (the help, a misspelt command's suggestion).
 */
export async function buildProgram(io: Io, command?: string): Promise<Command> {
  const program = new Command('moogle')
    .description('Rules engine and game-master companion for Final-Fantasy-style tabletop RPGs')
    .version('0.1.0')
    .showHelpAfterError('(run moogle --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, '')),
      writeErr: (text) => io.err(text.replace(/\n$/, '')),
    });
  const names =
    command !== undefined && Object.hasOwn(COMMANDS, command) ? [command] : Object.keys(COMMANDS);
  const registers = await Promise.all(names.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, io);
  for (const c of program.commands) c.exitOverride();
  return program;
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit status. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    const program = await buildProgram(io, argv[2]);
    await program.parseAsync([...argv]);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; anything commander rejected is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof ExitStatus) {
      io.err(`moogle: ${error.message}`);
      return error.status;
    }
    const message = describeUserError(error);
    if (message !== undefined) {
      io.err(`moogle: ${message}`);
      return EXIT_USAGE;
    }
    io.err(
      `moogle: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return EXIT_INTERNAL;
  }
}
