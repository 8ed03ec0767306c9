import type { z } from 'zod';
import { err, ok, type Result, type Ruleset } from '../../engine/index.js';
import { commandSchema, type ZodiacCommand } from './commands.js';
import { decide, resolve } from './decide.js';
import type { ZodiacEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { setupSchema, type ZodiacSetup } from './model.js';
import type { ZodiacState } from './state.js';

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

const NOT_OVER = { over: false } as const;

/** ZODIAC: Speed Points and ticks, d100 + Accuracy against Evade, eight elements. */
export const zodiac: Ruleset<ZodiacSetup, ZodiacState, ZodiacCommand, ZodiacEvent> = {
  id: 'zodiac',
  name: 'ZODIAC',
  parseSetup(input): Result<ZodiacSetup> {
    const parsed = setupSchema.safeParse(input);
    return parsed.success
      ? ok(parsed.data)
      : err('setup/invalid', `the encounter setup is not valid: ${describeIssue(parsed.error)}`);
  },
  initialState,
  parseCommand(input): Result<ZodiacCommand> {
    const parsed = commandSchema.safeParse(input);
    return parsed.success
      ? ok(parsed.data)
      : err('command/invalid', `not a ZODIAC command: ${describeIssue(parsed.error)}`);
  },
  decide,
  resolve,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
