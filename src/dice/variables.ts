import { DiceError, type Span } from './errors.js';

/** Named values a caller supplies for an expression, such as `{ STR: 8 }`. */
export type Variables = Readonly<Record<string, number>>;

export function lookupVariable(
  variables: Variables,
  name: string,
  expression: string,
  span: Span,
): number {
  const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
  if (value === undefined) {
    const known = Object.keys(variables);
    const hint = known.length > 0 ? ` (known: ${known.join(', ')})` : '';
    throw new DiceError(
      'dice/unknown-variable',
      `unknown variable '${name}': give it a value${hint}`,
      expression,
      span,
    );
  }
  if (!Number.isSafeInteger(value)) {
    throw new DiceError(
      'dice/bad-argument',
      `variable '${name}' must be a whole number, got ${value}`,
      expression,
      span,
    );
  }
  return value;
}
