import type { z } from 'zod';
import { err, ok, type Result, type Ruleset } from '../../engine/index.js';
import { commandSchema, type ShiningForceCommand } from './commands.js';
import { decide, resolve } from './decide.js';
import type { ShiningForceEvent } from './events.js';
import { evolve, initialState } from './evolve.js';
import { legalActions } from './legal.js';
import { type ShiningForceSetup, setupSchema } from './model.js';
import type { ShiningForceState } from './state.js';
import { checkSetup } from './validate.js';

/** A schema failure as one sentence with the path it concerns. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

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
  parseCommand(input): Result<ShiningForceCommand> {
    const parsed = commandSchema.safeParse(input);
    return parsed.success
      ? ok(parsed.data)
      : err('command/invalid', `not a Shining Force command: ${describeIssue(parsed.error)}`);
  },
  decide,
  resolve,
  evolve,
  legalActions,
  outcome(state) {
    return state.result === null ? NOT_OVER : { over: true, ...state.result };
  },
};
