/**
 * Every mistake a user can make with dice (bad notation, an unknown variable, an impossible die,
 * a limit reached, an entered face that does not fit) is a DiceError with a stable code, so
 * callers can branch on it, and the column it concerns, so a person can see where it is.
 */
export type DiceErrorCode =
  | 'dice/syntax'
  | 'dice/unknown-variable'
  | 'dice/unknown-function'
  | 'dice/bad-argument'
  | 'dice/no-sides'
  | 'dice/too-many-sides'
  | 'dice/negative-count'
  | 'dice/too-many-dice'
  | 'dice/explode-d1'
  | 'dice/always-matches'
  | 'dice/bad-modifier'
  | 'dice/division-by-zero'
  | 'dice/unsafe-integer'
  | 'dice/entered-out-of-range'
  | 'dice/entered-too-few'
  | 'dice/entered-too-many'
  | 'dice/bad-seed'
  | 'dice/bad-limit'
  | 'odds/too-large'
  | 'odds/unsupported';

/** A half-open range of character offsets in the expression text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export class DiceError extends Error {
  override readonly name = 'DiceError';
  readonly code: DiceErrorCode;
  /** The expression the error concerns, when there is one. */
  readonly expression: string | undefined;
  /** Where in the expression, as 0-based offsets; `column` is 1-based for people. */
  readonly span: Span | undefined;

  constructor(code: DiceErrorCode, message: string, expression?: string, span?: Span) {
    super(message);
    this.code = code;
    this.expression = expression;
    this.span = span;
  }

  get column(): number | undefined {
    return this.span === undefined ? undefined : this.span.start + 1;
  }

  /**
   * The message, and when the error has a place, the expression with a caret under it:
   *
   *     unexpected '$' at column 5
   *       3d6+$
   *           ^
   */
  explain(): string {
    if (this.expression === undefined || this.span === undefined) return this.message;
    const width = Math.max(1, this.span.end - this.span.start);
    const caret = `${' '.repeat(this.span.start)}${'^'.repeat(width)}`;
    return `${this.message} at column ${this.column}\n  ${this.expression}\n  ${caret}`;
  }
}
