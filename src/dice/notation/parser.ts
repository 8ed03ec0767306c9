import { DiceError, type Span } from '../errors.js';
import type {
  ArithmeticOperator,
  CompareOperator,
  ComparePoint,
  DiceAst,
  DiceModifiers,
  DieFaces,
  ExplodeModifier,
  FunctionName,
  KeepModifier,
  RerollModifier,
} from './ast.js';

const FUNCTIONS: ReadonlySet<string> = new Set<FunctionName>([
  'floor',
  'ceil',
  'round',
  'abs',
  'min',
  'max',
]);

/** Longest expression text accepted; far beyond any damage code, short enough to parse at once. */
export const MAX_EXPRESSION_LENGTH = 1000;
/** Nesting of parentheses, braces and unary minus; keeps recursion far from the stack limit. */
const MAX_DEPTH = 64;

/** Parses dice notation into a syntax tree; the grammar is in docs/dice-notation.md. */
export function parseDiceNotation(text: string): DiceAst {
  return new Parser(text).parseAll();
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

function isIdentStart(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z_]/.test(ch);
}

function isIdentPart(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_]/.test(ch);
}

function describeChar(ch: string | undefined): string {
  return ch === undefined ? 'the end of the expression' : `'${ch}'`;
}

interface ModifierRules {
  /** Groups hold expressions, not dice: nothing there to reroll or explode. */
  readonly perDie: boolean;
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parseAll(): DiceAst {
    if (this.text.length > MAX_EXPRESSION_LENGTH) {
      throw this.error(
        'dice/syntax',
        `the expression is ${this.text.length} characters long; the most accepted is ${MAX_EXPRESSION_LENGTH}`,
        MAX_EXPRESSION_LENGTH,
      );
    }
    this.skipSpace();
    if (this.pos >= this.text.length) {
      throw this.error('dice/syntax', 'the expression is empty', 0);
    }
    const ast = this.parseAdditive();
    this.skipSpace();
    if (this.pos < this.text.length) {
      throw this.error(
        'dice/syntax',
        `unexpected ${describeChar(this.peek())}: expected an operator (+ - * /) or the end`,
        this.pos,
      );
    }
    return ast;
  }

  private peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  private skipSpace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  private error(
    code: 'dice/syntax' | 'dice/bad-modifier',
    message: string,
    start: number,
    end = start + 1,
  ): DiceError {
    return new DiceError(code, message, this.text, {
      start,
      end: Math.min(Math.max(end, start + 1), this.text.length + 1),
    });
  }

  private span(start: number): Span {
    return { start, end: this.pos };
  }

  private enter(start: number): void {
    if (++this.depth > MAX_DEPTH) {
      throw this.error('dice/syntax', `nesting deeper than ${MAX_DEPTH} levels`, start);
    }
  }

  private parseAdditive(): DiceAst {
    return this.parseLeftAssociative(['+', '-'], () => this.parseMultiplicative());
  }

  private parseMultiplicative(): DiceAst {
    return this.parseLeftAssociative(['*', '/'], () => this.parseUnary());
  }

  /** One precedence level: operands joined by any of `operators`, grouped left to right. */
  private parseLeftAssociative(
    operators: readonly ArithmeticOperator[],
    operand: () => DiceAst,
  ): DiceAst {
    const start = this.pos;
    let left = operand();
    for (;;) {
      const end = this.pos;
      this.skipSpace();
      const op = operators.find((o) => o === this.peek());
      if (op === undefined) {
        this.pos = end; // spans stop at the operand, not at the spaces after it
        return left;
      }
      this.pos++;
      this.skipSpace();
      const right = operand();
      left = { kind: 'arithmetic', operator: op, left, right, span: this.span(start) };
    }
  }

  private parseUnary(): DiceAst {
    const start = this.pos;
    const ch = this.peek();
    if (ch === '-' || ch === '+') {
      this.enter(start);
      this.pos++;
      this.skipSpace();
      const operand = this.parseUnary();
      this.depth--;
      return ch === '-' ? { kind: 'negate', operand, span: this.span(start) } : operand;
    }
    return this.parsePrimary();
  }

  private parsePrimary(): DiceAst {
    const start = this.pos;
    const ch = this.peek();
    if (isDigit(ch)) {
      const count = this.parseInteger();
      return this.startsDice() ? this.parseDiceTail(count, start) : count;
    }
    if (this.startsDice()) {
      const one: DiceAst = { kind: 'number', value: 1, span: { start, end: start } };
      return this.parseDiceTail(one, start);
    }
    if (ch === '(') {
      this.enter(start);
      this.pos++;
      this.skipSpace();
      const inner = this.parseAdditive();
      this.skipSpace();
      this.expect(')', "')' to close the '('", start);
      this.depth--;
      const parens: DiceAst = { kind: 'parens', inner, span: this.span(start) };
      return this.startsDice() ? this.parseDiceTail(parens, start) : parens;
    }
    if (ch === '{') return this.parseGroup();
    if (isIdentStart(ch)) return this.parseName();
    throw this.error(
      'dice/syntax',
      `unexpected ${describeChar(ch)}: expected a number, dice, a name or '('`,
      start,
    );
  }

