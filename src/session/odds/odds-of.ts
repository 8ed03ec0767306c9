import { DiceError } from '../../dice/index.js';
import type { CommandBase } from '../../engine/index.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';

/**
 * The system's odds of an action, as both shells offer it (the terminal inline and with
 * `odds n`, the server with each offered action); odds too large to work out read as none, not
 * as a crash.
 */
export function oddsOf(
  system: AnySystem,
  state: unknown,
  command: CommandBase,
): ActionOdds | undefined {
  try {
    return system.odds(state, command);
  } catch (error) {
    if (error instanceof DiceError) {
      return { summary: 'odds: too many outcomes', lines: [error.message], exact: false };
    }
    throw error;
  }
}
