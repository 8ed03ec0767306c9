/**
 * The dice engine: notation, rolls with explanations, total-only rolls for simulations, and
 * exact odds. Pure: faces come only from the DiceSource a caller passes in.
 */
import {
  DiceExpression,
  type OddsOptions,
  type RollOptions,
  type RollResult,
} from './expression.js';
import { type DiceLimits, resolveLimits } from './limits.js';
import { Distribution } from './odds/distribution.js';
import { simplePoolOdds } from './odds/simple.js';
import { EnteredDice } from './random/entered.js';
import { SeededDice, type SeededDiceState } from './random/xoshiro128.js';
import type { Variables } from './variables.js';

export { DiceError, type DiceErrorCode, type Span } from './errors.js';
export {
  DiceExpression,
  type OddsOptions,
  type RollJson,
  type RollOptions,
  RollResult,
} from './expression.js';
export { DEFAULT_LIMITS, type DiceLimits } from './limits.js';
export type * from './notation/ast.js';
export { rollsDice, variablesUsed } from './notation/inspect.js';
export { Distribution, type DistributionJson, type ExactOutcome } from './odds/distribution.js';
export { EnteredDice, parseEnteredFaces } from './random/entered.js';
export { type DiceSource, MAX_SIDES } from './random/source.js';
export { SeededDice, type SeededDiceState } from './random/xoshiro128.js';
export type {
  DicePoolNode,
  Die,
  FengShuiNode,
  GroupItem,
  GroupNode,
  Outcome,
  RollNode,
} from './roll/tree.js';
export type { Variables } from './variables.js';

const CACHE_SIZE = 1024;
const cache = new Map<string, DiceExpression>();

/**
 * Parses an expression, reusing the parse of an identical string: the same damage codes are
 * rolled again and again. Throws DiceError, with the column, on bad notation.
 */
export function parseDice(expression: string, limits?: Partial<DiceLimits>): DiceExpression {
  let parsed = cache.get(expression);
  if (parsed === undefined) {
    parsed = new DiceExpression(expression);
    // Checked before caching: an expression no roll can take is not kept.
    parsed.checkLimits(limits);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(expression, parsed);
  } else if (limits !== undefined) {
    parsed.checkLimits(limits);
  }
  return parsed;
}

/** Rolls with a full explanation: total, annotated tree, one line of text. */
export function rollDice(expression: string, options: RollOptions): RollResult {
  return parseDice(expression, options.limits).roll(options);
}

/** Rolls for the total alone, building no explanation. */
export function rollTotal(
  expression: string,
  dice: RollOptions['dice'],
  variables?: Variables,
): number {
  return parseDice(expression).total(dice, variables);
}

/** The exact distribution of an expression. */
// biome-ignore format: parentheses ask V8 to compile this at load, not on a first call (see odds/simple.ts)
export const diceDistribution = (function diceDistribution(
  expression: string,
  options?: OddsOptions,
): Distribution {
  // The plainest pools (4d6kh3) need no parse at all; on a first call the parse costs more
  // than their odds. Everything else, and every error, comes from the parsed expression.
  const limits = resolveLimits(options?.limits);
  const simple = simplePoolOdds(expression, limits);
  if (simple !== undefined) return new Distribution(expression, simple);
  return parseDice(expression, options?.limits).distribution(options);
});

/** A seeded dice source (xoshiro128**); pass a saved `state` to resume a stream. */
export function seededDice(seed: number | string | SeededDiceState): SeededDice {
  return typeof seed === 'object' ? new SeededDice(seed) : SeededDice.fromSeed(seed);
}

/** Faces rolled by a person, used in order and checked against each die they fill. */
export function enteredDice(faces: readonly number[]): EnteredDice {
  return new EnteredDice(faces);
}