  private expect(ch: string, what: string, openedAt?: number): void {
    if (this.peek() !== ch) {
      const hint = openedAt === undefined ? '' : ` (opened at column ${openedAt + 1})`;
      throw this.error(
        'dice/syntax',
        `expected ${what}${hint}, found ${describeChar(this.peek())}`,
        this.pos,
      );
    }
    this.pos++;
  }

  private parseInteger(): DiceAst {
    const start = this.pos;
    while (isDigit(this.peek())) this.pos++;
    if (this.peek() === '.' && isDigit(this.peek(1))) {
      throw this.error(
        'dice/syntax',
        'dice expressions use whole numbers only',
        start,
        this.pos + 2,
      );
    }
    const value = Number(this.text.slice(start, this.pos));
    if (!Number.isSafeInteger(value)) {
      throw this.error(
        'dice/syntax',
        `${this.text.slice(start, this.pos)} is too large a number`,
        start,
        this.pos,
      );
    }
    return { kind: 'number', value, span: this.span(start) };
  }

  /** A 'd' that begins dice rather than a name: followed by sides, `%` or `(`. */
  private startsDice(): boolean {
    const ch = this.peek();
    if (ch !== 'd' && ch !== 'D') return false;
    const next = this.peek(1);
    return isDigit(next) || next === '%' || next === '(';
  }

  private parseDiceTail(count: DiceAst, start: number): DiceAst {
    this.pos++; // the 'd'
    let faces: DieFaces;
    if (this.peek() === '%') {
      this.pos++;
      faces = { kind: 'percentile' };
    } else if (this.peek() === '(') {
      const open = this.pos;
      this.enter(open);
      this.pos++;
      this.skipSpace();
      const inner = this.parseAdditive();
      this.skipSpace();
      this.expect(')', "')' to close the '('", open);
      this.depth--;
      faces = { kind: 'standard', sides: { kind: 'parens', inner, span: this.span(open) } };
    } else {
      faces = { kind: 'standard', sides: this.parseInteger() };
    }
    const modifiers = this.parseModifiers({ perDie: true });
    return { kind: 'dice', count, faces, modifiers, span: this.span(start) };
  }

  private parseGroup(): DiceAst {
    const start = this.pos;
    this.enter(start);
    this.pos++;
    const items: DiceAst[] = [];
    for (;;) {
      this.skipSpace();
      items.push(this.parseAdditive());
      this.skipSpace();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      this.expect('}', "',' or '}' to close the '{'", start);
      break;
    }
    this.depth--;
    const modifiers = this.parseModifiers({ perDie: false });
    return { kind: 'group', items, modifiers, span: this.span(start) };
  }

  private parseName(): DiceAst {
    const start = this.pos;
    while (isIdentPart(this.peek())) this.pos++;
    const name = this.text.slice(start, this.pos);
    const nameSpan = this.span(start);
    this.skipSpace();
    if (this.peek() === '(') {
      if (!FUNCTIONS.has(name)) {
        throw new DiceError(
          'dice/unknown-function',
          `unknown function '${name}': the functions are ${[...FUNCTIONS].join(', ')}`,
          this.text,
          nameSpan,
        );
      }
      return this.parseCall(name as FunctionName, start);
    }
    this.pos = nameSpan.end;
    if (name === 'fs' || name === 'FS') return { kind: 'fengshui', span: nameSpan };
    return { kind: 'variable', name, span: nameSpan };
  }

  private parseCall(name: FunctionName, start: number): DiceAst {
    const open = this.pos;
    this.enter(open);
    this.pos++;
    const args: DiceAst[] = [];
    this.skipSpace();
    if (this.peek() !== ')') {
      for (;;) {
        this.skipSpace();
        args.push(this.parseAdditive());
        this.skipSpace();
        if (this.peek() !== ',') break;
        this.pos++;
      }
    }
    this.expect(')', "',' or ')' to close the call", open);
    this.depth--;
    const span = this.span(start);
    const variadic = name === 'min' || name === 'max';
    if (variadic ? args.length < 1 : args.length !== 1) {
      throw new DiceError(
        'dice/bad-argument',
        variadic
          ? `${name} needs at least one argument`
          : `${name} takes exactly one argument, got ${args.length}`,
        this.text,
        span,
      );
    }
    return { kind: 'call', name, args, span };
  }

