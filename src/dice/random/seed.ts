import { randomInt } from 'node:crypto';

/**
 * A fresh seed for when the caller does not care which: the one place randomness enters. Its
 * own module (not in the dice index): it needs Node's crypto, and the rest of the dice does not.
 */
export function randomSeed(): number {
  return randomInt(0, 2 ** 48 - 1);
}
