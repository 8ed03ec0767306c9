import { rollDice, seededDice } from '../../dice/index.js';
import { randomSeed } from '../../dice/random/seed.js';
import { ACTION_DICE, actionCheck, readActionDice } from '../../rulesets/ffviii/index.js';
import { parseSeed, UsageError } from '../input.js';
import type { Io } from '../io.js';
import type { CheckFlags } from './flags.js';
import { required, wholeNumber } from './numbers.js';

/**
 * FFVIII: an action check, Action Value + the Feng Shui action dice (a positive d6 minus a
 * negative d6, sixes exploding) against a difficulty; equal or higher succeeds.
 */
export function checkFfviii(flags: CheckFlags, io: Io): void {
  if (flags.roll !== undefined && flags.seed !== undefined)
    throw new UsageError('give --seed or --roll, not both');
  if (flags.boxcars === true && flags.roll === undefined)
    throw new UsageError('--boxcars goes with --roll: rolled dice show boxcars by themselves');
  const actionValue = wholeNumber(
    required(flags.actionValue, '--action-value'),
    '--action-value',
    'an Action Value is a whole number, Attribute + Skill points',
  );
  if (actionValue < 0 || actionValue > 99)
    throw new UsageError(`--action-value: ${actionValue} is not an Action Value (0 to 99)`);
  const difficulty = wholeNumber(
    required(flags.difficulty, '--difficulty'),
    '--difficulty',
    "the target's Dodge, Magic Evade or another difficulty; 1 for a willing target",
  );
  if (difficulty < -99 || difficulty > 99)
    throw new UsageError(`--difficulty: ${difficulty} is out of range (-99 to 99)`);
  let roll: number;
  let boxcars: boolean;
  let dice = '';
  if (flags.roll !== undefined) {
    roll = wholeNumber(flags.roll, '--roll', 'the positive die minus the negative die, e.g. -4');
    if (Math.abs(roll) > 999) throw new UsageError(`--roll: ${roll} is out of range (-999 to 999)`);
    boxcars = flags.boxcars === true;
  } else {
    const source = seededDice(flags.seed === undefined ? randomSeed() : parseSeed(flags.seed));
    const faces: number[] = [];
    const rolled = rollDice(ACTION_DICE, {
      dice: {
        roll: (sides: number) => {
          const face = source.roll(sides);
          faces.push(face);
          return face;
        },
      },
    });
    const reading = readActionDice(faces);
    roll = rolled.total;
    boxcars = reading.boxcars;
    dice = ` ${rolled.text.replace(/^fs = /, '').replace(/ = -?\d+$/, '')}`;
  }
  const check = actionCheck(actionValue, difficulty, roll, boxcars);
  if (flags.json) {
    io.out(
      JSON.stringify({
        system: 'ffviii',
        actionValue,
        difficulty,
        roll,
        result: check.result,
        success: check.success,
        margin: check.margin,
        boxcars,
      }),
    );
    return;
  }
  const outcome = check.success ? `success by ${check.margin}` : `failure by ${-check.margin}`;
  const critical = check.criticalFailure
    ? ': boxcars on a failure, a critical failure'
    : boxcars
      ? ' (boxcars, but the action succeeds)'
      : '';
  io.out(
    `AV ${actionValue} + action dice${dice} ${roll >= 0 ? '+' : '-'}${Math.abs(roll)} = ${check.result} against ${difficulty}: ${outcome}${critical}`,
  );
}
