import { DiceError } from '../../dice/index.js';
import type { DiceRoller, RollRecord } from '../dice.js';
import { err, ok, type Result } from '../result.js';
import type { GmAmount } from './commands.js';

/** The target's own values a share (`50%` of its HP) is read from. */
export interface AmountBasis {
  readonly hp: number;
  readonly maxHp: number;
  readonly mp: number;
  readonly maxMp: number;
}

/**
 * A GM amount as a number: dice are rolled (purpose `gm:<target>`, so they can be entered like
 * any roll), a share of the target's HP or MP is rounded down. Dice that cannot be read are an
 * error value, not an exception.
 */
export function resolveGmAmount(
  amount: GmAmount,
  basis: AmountBasis,
  dice: DiceRoller,
  target: string,
): Result<{ readonly amount: number; readonly roll?: RollRecord }> {
  if (typeof amount === 'number') return ok({ amount });
  if (typeof amount === 'object') {
    const of = { hp: basis.hp, 'max-hp': basis.maxHp, mp: basis.mp, 'max-mp': basis.maxMp }[
      amount.of
    ];
    return ok({ amount: Math.floor((of * amount.percent) / 100) });
  }
  try {
    const roll = dice.roll(`gm:${target}`, amount);
    return ok({ amount: Math.max(0, roll.total), roll });
  } catch (error) {
    if (error instanceof DiceError) return err('gm/bad-amount', `${amount}: ${error.message}`);
    throw error;
  }
}
