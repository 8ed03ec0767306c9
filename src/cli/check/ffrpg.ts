import { seededDice } from '../../dice/index.js';
import { randomSeed } from '../../dice/random/seed.js';
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
} from '../../rulesets/ffrpg/checks/index.js';
import { parseSeed, UsageError } from '../input.js';
import type { Io } from '../io.js';

import type { CheckFlags } from './flags.js';
import { required, signed, wholeNumber } from './numbers.js';

/** FFRPG: a Task Check, d% against a CoS of Rating + Conditional Modifier. */
export function checkFfrpg(flags: CheckFlags, io: Io): void {
  try {
    taskCheck(flags, io);
  } catch (error) {
    // The rules engine's typed errors are the user's input being rejected here.
    if (error instanceof CheckError) throw new UsageError(`${flagOf(error)}${error.message}`);
    throw error;
  }
}

function taskCheck(flags: CheckFlags, io: Io): void {
  if (flags.roll !== undefined && flags.seed !== undefined) {
    throw new UsageError('give --seed or --roll, not both');
  }
  const rating = wholeNumber(
    required(flags.rating, '--rating'),
    '--rating',
    'Skill Ratings are whole numbers from 1 to 100, Attribute Ratings from 13 to 100',
  );
  if (rating < 1 || rating > 100) {
    throw new UsageError(
      `--rating: ${rating} is not a Rating (Skill Ratings run 1 to 100, Attribute Ratings 13 to 100); put bonuses in --modifier`,
    );
  }
  const modifier = parseConditionalModifier(required(flags.modifier, '--modifier'));
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

export function flagOf(error: CheckError): string {
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
