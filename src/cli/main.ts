import { Command, CommanderError } from 'commander';
import { registerBalance } from './balance.js';
import { registerBattle } from './battle.js';
import { registerCheck } from './check.js';
import { registerDemo } from './demo.js';
import { describeUserError, ExitStatus } from './input.js';
import { type Io, processIo } from './io.js';
import { registerOdds } from './odds.js';
import { registerRoll } from './roll.js';
import { registerSchemas } from './schemas.js';
import { registerServe } from './serve.js';
import { registerSim } from './sim.js';
import { registerTable } from './table.js';

/** Exit statuses: 0 success, 2 the user's input was rejected, 1 Moogle itself failed. */
export const EXIT_OK = 0;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 1;

export function buildProgram(io: Io): Command {
  const program = new Command('moogle')
    .description('Rules engine and game-master companion for Final-Fantasy-style tabletop RPGs')
    .version('0.1.0')
    .showHelpAfterError('(run moogle --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.replace(/\n$/, '')),
      writeErr: (text) => io.err(text.replace(/\n$/, '')),
    });
  registerRoll(program, io);
  registerOdds(program, io);
  registerCheck(program, io);
  registerDemo(program, io);
  registerSchemas(program, io);
  registerBattle(program, io);
  registerSim(program, io);
  registerServe(program, io);
  registerTable(program, io);
  registerBalance(program, io);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit status. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const program = buildProgram(io);
  try {
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
