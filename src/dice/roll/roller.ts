import { applyOperator, type Rounding } from '../arithmetic.js';
import { DiceError, type Span } from '../errors.js';
import type { DiceAst, DiceGroup, DiceModifiers, DiceRoll, FunctionCall } from '../notation/ast.js';
import { lookupVariable, type Variables } from '../variables.js';
import { checkCount, checkModifiersFitDie, checkSides } from './faces.js';
import { applyKeep, type RollContext, rollPool, scorePool } from './pool.js';
import type { Die, GroupItem, Outcome, RollNode } from './tree.js';

const FENG_SHUI_DIE: DiceModifiers = {
  reroll: undefined,
  explode: { when: { operator: '=', value: 6 }, compound: true },
  keep: undefined,
  success: undefined,
  failure: undefined,
};

/** Evaluates a syntax tree into an annotated result tree, rolling every die it needs. */
export function evaluate(ast: DiceAst, ctx: RollContext, variables: Variables): RollNode {
  return new Evaluator(ctx, variables).node(ast, 'floor');
}

class Evaluator {
  constructor(
    private readonly ctx: RollContext,
    private readonly variables: Variables,
  ) {}

  node(ast: DiceAst, rounding: Rounding): RollNode {
    switch (ast.kind) {
      case 'number':
        return { kind: 'number', value: ast.value };
      case 'variable':
        return {
          kind: 'variable',
          name: ast.name,
          value: lookupVariable(this.variables, ast.name, this.ctx.expression, ast.span),
        };
      case 'negate': {
        const operand = this.node(ast.operand, 'floor');
        return { kind: 'negate', operand, value: operand.value === 0 ? 0 : -operand.value };
      }
      case 'parens': {
        const inner = this.node(ast.inner, rounding);
        return { kind: 'parens', inner, value: inner.value };
      }
      case 'arithmetic': {
        const left = this.node(ast.left, 'floor');
        const right = this.node(ast.right, 'floor');
        const value = applyOperator(
          ast.operator,
          left.value,
          right.value,
          rounding,
          this.ctx.expression,
          ast.span,
        );
        return { kind: 'arithmetic', operator: ast.operator, left, right, value };
      }
      case 'call':
        return this.call(ast);
      case 'dice':
        return this.dice(ast);
      case 'group':
        return this.group(ast);
      case 'fengshui':
        return this.fengShui(ast.span);
    }
  }

  private call(ast: FunctionCall): RollNode {
    const { name } = ast;
    if (name === 'floor' || name === 'ceil' || name === 'round') {
      // The rounding belongs to the division inside: all values are whole numbers.
      const arg = this.node(ast.args[0]!, name);
      return { kind: 'call', name, args: [arg], value: arg.value };
    }
    const args = ast.args.map((a) => this.node(a, 'floor'));
    const values = args.map((a) => a.value);
    const value =
      name === 'abs'
        ? Math.abs(values[0]!)
        : name === 'min'
          ? Math.min(...values)
          : Math.max(...values);
    return { kind: 'call', name, args, value };
  }

  private whole(ast: DiceAst): { node: RollNode; computed: boolean } {
    const node = this.node(ast, 'floor');
    return { node, computed: ast.kind !== 'number' };
  }

  private dice(ast: DiceRoll): RollNode {
    const count = this.whole(ast.count);
    const n = count.node.value;
    checkCount(n, this.ctx.limits.maxDice, this.ctx.expression, ast);
    let sides = 100;
    let sidesNode: { node: RollNode; computed: boolean } | undefined;
    if (ast.faces.kind === 'standard') {
      sidesNode = this.whole(ast.faces.sides);
      sides = sidesNode.node.value;
      checkSides(sides, this.ctx.expression, ast.faces.sides.span);
    }
    checkModifiersFitDie(ast.modifiers, sides, this.ctx.expression, ast.span);
    const pool = rollPool(
      this.ctx,
      n,
      sides,
      ast.faces.kind === 'percentile',
      ast.modifiers,
      ast.span,
    );
    return {
      kind: 'dice',
      notation: this.ctx.expression.slice(ast.span.start, ast.span.end),
      computedCount: count.computed ? count.node : undefined,
      computedSides: sidesNode?.computed ? sidesNode.node : undefined,
      count: n,
      sides,
      percentile: ast.faces.kind === 'percentile',
      counting: ast.modifiers.success !== undefined,
      dice: pool.dice,
      value: pool.value,
    };
  }

  private group(ast: DiceGroup): RollNode {
    const entries: { node: RollNode; value: number; kept: boolean; outcome: Outcome }[] =
      ast.items.map((item) => {
        const node = this.node(item, 'floor');
        return { node, value: node.value, kept: true, outcome: undefined };
      });
    if (ast.modifiers.keep !== undefined) applyKeep(entries, ast.modifiers.keep);
    const value = scorePool(entries, ast.modifiers.success, ast.modifiers.failure);
    if (!Number.isSafeInteger(value)) {
      throw new DiceError(
        'dice/unsafe-integer',
        'the total is too large to be exact',
        this.ctx.expression,
        ast.span,
      );
    }
    const items: GroupItem[] = entries.map(({ node, kept, outcome }) => ({ node, kept, outcome }));
    return {
      kind: 'group',
      notation: this.ctx.expression.slice(ast.span.start, ast.span.end),
      counting: ast.modifiers.success !== undefined,
      items,
      value,
    };
  }

  private fengShui(span: Span): RollNode {
    const positive = rollPool(this.ctx, 1, 6, false, FENG_SHUI_DIE, span).dice[0] as Die;
    const negative = rollPool(this.ctx, 1, 6, false, FENG_SHUI_DIE, span).dice[0] as Die;
    const boxcars = positive.faces[0] === 6 && negative.faces[0] === 6;
    return {
      kind: 'fengshui',
      positive,
      negative,
      boxcars,
      value: positive.value - negative.value,
    };
  }
}
