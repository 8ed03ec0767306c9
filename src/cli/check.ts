import type { Command } from 'commander';
import { seededDice } from '../dice/index.js';
import { randomSeed } from '../index.js';
import {
  CheckError,
  chanceOfSuccess,
  type PercentileRoll,
  parseConditionalModifier,
  RULE_OF_10_MAX,
  resolveTaskCheckAgainst,
  rollPercentile,
  type TaskCheckResult,
  taskCheckNeedsRoll,
} from '../rulesets/ffrpg/checks/index.js';
import { checkShiningForce, type ShiningForceCheckFlags } from './check/shining-force.js';
import { parseSeed, UsageError } from './input.js';
import type { Io } from './io.js';

/** The systems `moogle check` knows; each is a Task Check of its own rule text. */
export const CHECK_SYSTEMS = ['ffrpg', 'shining-force'] as const;

interface CheckFlags extends ShiningForceCheckFlags {
  rating?: string;
  modifier?: string;
  roll?: string;
  seed?: string;
  impossible?: boolean;
  json?: boolean;
}

export function registerCheck(program: Command, io: Io): void {
  program
    .command('check')
    .description(
      'resolve a check: moogle check ffrpg --rating 50 --modifier easy; moogle check shining-force --evade 9 --critical 5 --counter 15',
    )
    .argument('<system>', `the game: ${CHECK_SYSTEMS.join(', ')}`)
    .option('--rating <rating>', 'ffrpg: the Skill or Attribute Rating')
    .option(
      '--modifier <modifier>',
      'ffrpg: the Conditional Modifier: -80 to +80, or a Task Difficulty (elementary ... impossible)',
    )
    .option('--evade <rate>', "shining-force: the target's evade rate")
    .option('--critical <rate>', "shining-force: the attacker's critical rate")
    .option('--counter <rate>', "shining-force: the target's counter rate")
    .option('--rolls <a,b,c,d,e>', 'shining-force: the five d100s rolled at the table')
    .option('--d15 <x,y>', 'shining-force: the 1d15 of each variance that applies, in order')
    .option('--roll <d%>', 'the d% rolled at the table, 1 to 100 (0 and 0 is 100)')
    .option('--seed <seed>', 'seed the d%, to roll the same again')
    .option('--impossible', 'the GM declares the task impossible: no Rule of 10')
    .option('--json', 'print one JSON object')
    .action((system: string, flags: CheckFlags) => {
      if (!(CHECK_SYSTEMS as readonly string[]).includes(system)) {
        throw new UsageError(
          `unknown system '${system}': known systems are ${CHECK_SYSTEMS.join(', ')}`,
        );
      }
      const foreign =
        system === 'ffrpg'
          ? (['evade', 'critical', 'counter', 'rolls', 'd15'] as const).filter(
              (f) => flags[f] !== undefined,
            )
          : (['rating', 'modifier', 'roll', 'impossible'] as const).filter(
              (f) => flags[f] !== undefined,
            );
      if (foreign.length > 0) {
        throw new UsageError(`check ${system} takes no ${foreign.map((f) => `--${f}`).join(', ')}`);
      }
      if (system === 'shining-force') {
        checkShiningForce(flags, io);
        return;
      }
      try {
        checkFfrpg(flags, io);
      } catch (error) {
        // The rules engine's typed errors are the user's input being rejected here.
        if (error instanceof CheckError) throw new UsageError(`${flagOf(error)}${error.message}`);
        throw error;
      }
    });
}

function checkFfrpg(flags: CheckFlags, io: Io): void {
  if (flags.roll !== undefined && flags.seed !== undefined) {
    throw new UsageError('give --seed or --roll, not both');
  }
  if (flags.rating === undefined || flags.modifier === undefined) {
    throw new UsageError(
      `check ffrpg needs ${flags.rating === undefined ? '--rating' : '--modifier'}`,
    );
  }
  const rating = wholeNumber(
    flags.rating,
    '--rating',
    'Skill Ratings are whole numbers from 1 to 100, Attribute Ratings from 13 to 100',
  );
  if (rating < 1 || rating > 100) {
    throw new UsageError(
      `--rating: ${rating} is not a Rating (Skill Ratings run 1 to 100, Attribute Ratings 13 to 100); put bonuses in --modifier`,
    );
  }
  const modifier = parseConditionalModifier(flags.modifier);
  if (!modifier.ok) throw new UsageError(`--modifier: ${modifier.error.message}`);
  const entered =
    flags.roll === undefined
      ? undefined
      : wholeNumber(flags.roll, '--roll', 'a d% roll is 1 to 100, and 0 and 0 is 100');
  const cos = chanceOfSuccess(rating, modifier.value);
  const options = { impossible: flags.impossible === true };

  let percentile: PercentileRoll | undefined;
  let roll = entered;
  if (roll === undefined && taskCheckNeedsRoll(cos)) {
    percentile = rollPercentile(
      seededDice(flags.seed === undefined ? randomSeed() : parseSeed(flags.seed)),
    );
    roll = percentile.total;
  }
  const check = resolveTaskCheckAgainst(cos, roll, options);

  if (flags.json) {
    io.out(
      JSON.stringify({
        system: 'ffrpg',
        cos: check.cos,
        roll: check.roll,
        success: check.success,
        critical: check.critical,
        botch: check.botch,
        ruleOf10: check.ruleOf10,
        automatic: check.automatic,
        margin: check.margin,
      }),
    );
    return;
  }
  const head = `CoS ${cos} (rating ${rating} + modifier ${signed(modifier.value)})`;
  if (check.automatic) {
    io.out(`${head}: succeeds automatically, no roll`);
    // A die rolled out of habit is not an error, but the GM should know it was not used.
    if (entered !== undefined) {
      io.out(`(--roll ${entered} ignored: a CoS of 100 or more needs none)`);
    }
    return;
  }
  const dice =
    percentile === undefined ? '' : ` [${percentile.tensDigit}0+${percentile.onesDigit}]`;
  const outcome = verdict(check, options.impossible);
  io.out(`${head}: rolled ${check.roll}${dice}: ${outcome}, margin ${check.margin}`);
}

function flagOf(error: CheckError): string {
  if (error.code === 'check/roll-out-of-range') return '--roll: ';
  if (error.code === 'check/bad-rating') return '--rating: ';
  return '';
}

function verdict(check: TaskCheckResult, impossible: boolean): string {
  if (check.critical) return 'Critical Success';
  if (check.ruleOf10) return 'success under the Rule of 10 (not a Critical Success)';
  if (check.success) return 'success';
  // At a CoS of 95 or more a Botch fails a roll the CoS would have passed: say so.
  if (check.botch && check.margin !== null && check.margin >= 0) {
    return 'Botch (fails though at or under the CoS)';
  }
  if (check.botch) return 'Botch (failure)';
  // Otherwise a GM would wonder why a 7 failed when "a character will always succeed on a roll
  // of 10 or less".
  if (impossible && check.roll !== null && check.roll <= RULE_OF_10_MAX) {
    return 'failure (declared impossible: no Rule of 10)';
  }
  return 'failure';
}

function wholeNumber(text: string, flag: string, why: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?\d{1,16}$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new UsageError(`${flag}: '${text}' is not a whole number (${why})`);
  }
  return Number(trimmed);
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}
