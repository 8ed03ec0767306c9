import {
  DiceError,
  type DiceExpression,
  type DiceSource,
  diceDistribution,
  EnteredDice,
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
 * True when one entered number is the face of the roll's only die and also its total (`d10`,
 * `d100`, a d100's `00` read as 100): then it reads the same either way, and is the face.
 */
export function singleFaceIsTotal(
  expression: DiceExpression,
  value: number,
  variables: Variables,
): boolean {
  const dice = new EnteredDice([value]);
  try {
    const result = expression.roll({ dice, variables });
    return !dice.exhausted && dice.remaining === 0 && result.total === dice.used[0];
  } catch (error) {
    if (error instanceof DiceError) return false;
    throw error;
  }
}
