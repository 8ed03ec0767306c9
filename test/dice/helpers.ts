/**
 * Shared helpers for the dice tests: catching a DiceError, fixed dice sources, and a small
 * exhaustive enumerator that computes exact distributions independently of the odds engine.
 */
import { DiceError, type DiceSource, type Distribution } from '../../src/index.js';

/** Runs `f` and returns the DiceError it throws; fails when it throws nothing or something else. */
export function diceError(f: () => unknown): DiceError {
  try {
    f();
  } catch (error) {
    if (error instanceof DiceError) return error;
    throw new Error(`expected a DiceError, got ${String(error)}`);
  }
  throw new Error('expected a DiceError, but nothing was thrown');
}

/** A source that always shows the highest face. */
export const maxDice: DiceSource = { roll: (sides) => sides };

/** A source that always shows 1. */
export const onesDice: DiceSource = { roll: () => 1 };

/** A source that shows the given face (capped at the die's sides) every time. */
export function constantDice(face: number): DiceSource {
  return { roll: (sides) => Math.min(face, sides) };
}

/** A source that records the sides of every die asked for, and shows faces from `faces` (then 1s). */
export function recordingDice(faces: readonly number[] = []): DiceSource & { asked: number[] } {
  const asked: number[] = [];
  let i = 0;
  return {
    asked,
    roll(sides: number): number {
      asked.push(sides);
      return faces[i++] ?? 1;
    },
  };
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** An exact fraction num/den, den > 0, in lowest terms. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

export function fraction(num: bigint, den: bigint): Fraction {
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

export function addFractions(a: Fraction, b: Fraction): Fraction {
  return fraction(a.num * b.den + b.num * a.den, a.den * b.den);
}

/** Chooses one of `options`, each equally likely. */
export type Pick = <T>(options: readonly T[]) => T;

/** A die with `sides` faces, through `pick`. */
export function die(pick: Pick, sides: number): number {
  return pick(Array.from({ length: sides }, (_, i) => i + 1));
}

/**
 * The exact distribution of a program that makes uniform choices through `pick`, found by
 * walking every sequence of choices (an odometer over the tree of choices). A program returns
 * `undefined` to drop a path: that mass is missing, as with truncated explosions.
 */
export function enumerate(program: (pick: Pick) => number | undefined): Map<number, Fraction> {
  const choices: number[] = [];
  const sizes: number[] = [];
  const result = new Map<number, Fraction>();
  for (;;) {
    let depth = 0;
    const pick: Pick = <T>(options: readonly T[]): T => {
      if (options.length === 0) throw new Error('pick from no options');
      if (depth < choices.length) {
        if (sizes[depth] !== options.length) throw new Error('the program is not deterministic');
        return options[choices[depth++]!]!;
      }
      choices.push(0);
      sizes.push(options.length);
      depth++;
      return options[0]!;
    };
    const value = program(pick);
    choices.length = depth;
    sizes.length = depth;
    if (value !== undefined) {
      let den = 1n;
      for (const size of sizes) den *= BigInt(size);
      const before = result.get(value) ?? { num: 0n, den: 1n };
      result.set(value, addFractions(before, { num: 1n, den }));
    }
    while (choices.length > 0 && choices.at(-1) === sizes.at(-1)! - 1) {
      choices.pop();
      sizes.pop();
    }
    if (choices.length === 0) break;
    choices[choices.length - 1]!++;
  }
  return result;
}

/** The odds engine's exact outcomes as fractions, value -> probability. */
export function exactOutcomes(dist: Distribution): Map<number, Fraction> {
  const map = new Map<number, Fraction>();
  for (const { value, weight } of dist.outcomes) map.set(value, fraction(weight, dist.denominator));
  return map;
}

/** Fractions as "value: num/den" lines, sorted, for readable exact comparisons. */
export function describeFractions(map: Map<number, Fraction>): string[] {
  return [...map.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([value, { num, den }]) => `${value}: ${num}/${den}`);
}

/**
 * A DiceSource that walks every sequence of faces, for running the roller itself over all
 * possible rolls. `run` is called once per sequence with a fresh source.
 */
export function enumerateSource(run: (dice: DiceSource) => number): Map<number, Fraction> {
  return enumerate((pick) => run({ roll: (sides) => die(pick, sides) }));
}
