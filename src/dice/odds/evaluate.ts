import { applyOperator, type Rounding } from '../arithmetic.js';
import { DiceError } from '../errors.js';
import type { DiceLimits } from '../limits.js';
import type { DiceAst, DiceGroup, DiceRoll } from '../notation/ast.js';
import { checkCount, checkModifiersFitDie, checkSides } from '../roll/faces.js';
import { keptCount } from '../roll/pool.js';
import { lookupVariable, type Variables } from '../variables.js';
import { chainMeasure, dieMeasure, faceMeasure } from './die.js';
import { keepSmall, smallDie, sumSmall, toMeasure } from './fast.js';
import { add, combine, constant, type Measure, mapValues, mixture, reduce } from './measure.js';
import { keepFromEntries, keepFromIid, keepSummed, scorer, sumOfIid } from './pool.js';
import type { WorkBudget } from './work.js';

const FENG_SHUI_DIE = {
  reroll: undefined,
  explode: { when: { operator: '=', value: 6 }, compound: true },
  keep: undefined,
  success: undefined,
  failure: undefined,
} as const;

/** The exact distribution of a syntax tree. Every dice node is independent of every other. */
export function measureOf(
  ast: DiceAst,
  expression: string,
  variables: Variables,
  limits: DiceLimits,
  work: WorkBudget,
): Measure {
  const visit = (node: DiceAst, rounding: Rounding): Measure => {
    switch (node.kind) {
      case 'number':
        return constant(node.value);
      case 'variable':
        return constant(lookupVariable(variables, node.name, expression, node.span));
      case 'negate':
        return mapValues(visit(node.operand, 'floor'), (v) => (v === 0 ? 0 : -v), work);
      case 'parens':
        return visit(node.inner, rounding);
      case 'arithmetic': {
        const left = visit(node.left, 'floor');
        const right = visit(node.right, 'floor');
        if (node.operator === '+') return checkSafe(reduce(add(left, right, work)), node);
        if (node.operator === '-') {
          const negated = mapValues(right, (v) => -v, work);
          return checkSafe(reduce(add(left, negated, work)), node);
        }
        return reduce(
          combine(
            left,
            right,
            (x, y) => applyOperator(node.operator, x, y, rounding, expression, node.span),
            work,
          ),
        );
      }
      case 'call': {
        if (node.name === 'floor' || node.name === 'ceil' || node.name === 'round') {
          return visit(node.args[0]!, node.name);
        }
        const args = node.args.map((a) => visit(a, 'floor'));
        if (node.name === 'abs') return mapValues(args[0]!, Math.abs, work);
        const pick = node.name === 'min' ? Math.min : Math.max;
        return args.slice(1).reduce((acc, m) => reduce(combine(acc, m, pick, work)), args[0]!);
      }
      case 'dice':
        return reduce(dicePool(node));
      case 'group':
        return reduce(group(node));
      case 'fengshui': {
        const chain = chainMeasure(
          faceMeasure(6, FENG_SHUI_DIE, work),
          FENG_SHUI_DIE.explode.when,
          limits.explodeDepth,
          work,
        );
        return reduce(
          add(
            chain,
            mapValues(chain, (v) => -v, work),
            work,
          ),
        );
      }
    }
  };

  /** Sums skip applyOperator, so they check the safe-integer range here, as rolls do. */
  const checkSafe = (m: Measure, node: DiceAst): Measure => {
    const low = m.values[0];
    const high = m.values.at(-1);
    const safe = (v: number | undefined): boolean => v === undefined || Number.isSafeInteger(v);
    if (!safe(low) || !safe(high)) {
      throw new DiceError(
        'dice/unsafe-integer',
        'the total is too large to be exact',
        expression,
        node.span,
      );
    }
    return m;
  };

  const wholeOutcomes = (m: Measure): { value: number; weight: bigint }[] =>
    m.values.map((value, i) => ({ value, weight: m.weights[i]! }));

  const dicePool = (node: DiceRoll): Measure => {
    const counts = visit(node.count, 'floor');
    const percentile = node.faces.kind === 'percentile';
    const sidesMeasure =
      node.faces.kind === 'standard' ? visit(node.faces.sides, 'floor') : constant(100);
    const bySides = wholeOutcomes(sidesMeasure).map(({ value: sides, weight }) => {
      if (node.faces.kind === 'standard') checkSides(sides, expression, node.faces.sides.span);
      checkModifiersFitDie(node.modifiers, sides, expression, node.span);
      const byCount = wholeOutcomes(counts).map(({ value: count, weight: w }) => {
        checkCount(count, limits.maxDice, expression, node);
        return { weight: w, measure: poolOf(node, sides, percentile, count) };
      });
      return { weight, measure: mixture(byCount, counts.denominator, work) };
    });
    return mixture(bySides, sidesMeasure.denominator, work);
  };

  const poolOf = (node: DiceRoll, sides: number, percentile: boolean, count: number): Measure => {
    const { modifiers } = node;
    const score =
      modifiers.success === undefined ? undefined : scorer(modifiers.success, modifiers.failure);
    const separateExplosions = modifiers.explode !== undefined && !modifiers.explode.compound;
    if (modifiers.keep !== undefined) {
      if (separateExplosions) {
        throw new DiceError(
          'odds/unsupported',
          "exact odds of keeping or dropping exploded dice ('!' adds dice to the pool) are not supported; compounding ('!!') is",
          expression,
          node.span,
        );
      }
      const die = dieMeasure(sides, percentile, modifiers, limits.explodeDepth, work);
      const small = score === undefined ? smallDie(die, count) : undefined;
      if (small !== undefined) {
        const highestFirst = modifiers.keep.mode === 'kh' || modifiers.keep.mode === 'dl';
        return toMeasure(
          keepSmall(small, count, keptCount(modifiers.keep, count), highestFirst, work),
        );
      }
      if (score === undefined && die.values.length > 0 && die.values[0]! >= 0) {
        const highestFirst = modifiers.keep.mode === 'kh' || modifiers.keep.mode === 'dl';
        return keepSummed(die, count, keptCount(modifiers.keep, count), highestFirst, work);
      }
      return keepFromIid(die, count, modifiers.keep, work, score);
    }
    // Without keep/drop a pool is a sum of its dice (or of each die's successes): with '!',
    // a die and the dice its explosions add count exactly like a compounded die.
    const die = separateExplosions
      ? dieMeasure(sides, percentile, modifiers, limits.explodeDepth, work, score)
      : score === undefined
        ? dieMeasure(sides, percentile, modifiers, limits.explodeDepth, work)
        : mapValues(
            dieMeasure(sides, percentile, modifiers, limits.explodeDepth, work),
            score,
            work,
          );
    const small = smallDie(die, count);
    return small === undefined
      ? sumOfIid(die, count, work)
      : toMeasure(sumSmall(small, count, work));
  };

  const group = (node: DiceGroup): Measure => {
    const entries = node.items.map((item) => visit(item, 'floor'));
    const { keep, success, failure } = node.modifiers;
    const score = success === undefined ? undefined : scorer(success, failure);
    if (keep !== undefined) return keepFromEntries(entries, keep, work, score);
    return entries
      .map((e) => (score === undefined ? e : mapValues(e, score, work)))
      .reduce((acc, e) => reduce(add(acc, e, work)), constant(0));
  };

  return visit(ast, 'floor');
}
