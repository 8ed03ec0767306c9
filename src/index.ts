/**
 * The moogle package. `roll`, `distribution` and `seededDice` are the short way in; the dice
 * module's full API is re-exported beside them.
 */
import {
  type DiceSource,
  type Distribution,
  diceDistribution,
  type OddsOptions,
  type RollResult,
  rollDice,
  seededDice,
  type Variables,
} from './dice/index.js';
import { randomSeed } from './dice/random/seed.js';

export * from './dice/index.js';
/** A fresh seed for when the caller does not care which: the one place randomness enters. */
export { randomSeed };

export interface RollApiOptions {
  /** Defaults to a generator seeded from the operating system's randomness. */
  readonly dice?: DiceSource;
  readonly variables?: Variables;
  readonly limits?: OddsOptions['limits'];
}

/** Rolls `expression` with a full explanation; `{ total, detail, text }`. */
export function roll(expression: string, options: RollApiOptions = {}): RollResult {
  return rollDice(expression, { ...options, dice: options.dice ?? seededDice(randomSeed()) });
}

/** The exact distribution of `expression`: min, max, mean, stdev, atLeast(x), atMost(x)... */
export function distribution(expression: string, options?: OddsOptions): Distribution {
  return diceDistribution(expression, options);
}

export * as content from './content/index.js';
export {
  type EncounterFile,
  type EncounterFileResult,
  readEncounterFile,
} from './encounters/file.js';
export * as engine from './engine/index.js';
export * as ffrpg from './rulesets/ffrpg/index.js';
export * as ffviii from './rulesets/ffviii/index.js';
export { CONTENT_KINDS, RULESETS, rulesetById, SYSTEMS, systemById } from './rulesets/index.js';
export * as shiningForce from './rulesets/shining-force/index.js';
export * as zodiac from './rulesets/zodiac/index.js';
export {
  type BalanceOptions,
  BalanceRefusal,
  type BalanceResult,
  type BalanceRun,
  balanceSearch,
} from './sim/balance/balance.js';
export type { BalancePoint, SearchBounds, StopReason } from './sim/balance/search.js';
export type { TargetSpec, VarySpec } from './sim/balance/spec.js';
export { readTargetSpec, readVarySpec } from './sim/balance/spec.js';
