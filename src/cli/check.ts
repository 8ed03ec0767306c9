import type { Command } from 'commander';
import { checkFfrpg } from './check/ffrpg.js';
import { checkFfviii } from './check/ffviii.js';
import type { CheckFlags } from './check/flags.js';
import { checkShiningForce } from './check/shining-force.js';
import { checkZodiac } from './check/zodiac.js';
import { UsageError } from './input.js';
import type { Io } from './io.js';

interface CheckSystem {
  readonly run: (flags: CheckFlags, io: Io) => void;
  /** The flags this system reads; any other given is an error, not silently ignored. */
  readonly flags: readonly (keyof CheckFlags)[];
}

/** The systems `moogle check` knows; each is the basic check of its own rule text. */
const CHECKS: Readonly<Record<string, CheckSystem>> = {
  ffrpg: { run: checkFfrpg, flags: ['rating', 'modifier', 'roll', 'seed', 'impossible', 'json'] },
  ffviii: {
    run: checkFfviii,
    flags: ['actionValue', 'difficulty', 'roll', 'boxcars', 'seed', 'json'],
  },
  zodiac: { run: checkZodiac, flags: ['accuracy', 'evade', 'critical', 'roll', 'seed', 'json'] },
  'shining-force': {
    run: checkShiningForce,
    flags: ['evade', 'critical', 'counter', 'rolls', 'd15', 'seed', 'json'],
  },
};

export const CHECK_SYSTEMS = Object.keys(CHECKS);

const FLAG_NAMES: Readonly<Record<keyof CheckFlags, string>> = {
  rating: '--rating',
  modifier: '--modifier',
  actionValue: '--action-value',
  difficulty: '--difficulty',
  boxcars: '--boxcars',
  accuracy: '--accuracy',
  evade: '--evade',
  critical: '--critical',
  counter: '--counter',
  rolls: '--rolls',
  d15: '--d15',
  roll: '--roll',
  seed: '--seed',
  impossible: '--impossible',
  json: '--json',
};

export function registerCheck(program: Command, io: Io): void {
  program
    .command('check')
    .description(
      'resolve a check: moogle check ffrpg --rating 50 --modifier easy; moogle check ffviii --action-value 11 --difficulty 6; moogle check zodiac --accuracy 40 --evade 60; moogle check shining-force --evade 9 --critical 5 --counter 15',
    )
    .argument('<system>', `the game: ${CHECK_SYSTEMS.join(', ')}`)
    .option('--rating <rating>', 'ffrpg: the Skill or Attribute Rating')
    .option(
      '--modifier <modifier>',
      'ffrpg: the Conditional Modifier, -80 to +80, or a Task Difficulty (elementary ... impossible)',
    )
    .option('--impossible', 'ffrpg: the GM declares the task impossible: no Rule of 10')
    .option('--action-value <av>', 'ffviii: the Action Value (Attribute + Skill)')
    .option('--difficulty <d>', "ffviii: the difficulty (the target's Dodge, Magic Evade ...)")
    .option('--boxcars', 'ffviii: with --roll, both dice came up six')
    .option('--accuracy <n>', "zodiac: the attacker's Accuracy")
    .option('--evade <n>', "zodiac: the target's Evade; shining-force: its evade rate")
    .option('--critical <n>', "zodiac: the attacker's Critical stat; shining-force: its rate")
    .option('--counter <rate>', "shining-force: the target's counter rate")
    .option('--rolls <a,b,c,d,e>', 'shining-force: the five d100s rolled at the table')
    .option('--d15 <x,y>', 'shining-force: the 1d15 of each variance that applies, in order')
    .option(
      '--roll <n>',
      'the dice rolled at the table (ffrpg, zodiac: the d%, 1 to 100; ffviii: positive - negative die)',
    )
    .option('--seed <seed>', 'seed the dice, to roll the same again')
    .option('--json', 'print one JSON object')
    .action((system: string, flags: CheckFlags) => {
      const check = Object.hasOwn(CHECKS, system) ? CHECKS[system] : undefined;
      if (check === undefined) {
        throw new UsageError(
          `unknown system '${system}': known systems are ${CHECK_SYSTEMS.join(', ')}`,
        );
      }
      for (const [flag, value] of Object.entries(flags) as [keyof CheckFlags, unknown][]) {
        if (value !== undefined && !check.flags.includes(flag))
          throw new UsageError(`${FLAG_NAMES[flag]} is not an option of moogle check ${system}`);
      }
      check.run(flags, io);
    });
}
