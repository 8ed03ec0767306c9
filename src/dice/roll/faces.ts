import { DiceError, type Span } from '../errors.js';
import type { ComparePoint, DiceModifiers, DiceRoll } from '../notation/ast.js';
import { describeCompare } from '../notation/compare.js';
import { MAX_SIDES } from '../random/source.js';

/**
 * How many of the faces 1..sides a set of compare points matches. Every compare point matches
 * one interval of faces, so this is exact for any die size without listing the faces.
 */
export function countMatchingFaces(points: readonly ComparePoint[], sides: number): number {
  const intervals: [number, number][] = [];
  for (const { operator, value } of points) {
    let low = 1;
    let high = sides;
    if (operator === '=') low = high = value;
    else if (operator === '>') low = value + 1;
    else if (operator === '>=') low = value;
    else if (operator === '<') high = value - 1;
    else high = value;
    low = Math.max(low, 1);
    high = Math.min(high, sides);
    if (low <= high) intervals.push([low, high]);
  }
  intervals.sort((a, b) => a[0] - b[0]);
  let count = 0;
  let reached = 0;
  for (const [low, high] of intervals) {
    const from = Math.max(low, reached + 1);
    if (high >= from) count += high - from + 1;
    reached = Math.max(reached, high);
  }
  return count;
}

/** The explosion trigger in force: the one written, or the die's highest face. */
export function explodeTrigger(modifiers: DiceModifiers, sides: number): ComparePoint | undefined {
  const explode = modifiers.explode;
  if (explode === undefined) return undefined;
  return explode.when ?? { operator: '=', value: sides };
}

/**
 * Rejects dice whose modifiers could never finish or make no sense once the number of sides is
 * known (it may come from a roll, as in `1d(1d6)!`).
 */
export function checkModifiersFitDie(
  modifiers: DiceModifiers,
  sides: number,
  expression: string,
  span: Span,
): void {
  const reroll = modifiers.reroll;
  if (reroll !== undefined && !reroll.once && countMatchingFaces(reroll.when, sides) === sides) {
    throw new DiceError(
      'dice/always-matches',
      `rerolling on ${reroll.when.map(describeCompare).join(' or ')} rerolls every face of a d${sides}`,
      expression,
      span,
    );
  }
  const trigger = explodeTrigger(modifiers, sides);
  if (trigger !== undefined) {
    if (sides === 1) {
      throw new DiceError(
        'dice/explode-d1',
        'a d1 cannot explode: it would explode forever',
        expression,
        span,
      );
    }
    // With `r`, faces that would be rerolled never stand, so they cannot end an explosion.
    const endless = reroll !== undefined && !reroll.once ? [...reroll.when, trigger] : [trigger];
    if (countMatchingFaces(endless, sides) === sides) {
      throw new DiceError(
        'dice/always-matches',
        `exploding on ${describeCompare(trigger)} explodes on every face of a d${sides}${endless.length > 1 ? ' that the reroll leaves' : ''}`,
        expression,
        span,
      );
    }
  }
}

export function checkSides(sides: number, expression: string, span: Span): void {
  if (sides < 1) {
    throw new DiceError(
      'dice/no-sides',
      `a die needs at least 1 side, got ${sides}`,
      expression,
      span,
    );
  }
  if (sides > MAX_SIDES) {
    throw new DiceError(
      'dice/too-many-sides',
      `a die has at most ${MAX_SIDES} sides, got ${sides}`,
      expression,
      span,
    );
  }
}

export function checkCount(
  count: number,
  maxDice: number,
  expression: string,
  dice: DiceRoll,
): void {
  if (count < 0) {
    throw new DiceError('dice/negative-count', `cannot roll ${count} dice`, expression, dice.span);
  }
  if (count > maxDice) {
    const written = dice.count.span.end > dice.count.span.start;
    throw new DiceError(
      'dice/too-many-dice',
      `${count} dice is more than the ${maxDice} allowed in one roll`,
      expression,
      written ? dice.count.span : dice.span,
    );
  }
}
