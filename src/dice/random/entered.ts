import { DiceError } from '../errors.js';
import type { DiceSource } from './source.js';

/**
 * Faces a person rolled at the table, handed out in the order the roll asks for them. Each face
 * is checked against the die it fills. When they run out the roll goes on with placeholders, so
 * the error can say how many more dice are needed instead of stopping at the first gap.
 */
export class EnteredDice implements DiceSource {
  private next = 0;
  private readonly missing: number[] = [];
  private readonly handedOut: number[] = [];

  constructor(private readonly faces: readonly number[]) {}

  roll(sides: number): number {
    if (this.next >= this.faces.length) {
      this.missing.push(sides);
      return 1;
    }
    const index = this.next++;
    const entered = this.faces[index]!;
    // A physical d10 prints 0 on its tenth face, and a d100 (or the tens die of a pair) 00 on
    // its hundredth: the rule texts read both as the highest face.
    const face = (sides === 10 || sides === 100) && entered === 0 ? sides : entered;
    if (!Number.isInteger(face) || face < 1 || face > sides) {
      const range =
        sides === 10 || sides === 100 ? `0 (for ${sides}) to ${sides}` : `1 to ${sides}`;
      throw new DiceError(
        'dice/entered-out-of-range',
        `entered die ${index + 1} is ${entered}, but it fills a d${sides}, which shows ${range}`,
      );
    }
    this.handedOut.push(face);
    return face;
  }

  /** The faces handed out so far, as the dice read them (a d10's 0 as 10). */
  get used(): readonly number[] {
    return this.handedOut;
  }

  /** True once a die was asked for that nobody entered. */
  get exhausted(): boolean {
    return this.missing.length > 0;
  }

  /** The sides of each die asked for after the entered faces ran out. */
  get shortfall(): readonly number[] {
    return this.missing;
  }

  /** Entered faces not used yet. */
  get remaining(): number {
    return this.faces.length - this.next;
  }
}

/** Reads `3,5,6` (commas or spaces) into faces, rejecting anything that is not a whole number. */
export function parseEnteredFaces(text: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length === 0) {
    throw new DiceError(
      'dice/entered-out-of-range',
      'no dice were entered: give faces such as 3,5,6',
    );
  }
  return parts.map((part, i) => {
    if (!/^\d{1,10}$/.test(part)) {
      throw new DiceError(
        'dice/entered-out-of-range',
        `entered die ${i + 1} is '${part}', not a whole number`,
      );
    }
    return Number(part);
  });
}
