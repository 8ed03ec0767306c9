import type { Command } from 'commander';
import { EnteredDice, parseDice, parseEnteredFaces, seededDice } from '../dice/index.js';
import { randomSeed } from '../dice/random/seed.js';
import { collectVariable, parseSeed, UsageError, variablesOf } from './input.js';
import type { Io } from './io.js';

/** At most this much JSON for one roll (the `text` is bounded by the dice engine). */
export const MAX_JSON_CHARS = 1_000_000;

interface RollFlags {
  seed?: string;
  var?: Record<string, number>;
  dice?: string;
  json?: boolean;
}

export function registerRoll(program: Command, io: Io): void {
  program
    .command('roll')
    .description('roll dice and show every die: moogle roll "4d6kh3"')
    .argument('<expression>', 'dice notation, see docs/dice-notation.md')
    .option('--seed <seed>', 'seed the dice, to roll the same again')
    .option('--var <NAME=VALUE>', 'give a variable a value (repeatable)', collectVariable)
    .option('--dice <faces>', 'use dice rolled at the table, in order: 3,5,6')
    .option('--json', 'print one JSON object')
    .action((expression: string, flags: RollFlags) => {
      if (flags.dice !== undefined && flags.seed !== undefined) {
        throw new UsageError('give --seed or --dice, not both');
      }
      const parsed = parseDice(expression);
      const seed = flags.seed === undefined ? randomSeed() : parseSeed(flags.seed);
      const dice =
        flags.dice === undefined
          ? seededDice(seed)
          : new EnteredDice(parseEnteredFaces(flags.dice));
      const result = parsed.roll({ dice, variables: variablesOf(flags) });
      if (dice instanceof EnteredDice && dice.remaining > 0) {
        throw new UsageError(
          `${dice.remaining} entered ${dice.remaining === 1 ? 'die was' : 'dice were'} not used by ${expression}`,
        );
      }
      if (flags.json) {
        const extra = flags.dice === undefined ? { seed } : {};
        const json = JSON.stringify({ ...result.toJSON(), ...extra });
        // A roll of thousands of rerolled dice explains itself in megabytes: past the bound the
        // per-die tree is left out, and says so, rather than flooding a pipe.
        io.out(
          json.length <= MAX_JSON_CHARS
            ? json
            : JSON.stringify({
                ...result.toJSON(),
                detail: null,
                detailOmitted: `the explanation of every die is ${json.length} characters, over the ${MAX_JSON_CHARS} printed`,
                ...extra,
              }),
        );
      } else {
        io.out(result.text);
      }
    });
}
