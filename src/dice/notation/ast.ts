import type { Span } from '../errors.js';

/**
 * The syntax tree of a dice expression. It says what to roll, never what was rolled: the
 * roller turns it into a RollNode tree, the odds engine into a distribution.
 */
export type DiceAst =
  | NumberLiteral
  | VariableRef
  | Negation
  | Arithmetic
  | Parenthesised
  | FunctionCall
  | DiceRoll
  | DiceGroup
  | FengShuiRoll;

export interface NumberLiteral {
  readonly kind: 'number';
  readonly value: number;
  readonly span: Span;
}

/** A value the caller supplies, such as STR or WPN in a damage code. */
export interface VariableRef {
  readonly kind: 'variable';
  readonly name: string;
  readonly span: Span;
}

export interface Negation {
  readonly kind: 'negate';
  readonly operand: DiceAst;
  readonly span: Span;
}

export type ArithmeticOperator = '+' | '-' | '*' | '/';

export interface Arithmetic {
  readonly kind: 'arithmetic';
  readonly operator: ArithmeticOperator;
  readonly left: DiceAst;
  readonly right: DiceAst;
  readonly span: Span;
}

/** Kept so an explanation can print the expression as it was written. */
export interface Parenthesised {
  readonly kind: 'parens';
  readonly inner: DiceAst;
  readonly span: Span;
}

export type FunctionName = 'floor' | 'ceil' | 'round' | 'abs' | 'min' | 'max';

export interface FunctionCall {
  readonly kind: 'call';
  readonly name: FunctionName;
  readonly args: readonly DiceAst[];
  readonly span: Span;
}

export type CompareOperator = '=' | '>' | '<' | '>=' | '<=';

/** A compare point such as the `>=8` in `5d10>=8` or the `>5` in `1d6!>5`. */
export interface ComparePoint {
  readonly operator: CompareOperator;
  readonly value: number;
}

export type KeepMode = 'kh' | 'kl' | 'dh' | 'dl';

export interface KeepModifier {
  readonly mode: KeepMode;
  readonly count: number;
}

export interface RerollModifier {
  /** A face is rerolled when it matches any of these. */
  readonly when: readonly ComparePoint[];
  /** `ro`: at most one reroll per face; `r`: until the face no longer matches. */
  readonly once: boolean;
}

export interface ExplodeModifier {
  /** Absent: the die's highest face. */
  readonly when: ComparePoint | undefined;
  /** `!!`: the extra rolls add into the same die instead of joining the pool as new dice. */
  readonly compound: boolean;
}

/** What follows `NdS` (or a group). Applied in this order, however they were written. */
export interface DiceModifiers {
  readonly reroll: RerollModifier | undefined;
  readonly explode: ExplodeModifier | undefined;
  readonly keep: KeepModifier | undefined;
  /** With a success compare point the dice count successes (minus failures) instead of summing. */
  readonly success: ComparePoint | undefined;
  readonly failure: ComparePoint | undefined;
}

export type DieFaces =
  | { readonly kind: 'standard'; readonly sides: DiceAst }
  /** `d%`: a tens die and a ones die read together, 0 and 0 reading 100. */
  | { readonly kind: 'percentile' };

export interface DiceRoll {
  readonly kind: 'dice';
  readonly count: DiceAst;
  readonly faces: DieFaces;
  readonly modifiers: DiceModifiers;
  readonly span: Span;
}

/** `{4d6, 3d8}kh1`: each expression in the braces is one entry to keep, drop or count. */
export interface DiceGroup {
  readonly kind: 'group';
  readonly items: readonly DiceAst[];
  readonly modifiers: DiceModifiers;
  readonly span: Span;
}

/** Feng Shui action dice: a positive d6 minus a negative d6, each exploding on 6. */
export interface FengShuiRoll {
  readonly kind: 'fengshui';
  readonly span: Span;
}

export const NO_MODIFIERS: DiceModifiers = {
  reroll: undefined,
  explode: undefined,
  keep: undefined,
  success: undefined,
  failure: undefined,
};
