import { DiceError } from './errors.js';

/** Bounds that no expression can get past, whatever a user types. */
export interface DiceLimits {
  /** Dice rolled by one roll, counting dice added by explosions. */
  readonly maxDice: number;
  /** Rerolls of one face, and explosions of one die, while rolling. */
  readonly maxRerolls: number;
  /** Explosions followed per die when computing exact odds; deeper chains are reported as truncated. */
  readonly explodeDepth: number;
  /** Elementary steps the exact odds engine may take before giving up with 'odds/too-large'. */
  readonly maxOddsWork: number;
}

export const DEFAULT_LIMITS: DiceLimits = {
  maxDice: 10_000,
  maxRerolls: 100,
  explodeDepth: 10,
  maxOddsWork: 20_000_000,
};

/** Hard ceilings on the configurable limits themselves. */
const CEILINGS: DiceLimits = {
  maxDice: 1_000_000,
  maxRerolls: 10_000,
  explodeDepth: 1_000,
  maxOddsWork: 1_000_000_000,
};

export function resolveLimits(overrides: Partial<DiceLimits> | undefined): DiceLimits {
  if (overrides === undefined) return DEFAULT_LIMITS;
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof DiceLimits)[]) {
    const value = limits[key];
    if (!Number.isSafeInteger(value) || value < 0 || value > CEILINGS[key]) {
      throw new DiceError(
        'dice/bad-limit',
        `limit ${key} must be a whole number from 0 to ${CEILINGS[key]}, got ${value}`,
      );
    }
  }
  return limits;
}
