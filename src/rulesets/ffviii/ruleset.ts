import { describeIssue, err, ok, parserOf, type Result, type Ruleset } from '../../engine/index.js';
import { commandSchema, type FfviiiCommand } from './commands.js';
import { decide, resolve } from './decide.js';
import type { FfviiiEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { type FfviiiSetup, setupSchema } from './model.js';
import { sheetProblem } from './sheet-problem.js';
import type { FfviiiState } from './state.js';

const NOT_OVER = { over: false } as const;

/**
 * Why a setup that matches the schema still cannot be played: ids twice, or names of spells,
 * items, Guardian Forces and powers nobody defined.
 */
export function setupProblem(setup: FfviiiSetup): string | undefined {
  const seen = new Set<string>();
  for (const side of setup.sides)
    for (const c of side.combatants) {
      if (seen.has(c.id)) return `two combatants are called '${c.id}'`;
      seen.add(c.id);
      const problem = sheetProblem(setup, c);
      if (problem !== undefined) return problem;
    }
  for (const [a, b] of setup.blockedSight)
    for (const x of [a, b]) if (!seen.has(x)) return `blockedSight: nobody called '${x}'`;
  return undefined;
}

/** The FFVIII RPG: Feng Shui's shot clock, action dice, dodging, spellshards and summons. */
export const ffviii: Ruleset<FfviiiSetup, FfviiiState, FfviiiCommand, FfviiiEvent> = {
  id: 'ffviii',
  name: 'FFVIII RPG',
  parseSetup(input): Result<FfviiiSetup> {
    const parsed = setupSchema.safeParse(input);
    if (!parsed.success)
      return err(
        'setup/invalid',
        `the encounter setup is not valid: ${describeIssue(parsed.error)}`,
      );
    const problem = setupProblem(parsed.data);
    return problem === undefined
      ? ok(parsed.data)
      : err('setup/invalid', `the encounter setup is not valid: ${problem}`);
  },
  initialState,
  parseCommand: parserOf(commandSchema, 'command/invalid', 'not an FFVIII command'),
  decide,
  resolve,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
