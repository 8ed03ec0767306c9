import { DiceError, type Span } from './errors.js';
import type { ArithmeticOperator } from './notation/ast.js';

/** How a division rounds: down by default, as every rule text does; ceil() and round() choose otherwise. */
export type Rounding = 'floor' | 'ceil' | 'round';

/**
 * Exact integer division with the chosen rounding (round: halves go up). Exact for every safe
 * integer, where `Math.floor(a / b)` can be off by one on large values.
 */
export function divide(a: number, b: number, rounding: Rounding): number {
  let n = a;
  let d = b;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  let q: number;
  let r: number;
  if (Math.abs(n) <= 0x7fffffff && d <= 0x7fffffff) {
    q = Math.floor(n / d);
    r = n - q * d;
  } else {
    const bn = BigInt(n);
    const bd = BigInt(d);
    let bq = bn / bd;
    if (bq * bd > bn) bq -= 1n;
    q = Number(bq);
    r = Number(bn - bq * bd);
  }
  if (rounding === 'ceil' && r > 0) return q + 1;
  if (rounding === 'round' && 2 * r >= d) return q + 1;
  return q + 0; // 0 / -5 is 0, not -0
}

/** The checks every evaluator shares: no division by zero, no result past the safe integers. */
export function applyOperator(
  operator: ArithmeticOperator,
  left: number,
  right: number,
  rounding: Rounding,
  expression: string,
  span: Span,
): number {
  let value: number;
  switch (operator) {
    case '+':
      value = left + right;
      break;
    case '-':
      value = left - right;
      break;
    case '*':
      value = left * right;
      break;
    case '/':
      if (right === 0) {
        throw new DiceError('dice/division-by-zero', 'division by zero', expression, span);
      }
      return divide(left, right, rounding);
  }
  if (!Number.isSafeInteger(value)) {
    throw new DiceError(
      'dice/unsafe-integer',
      `${left} ${operator} ${right} is too large to be exact`,
      expression,
      span,
    );
  }
  return value === 0 ? 0 : value; // no -0 in results
}
