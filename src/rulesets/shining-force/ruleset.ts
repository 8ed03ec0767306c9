import { describeIssue, err, parserOf, type Result, type Ruleset } from '../../engine/index.js';
import { commandSchema, type ShiningForceCommand } from './commands.js';
import { decide, resolve, resolveOffered } from './decide.js';
import type { ShiningForceEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { type ShiningForceSetup, setupSchema } from './model.js';
import type { ShiningForceState } from './state.js';
import { checkSetup } from './validate.js';

const NOT_OVER = { over: false } as const;

/** The Shining Force tabletop system: a grid, turns by Agility, five-d100 attacks and counters. */
export const shiningForce: Ruleset<
  ShiningForceSetup,
  ShiningForceState,
  ShiningForceCommand,
  ShiningForceEvent
> = {
  id: 'shining-force',
  name: 'Shining Force tabletop',
  parseSetup(input): Result<ShiningForceSetup> {
    const parsed = setupSchema.safeParse(input);
    if (!parsed.success)
      return err(
        'setup/invalid',
        `the encounter setup is not valid: ${describeIssue(parsed.error)}`,
      );
    return checkSetup(parsed.data);
  },
  initialState,
  parseCommand: parserOf(commandSchema, 'command/invalid', 'not a Shining Force command'),
  decide,
  resolve,
  resolveOffered,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
