import type { ArithmeticOperator, FunctionName } from '../notation/ast.js';

/**
 * The annotated result of a roll: the syntax tree again, with every die that was rolled and a
 * subtotal (`value`) on every node. Plain data, so it serialises to JSON as it is.
 */
export type RollNode =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'variable'; readonly name: string; readonly value: number }
  | { readonly kind: 'negate'; readonly operand: RollNode; readonly value: number }
  | {
      readonly kind: 'arithmetic';
      readonly operator: ArithmeticOperator;
      readonly left: RollNode;
      readonly right: RollNode;
      readonly value: number;
    }
  | { readonly kind: 'parens'; readonly inner: RollNode; readonly value: number }
  | {
      readonly kind: 'call';
      readonly name: FunctionName;
      readonly args: readonly RollNode[];
      readonly value: number;
    }
  | DicePoolNode
  | GroupNode
  | FengShuiNode;

export interface DicePoolNode {
  readonly kind: 'dice';
  /** The notation as written, such as `4d6kh3`. */
  readonly notation: string;
  /** Set when the count or the sides were computed by a roll, as in `(1d4)d6`. */
  readonly computedCount: RollNode | undefined;
  readonly computedSides: RollNode | undefined;
  readonly count: number;
  readonly sides: number;
  readonly percentile: boolean;
  /** True when the dice count successes (and failures) rather than add up. */
  readonly counting: boolean;
  readonly dice: readonly Die[];
  readonly value: number;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly notation: string;
  readonly counting: boolean;
  readonly items: readonly GroupItem[];
  readonly value: number;
}

export interface GroupItem {
  readonly node: RollNode;
  readonly kept: boolean;
  readonly outcome: Outcome;
}

export interface FengShuiNode {
  readonly kind: 'fengshui';
  readonly positive: Die;
  readonly negative: Die;
  /** Both dice showed 6 on their first roll: a possible critical failure in Feng Shui. */
  readonly boxcars: boolean;
  readonly value: number;
}

export type Outcome = 'success' | 'failure' | undefined;

/** One physical die and everything that happened to it. */
export interface Die {
  readonly sides: number;
  /** Every face it showed, in order: faces rerolled away, then (compounding) each added face. */
  readonly faces: readonly number[];
  /** For d%: the tens digit and ones digit behind each face, in the same order. */
  readonly digits: readonly (readonly [number, number])[] | undefined;
  /** What the die counts for: its last face, or the sum of its faces when compounding. */
  readonly value: number;
  readonly kept: boolean;
  readonly rerolled: boolean;
  /** It exploded: it added a die to the pool (`!`) or compounded into itself (`!!`). */
  readonly exploded: boolean;
  readonly compounded: boolean;
  /** It was added to the pool by another die's explosion. */
  readonly fromExplosion: boolean;
  readonly outcome: Outcome;
}
