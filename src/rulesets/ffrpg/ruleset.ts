import { describeIssue, parserOf, type Ruleset } from '../../engine/index.js';
import { commandSchema, type FfrpgCommand } from './commands.js';
import { decide, resolve } from './decide.js';
import type { FfrpgEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { type FfrpgSetup, setupSchema } from './model.js';
import type { FfrpgState } from './state.js';

export { describeIssue };

const NOT_OVER = { over: false } as const;

/** FFRPG 3rd Edition: d10 + SPD Initiative counting down; Rounds of Initiative, Action and Status Phases. */
export const ffrpg: Ruleset<FfrpgSetup, FfrpgState, FfrpgCommand, FfrpgEvent> = {
  id: 'ffrpg',
  name: 'FFRPG 3rd Edition',
  parseSetup: parserOf(setupSchema, 'setup/invalid', 'the encounter setup is not valid'),
  initialState,
  parseCommand: parserOf(commandSchema, 'command/invalid', 'not an FFRPG command'),
  decide,
  resolve,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
