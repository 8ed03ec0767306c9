import type { Command } from 'commander';
import { parseDice } from '../dice/index.js';
import { percent, renderHistogram, summaryLine } from './histogram.js';
import { collectVariable, UsageError, variablesOf } from './input.js';
import type { Io } from './io.js';

interface OddsFlags {
  var?: Record<string, number>;
  json?: boolean;
  atLeast?: string;
  atMost?: string;
}

function threshold(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(text))
    throw new UsageError(`${flag} expects a whole number, got '${text}'`);
  return Number(text);
}

export function registerOdds(program: Command, io: Io): void {
  program
    .command('odds')
    .description('exact odds of a dice expression: moogle odds "4d6kh3"')
    .argument('<expression>', 'dice notation, see docs/dice-notation.md')
    .option('--var <NAME=VALUE>', 'give a variable a value (repeatable)', collectVariable)
    .option('--at-least <n>', 'also print the chance of rolling n or more')
    .option('--at-most <n>', 'also print the chance of rolling n or less (a d% Task Check)')
    .option('--json', 'print one JSON object')
    .action((expression: string, flags: OddsFlags) => {
      const atLeast = threshold(flags.atLeast, '--at-least');
      const atMost = threshold(flags.atMost, '--at-most');
      const odds = parseDice(expression).distribution({ variables: variablesOf(flags) });
      if (flags.json) {
        const extra = {
          ...(atLeast === undefined
            ? {}
            : { atLeast: { value: atLeast, probability: odds.atLeast(atLeast) } }),
          ...(atMost === undefined
            ? {}
            : { atMost: { value: atMost, probability: odds.atMost(atMost) } }),
        };
        io.out(JSON.stringify({ ...odds.toJSON(), ...extra }));
        return;
      }
      io.out(expression);
      io.out(renderHistogram(odds));
      io.out(summaryLine(odds));
      if (atLeast !== undefined) io.out(`P(>= ${atLeast}) = ${percent(odds.atLeast(atLeast))}`);
      if (atMost !== undefined) io.out(`P(<= ${atMost}) = ${percent(odds.atMost(atMost))}`);
    });
}
