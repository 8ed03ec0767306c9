import type { Command } from 'commander';
import { EnteredDice, parseDice, parseEnteredFaces, seededDice } from '../dice/index.js';
import { randomSeed } from '../index.js';
import { collectVariable, parseSeed, UsageError, variablesOf } from './input.js';
import type { Io } from './io.js';

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
        io.out(JSON.stringify({ ...result.toJSON(), ...extra }));
      } else {
        io.out(result.text);
      }
    });
}