  private parseModifiers(rules: ModifierRules): DiceModifiers {
    let reroll: RerollModifier | undefined;
    let explode: ExplodeModifier | undefined;
    let keep: KeepModifier | undefined;
    let success: ComparePoint | undefined;
    let failure: ComparePoint | undefined;
    let failureAt = 0;
    const onlyOnDice = (start: number, what: string): void => {
      if (!rules.perDie) {
        throw this.error(
          'dice/bad-modifier',
          `${what} applies to dice, not to a {group}`,
          start,
          this.pos,
        );
      }
    };
    const once = <T>(existing: T | undefined, start: number, what: string): void => {
      if (existing !== undefined) {
        throw this.error('dice/bad-modifier', `${what} is given twice`, start, this.pos);
      }
    };
    for (;;) {
      const start = this.pos;
      const two = this.text.slice(this.pos, this.pos + 2);
      const ch = this.peek();
      if (two === 'kh' || two === 'kl' || two === 'dh' || two === 'dl' || ch === 'k') {
        // A bare 'k' keeps the highest, as in most dice rollers.
        const mode: KeepModifier['mode'] =
          ch === 'k' && two !== 'kh' && two !== 'kl' ? 'kh' : (two as KeepModifier['mode']);
        this.pos += mode === two ? 2 : 1;
        const count = isDigit(this.peek()) ? this.readCount() : 1;
        once(keep, start, 'keep/drop');
        keep = { mode, count };
      } else if (ch === 'r') {
        this.pos++;
        const isOnce = this.peek() === 'o';
        if (isOnce) this.pos++;
        onlyOnDice(start, 'reroll');
        const point = this.readComparePoint(false) ?? { operator: '=', value: 1 };
        if (reroll !== undefined && reroll.once !== isOnce) {
          throw this.error(
            'dice/bad-modifier',
            "'r' and 'ro' cannot be mixed on the same dice",
            start,
            this.pos,
          );
        }
        reroll = { when: [...(reroll?.when ?? []), point], once: isOnce };
      } else if (ch === '!') {
        this.pos++;
        const compound = this.peek() === '!';
        if (compound) this.pos++;
        onlyOnDice(start, 'exploding');
        const when = this.readComparePoint(false);
        once(explode, start, 'exploding');
        explode = { when, compound };
      } else if (ch === 'f') {
        this.pos++;
        const point = this.readComparePoint(false);
        if (point === undefined) {
          throw this.error(
            'dice/bad-modifier',
            "'f' needs a compare point, as in f<3 or f1",
            start,
            this.pos + 1,
          );
        }
        once(failure, start, 'the failure compare point');
        failure = point;
        failureAt = start;
      } else if (ch === '>' || ch === '<' || ch === '=') {
        const point = this.readComparePoint(true);
        once(success, start, 'the success compare point');
        success = point;
      } else {
        break;
      }
    }
    if (failure !== undefined && success === undefined) {
      throw this.error(
        'dice/bad-modifier',
        "failures ('f') are counted only with successes, as in 5d10>=8f1",
        failureAt,
      );
    }
    return { reroll, explode, keep, success, failure };
  }

  private readCount(): number {
    const start = this.pos;
    while (isDigit(this.peek())) this.pos++;
    const value = Number(this.text.slice(start, this.pos));
    if (!Number.isSafeInteger(value)) {
      throw this.error(
        'dice/syntax',
        `${this.text.slice(start, this.pos)} is too large a number`,
        start,
        this.pos,
      );
    }
    return value;
  }

  /** `>5`, `<=2`, `=3` or (unless an operator is required) a bare `3` meaning `=3`. */
  private readComparePoint(required: true): ComparePoint;
  private readComparePoint(required: false): ComparePoint | undefined;
  private readComparePoint(required: boolean): ComparePoint | undefined {
    const start = this.pos;
    let operator: CompareOperator | undefined;
    const two = this.text.slice(this.pos, this.pos + 2);
    if (two === '>=' || two === '<=') {
      operator = two;
      this.pos += 2;
    } else if (this.peek() === '>' || this.peek() === '<' || this.peek() === '=') {
      operator = this.peek() as CompareOperator;
      this.pos++;
    }
    if (!isDigit(this.peek())) {
      if (operator === undefined && !required) return undefined;
      throw this.error(
        'dice/bad-modifier',
        `expected a number after '${this.text.slice(start, this.pos)}'`,
        this.pos,
      );
    }
    return { operator: operator ?? '=', value: this.readCount() };
  }
}
