import {
  type DiceAst,
  DiceError,
  type DiceExpression,
  type DiceSource,
  diceDistribution,
  EnteredDice,
  type RollNode,
  type Variables,
} from '../dice/index.js';

/** How many face sequences a total is checked against before exact odds take over. */
const MAX_SEQUENCES = 4096;

/** Raised by the probing source when the roll wants a die past the prefix being tried. */
class NeedsDie {
  constructor(readonly sides: number) {}
}

/** Hands out a fixed prefix of faces, then asks for more by throwing. */
class PrefixSource implements DiceSource {
  private next = 0;
  constructor(private readonly prefix: readonly number[]) {}
  roll(sides: number): number {
    if (this.next < this.prefix.length) return this.prefix[this.next++]!;
    throw new NeedsDie(sides);
  }
  get finished(): boolean {
    return this.next === this.prefix.length;
  }
}

/**
 * What a total entered at the table stands for:
 * - `faces`: the one sequence of faces that gives it (`28` on d% is 2 and 8; `12` on 1d10+SPD
 *   with SPD 5 is a 7), so the roll is recorded and checked as if the faces had been entered;
 * - `total`: several sequences give it (`32` on 2*STR+2d8): only the total is known;
 * - `impossible`: no roll of the notation gives it, with the range it could have been.
 */
export type TotalReading =
  | { readonly kind: 'faces'; readonly faces: readonly number[] }
  | { readonly kind: 'total' }
  | { readonly kind: 'impossible'; readonly min: number; readonly max: number };

/**
 * Reads an entered total against the notation's possible rolls: every sequence of faces is
 * tried while there are few (d%, 3d6, a damage code with one die), exact odds decide beyond.
 */
export function readEnteredTotal(
  expression: DiceExpression,
  total: number,
  variables: Variables,
): TotalReading {
  const matches: number[][] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const stack: number[][] = [[]];
  let tried = 0;
  while (stack.length > 0) {
    if (++tried > MAX_SEQUENCES) return byDistribution(expression, total, variables);
    const prefix = stack.pop()!;
    const source = new PrefixSource(prefix);
    let value: number;
    try {
      value = expression.total(source, variables);
    } catch (error) {
      // Faces that make the roll itself fail (a division by zero) are not a way to get it.
      if (error instanceof DiceError) continue;
      if (!(error instanceof NeedsDie)) throw error;
      for (let face = error.sides; face >= 1; face--) stack.push([...prefix, face]);
      continue;
    }
    if (!source.finished) continue;
    min = Math.min(min, value);
    max = Math.max(max, value);
    if (value === total) matches.push(prefix);
  }
  if (matches.length === 0) return { kind: 'impossible', min, max };
  return matches.length === 1 ? { kind: 'faces', faces: matches[0]! } : { kind: 'total' };
}

function byDistribution(
  expression: DiceExpression,
  total: number,
  variables: Variables,
): TotalReading {
  const odds = diceDistribution(expression.source, { variables });
  if (odds.probabilityOf(total) > 0) return { kind: 'total' };
  return { kind: 'impossible', min: odds.min, max: odds.max };
}

/**
 * What one number the table read off the dice stands for (`{ sum: 9 }`): the dice without
 * the roll's modifiers, as a player says "I rolled a 10" on `2*AGI + d12` or "9" on two d8
 * showing 4 and 5 (a d%'s two dice read together, 28, as the text reads them):
 * - `faces`: one sequence of faces shows it (a one-die roll's face, `28` on d%);
 * - `total`: several show it, all giving the same total (9 on `2*STR+2d8`);
 * - `ambiguous`: several show it with different totals: the faces are needed;
 * - `unlisted`: the rolls are too many to list (dice that explode among modifiers): the faces
 *   or the total are needed;
 * - `impossible`: the dice never show it, with the range they do.
 */
export type SumReading =
  | { readonly kind: 'faces'; readonly faces: readonly number[] }
  | { readonly kind: 'total'; readonly total: number }
  | { readonly kind: 'ambiguous' }
  | { readonly kind: 'unlisted' }
  | { readonly kind: 'impossible'; readonly min: number; readonly max: number };

export function readEnteredSum(
  expression: DiceExpression,
  sum: number,
  variables: Variables,
): SumReading {
  // A one-die roll's number is its face, read as a physical die is (a d10's 0 is its 10).
  if (fillsTheOnlyDie(expression, sum, variables)) return { kind: 'faces', faces: [sum] };
  // Where the dice are the whole roll the sum is the total, and the total's reading (with its
  // exact odds past the listing bound) says the rest.
  if (isDiceAlone(expression.ast)) {
    const reading = readEnteredTotal(expression, sum, variables);
    return reading.kind === 'total' ? { kind: 'total', total: sum } : reading;
  }
  const matches: { faces: number[]; total: number }[] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const stack: number[][] = [[]];
  let tried = 0;
  while (stack.length > 0) {
    if (++tried > MAX_SEQUENCES) return { kind: 'unlisted' };
    const prefix = stack.pop()!;
    const source = new PrefixSource(prefix);
    let shown: number;
    let total: number;
    try {
      const result = expression.roll({ dice: source, variables });
      shown = diceShown(result.detail);
      total = result.total;
    } catch (error) {
      if (error instanceof DiceError) continue;
      if (!(error instanceof NeedsDie)) throw error;
      for (let face = error.sides; face >= 1; face--) stack.push([...prefix, face]);
      continue;
    }
    if (!source.finished) continue;
    min = Math.min(min, shown);
    max = Math.max(max, shown);
    if (shown === sum) matches.push({ faces: prefix, total });
  }
  if (matches.length === 0) return { kind: 'impossible', min, max };
  if (matches.length === 1) return { kind: 'faces', faces: matches[0]!.faces };
  const total = matches[0]!.total;
  return matches.every((m) => m.total === total) ? { kind: 'total', total } : { kind: 'ambiguous' };
}

/** What the dice of a rolled tree show without the modifiers around them: each pool's value, added. */
function diceShown(node: RollNode): number {
  switch (node.kind) {
    case 'dice':
    case 'group':
    case 'fengshui':
      return node.value;
    case 'negate':
      return diceShown(node.operand);
    case 'parens':
      return diceShown(node.inner);
    case 'arithmetic':
      return diceShown(node.left) + diceShown(node.right);
    case 'call':
      return node.args.reduce((sum, arg) => sum + diceShown(arg), 0);
    default:
      return 0;
  }
}

/** True when the expression is one pool of dice and nothing else (`2d8`, `10d10`, `(3d6)`). */
function isDiceAlone(ast: DiceAst): boolean {
  if (ast.kind === 'parens') return isDiceAlone(ast.inner);
  return ast.kind === 'dice' || ast.kind === 'group' || ast.kind === 'fengshui';
}

/** True when the roll takes exactly one die and `value` fits it. */
function fillsTheOnlyDie(expression: DiceExpression, value: number, variables: Variables): boolean {
  const dice = new EnteredDice([value]);
  try {
    expression.total(dice, variables);
    return !dice.exhausted && dice.remaining === 0;
  } catch (error) {
    if (error instanceof DiceError) return false;
    throw error;
  }
}
