import { applyOperator } from '../arithmetic.js';
import { DiceError } from '../errors.js';
import type { DiceAst, KeepModifier } from '../notation/ast.js';
import { type DiceSource, MAX_SIDES } from '../random/source.js';
import { lookupVariable, type Variables } from '../variables.js';
import { keptCount, type RollContext } from './pool.js';

/**
 * Total-only evaluation for simulations: the syntax tree compiled once into closures that roll
 * and add without building an explanation. Plain dice and arithmetic get their own closures;
 * anything with modifiers falls back to the explained evaluator for that node, so both paths
 * consume the same dice in the same order and give the same total from the same seed.
 */
export type TotalFn = (source: DiceSource, variables: Variables, ctx: RollContext) => number;

const MAX = Number.MAX_SAFE_INTEGER;

export interface FastPlan {
  readonly total: TotalFn;
  /** Dice the closures roll on every call, known before rolling. */
  readonly fixedDice: number;
  /** Nodes left to the explained evaluator, which needs a RollContext. */
  readonly fallbacks: number;
}

export function compileTotal(
  ast: DiceAst,
  expression: string,
  fallback: (node: DiceAst, ctx: RollContext, variables: Variables) => number,
): FastPlan {
  let fixedDice = 0;
  let fallbacks = 0;
  const delegate = (node: DiceAst): TotalFn => {
    fallbacks++;
    return (_s, v, c) => fallback(node, c, v);
  };
  const build = (node: DiceAst): TotalFn => {
    switch (node.kind) {
      case 'number': {
        const value = node.value;
        return () => value;
      }
      case 'variable': {
        const { name, span } = node;
        return (_s, vars) => lookupVariable(vars, name, expression, span);
      }
      case 'parens':
        return build(node.inner);
      case 'negate': {
        const operand = build(node.operand);
        return (s, v, c) => 0 - operand(s, v, c) || 0;
      }
      case 'arithmetic': {
        const left = build(node.left);
        const right = build(node.right);
        const { operator, span } = node;
        if (operator === '+') {
          return (s, v, c) => {
            const r = left(s, v, c) + right(s, v, c);
            if (r > MAX || r < -MAX) throw unsafe(expression, node);
            return r;
          };
        }
        if (operator === '-') {
          return (s, v, c) => {
            const r = left(s, v, c) - right(s, v, c);
            if (r > MAX || r < -MAX) throw unsafe(expression, node);
            return r;
          };
        }
        return (s, v, c) =>
          applyOperator(operator, left(s, v, c), right(s, v, c), 'floor', expression, span);
      }
      case 'dice': {
        const m = node.modifiers;
        const plain =
          m.reroll === undefined &&
          m.explode === undefined &&
          m.keep === undefined &&
          m.success === undefined;
        if (plain && node.count.kind === 'number') {
          const count = node.count.value;
          if (node.faces.kind === 'percentile') {
            fixedDice += count;
            return (s) => {
              let total = 0;
              for (let i = 0; i < count; i++) {
                const tens = s.roll(10) % 10;
                const ones = s.roll(10) % 10;
                total += tens === 0 && ones === 0 ? 100 : tens * 10 + ones;
              }
              return total;
            };
          }
          if (node.faces.sides.kind === 'number') {
            const sides = node.faces.sides.value;
            if (sides >= 1 && sides <= MAX_SIDES && count * sides <= MAX) {
              fixedDice += count;
              if (count === 1) return (s) => s.roll(sides);
              return (s) => {
                let total = 0;
                for (let i = 0; i < count; i++) total += s.roll(sides);
                return total;
              };
            }
          }
        }
        const keep = m.keep;
        const keepOnly =
          keep !== undefined &&
          m.reroll === undefined &&
          m.explode === undefined &&
          m.success === undefined;
        if (
          keepOnly &&
          node.count.kind === 'number' &&
          node.faces.kind === 'standard' &&
          node.faces.sides.kind === 'number'
        ) {
          const count = node.count.value;
          const sides = node.faces.sides.value;
          if (sides >= 1 && sides <= MAX_SIDES && count * sides <= MAX) {
            fixedDice += count;
            return keptSum(count, sides, keep);
          }
        }
        return delegate(node);
      }
      case 'call':
      case 'group':
      case 'fengshui':
        return delegate(node);
    }
  };
  const total = build(ast);
  return { total, fixedDice, fallbacks };
}

/**
 * 4d6kh3 and the like without building dice: roll into a scratch array, sort it, add the kept
 * end. Ties do not matter to the sum, so this equals the explained roll's total.
 */
function keptSum(count: number, sides: number, keep: KeepModifier): TotalFn {
  // Allocated on the first roll, which comes after the dice limit is checked: allocating here,
  // at parse time, let 4294967296d9kh8 crash and 1e8 dice take 800 MB before any check.
  let scratch: Float64Array | undefined;
  const kept = keptCount(keep, count);
  const highest = keep.mode === 'kh' || keep.mode === 'dl';
  return (s) => {
    scratch ??= new Float64Array(count);
    for (let i = 0; i < count; i++) scratch[i] = s.roll(sides);
    scratch.sort();
    let total = 0;
    if (highest) for (let i = count - kept; i < count; i++) total += scratch[i]!;
    else for (let i = 0; i < kept; i++) total += scratch[i]!;
    return total;
  };
}

function unsafe(expression: string, node: DiceAst): DiceError {
  return new DiceError(
    'dice/unsafe-integer',
    'the total is too large to be exact',
    expression,
    node.span,
  );
}
