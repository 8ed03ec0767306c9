import { parserOf, type Ruleset } from '../../engine/index.js';
import { commandSchema, type ZodiacCommand } from './commands.js';
import { decide, resolve } from './decide.js';
import type { ZodiacEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { setupSchema, type ZodiacSetup } from './model.js';
import type { ZodiacState } from './state.js';

const NOT_OVER = { over: false } as const;

/** ZODIAC: Speed Points and ticks, d100 + Accuracy against Evade, eight elements. */
export const zodiac: Ruleset<ZodiacSetup, ZodiacState, ZodiacCommand, ZodiacEvent> = {
  id: 'zodiac',
  name: 'ZODIAC',
  parseSetup: parserOf(setupSchema, 'setup/invalid', 'the encounter setup is not valid'),
  initialState,
  parseCommand: parserOf(commandSchema, 'command/invalid', 'not a ZODIAC command'),
  decide,
  resolve,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
