import { DiceError } from './errors.js';
import { type DiceLimits, resolveLimits } from './limits.js';
import type { DiceAst } from './notation/ast.js';
import { literalDiceTerms } from './notation/inspect.js';
import { parseDiceNotation } from './notation/parser.js';
import { Distribution } from './odds/distribution.js';
import { measureOf } from './odds/evaluate.js';
import { simplePoolOdds } from './odds/simple.js';
import { WorkBudget } from './odds/work.js';
import { EnteredDice } from './random/entered.js';
import type { DiceSource } from './random/source.js';
import { checkCount } from './roll/faces.js';
import { compileTotal, type FastPlan } from './roll/fast.js';
import type { RollContext } from './roll/pool.js';
import { evaluate } from './roll/roller.js';
import { describeRoll } from './roll/text.js';
import type { RollNode } from './roll/tree.js';
import type { Variables } from './variables.js';

export interface RollOptions {
  /** Where the faces come from: seededDice(seed) or enteredDice([...]). */
  readonly dice: DiceSource;
  readonly variables?: Variables;
  readonly limits?: Partial<DiceLimits>;
}

export interface OddsOptions {
  readonly variables?: Variables;
  readonly limits?: Partial<DiceLimits>;
}

/** The JSON form of a roll, as `moogle roll --json` prints it. */
export interface RollJson {
  readonly expression: string;
  readonly total: number;
  readonly detail: RollNode;
  readonly text: string;
}

/** A roll: its total, the annotated tree behind it, and (computed on first use) one line of text. */
export class RollResult {
  private cachedText: string | undefined;

  constructor(
    readonly expression: string,
    readonly total: number,
    readonly detail: RollNode,
  ) {}

  /** `4d6kh3 = [6, 5, 5, 1d] = 16` */
  get text(): string {
    this.cachedText ??= describeRoll(this.expression, this.detail);
    return this.cachedText;
  }

  /** True when Feng Shui dice in the roll came up boxcars (both first faces 6). */
  get boxcars(): boolean {
    return hasBoxcars(this.detail);
  }

  toJSON(): RollJson {
    return { expression: this.expression, total: this.total, detail: this.detail, text: this.text };
  }
}

const NO_VARIABLES: Variables = Object.freeze({});

function hasBoxcars(node: RollNode): boolean {
  switch (node.kind) {
    case 'fengshui':
      return node.boxcars;
    case 'negate':
      return hasBoxcars(node.operand);
    case 'parens':
      return hasBoxcars(node.inner);
    case 'arithmetic':
      return hasBoxcars(node.left) || hasBoxcars(node.right);
    case 'call':
      return node.args.some(hasBoxcars);
    case 'group':
      return node.items.some((item) => hasBoxcars(item.node));
    case 'dice':
      return (
        (node.computedCount !== undefined && hasBoxcars(node.computedCount)) ||
        (node.computedSides !== undefined && hasBoxcars(node.computedSides))
      );
    default:
      return false;
  }
}

/**
 * A parsed dice expression, ready to roll many times: explained, total-only, or as exact odds.
 * Parse once (see `parseDice`, which caches) and keep it where an expression is used often,
 * as a damage code is.
 */
export class DiceExpression {
  readonly ast: DiceAst;
  private readonly plan: FastPlan;

  constructor(readonly source: string) {
    this.ast = parseDiceNotation(source);
    this.plan = compileTotal(
      this.ast,
      source,
      (node, ctx, variables) => evaluate(node, ctx, variables).value,
    );
  }

  roll(options: RollOptions): RollResult {
    const ctx = this.context(options.dice, resolveLimits(options.limits), 0);
    const detail = whileEntered(options.dice, this.source, () =>
      evaluate(this.ast, ctx, options.variables ?? NO_VARIABLES),
    );
    return new RollResult(this.source, detail.value, detail);
  }

  /** The total alone, for simulations: no explanation is built. Same dice, same total as roll(). */
  total(
    dice: DiceSource,
    variables: Variables = NO_VARIABLES,
    limits?: Partial<DiceLimits>,
  ): number {
    const resolved = limits === undefined ? DEFAULT : resolveLimits(limits);
    if (this.plan.fixedDice > resolved.maxDice) {
      throw new DiceError(
        'dice/too-many-dice',
        `this roll needs ${this.plan.fixedDice} dice, more than the ${resolved.maxDice} allowed`,
        this.source,
        { start: 0, end: this.source.length },
      );
    }
    // Plain dice and arithmetic need no context; skip building one on the hot path.
    const ctx =
      this.plan.fallbacks === 0 ? NO_CONTEXT : this.context(dice, resolved, this.plan.fixedDice);
    if (dice instanceof EnteredDice) {
      return whileEntered(dice, this.source, () => this.plan.total(dice, variables, ctx));
    }
    return this.plan.total(dice, variables, ctx);
  }

  distribution(options: OddsOptions = {}): Distribution {
    const limits = resolveLimits(options.limits);
    const simple = simplePoolOdds(this.source, limits);
    if (simple !== undefined) return new Distribution(this.source, simple);
    const work = new WorkBudget(limits.maxOddsWork, this.source);
    const measure = measureOf(
      this.ast,
      this.source,
      options.variables ?? NO_VARIABLES,
      limits,
      work,
    );
    return new Distribution(this.source, measure);
  }

  /**
   * Refuses, before anything is rolled or allocated, an expression that always needs more
   * dice than `limits` allow: a count written as a number over the limit, or plain dice that
   * add up past it. Computed counts (`(1d30)d10000`) are checked as they are rolled.
   */
  checkLimits(limits?: Partial<DiceLimits>): void {
    const { maxDice } = resolveLimits(limits);
    for (const term of literalDiceTerms(this.ast)) {
      checkCount((term.count as { value: number }).value, maxDice, this.source, term);
    }
    if (this.plan.fixedDice > maxDice) {
      throw new DiceError(
        'dice/too-many-dice',
        `this roll needs ${this.plan.fixedDice} dice, more than the ${maxDice} allowed`,
        this.source,
        { start: 0, end: this.source.length },
      );
    }
  }

  private context(dice: DiceSource, limits: DiceLimits, alreadyRolled: number): RollContext {
    const exhausted = dice instanceof EnteredDice ? () => dice.exhausted : never;
    return { source: dice, limits, expression: this.source, exhausted, diceRolled: alreadyRolled };
  }
}

const DEFAULT = resolveLimits(undefined);
const never = (): boolean => false;
const NO_CONTEXT: RollContext = {
  source: { roll: () => 1 },
  limits: DEFAULT,
  expression: '',
  exhausted: never,
  diceRolled: 0,
};

/**
 * Runs a roll and, when entered faces ran out, reports that: the placeholder faces that let
 * the roll count what is missing may also have caused an error of their own (10/(1d2-1)), and
 * that error would be about dice nobody rolled.
 */
function whileEntered<T>(dice: DiceSource, expression: string, rollIt: () => T): T {
  let result: T;
  try {
    result = rollIt();
  } catch (error) {
    checkEnteredFaces(dice, expression);
    throw error;
  }
  checkEnteredFaces(dice, expression);
  return result;
}

function checkEnteredFaces(dice: DiceSource, expression: string): void {
  if (!(dice instanceof EnteredDice) || !dice.exhausted) return;
  const missing = dice.shortfall;
  const list = missing.map((sides) => `d${sides}`).join(', ');
  throw new DiceError(
    'dice/entered-too-few',
    `${expression} needs ${missing.length} more ${missing.length === 1 ? 'die' : 'dice'} than were entered (${list}), or more if they reroll or explode`,
  );
}
