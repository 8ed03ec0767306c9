import { DiceError } from '../errors.js';
import type { DiceSource } from './source.js';

/**
 * The saved form of a SeededDice: the four 32-bit words of xoshiro128** state. Plain JSON, so a
 * saved encounter resumes exactly the same stream of dice.
 */
export interface SeededDiceState {
  readonly algorithm: 'xoshiro128**';
  readonly words: readonly [number, number, number, number];
}

const TWO_32 = 4294967296;
/** Below this many sides x*sides stays under 2^53, so one multiply gives an exact 64-bit product. */
const LEMIRE_LIMIT = 2 ** 21;

/**
 * Dice from xoshiro128** (Blackman and Vigna), seeded through splitmix32. Faces are mapped to
 * 1..sides without bias: Lemire's multiply-and-reject for dice up to 2^21 sides, plain rejection
 * on 53 bits above that.
 */
export class SeededDice implements DiceSource {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(state: SeededDiceState) {
    const words = validateState(state);
    [this.s0, this.s1, this.s2, this.s3] = words;
  }

  /** A generator seeded from a safe integer or a string (hashed with FNV-1a). */
  static fromSeed(seed: number | string): SeededDice {
    let x: number;
    let y: number;
    if (typeof seed === 'string') {
      x = fnv1a(seed, 0x811c9dc5);
      y = fnv1a(seed, 0x01000193);
    } else {
      if (!Number.isSafeInteger(seed)) {
        throw new DiceError(
          'dice/bad-seed',
          `a seed must be a whole number or a string, got ${seed}`,
        );
      }
      // Both halves of a 53-bit seed, so 1 and 2^32+1 differ.
      x = seed >>> 0;
      y = Math.floor(seed / TWO_32) >>> 0;
    }
    const mix = splitmix32((x ^ Math.imul(y, 0x9e3779b9)) >>> 0);
    const words: [number, number, number, number] = [mix(), mix(), mix(), mix()];
    if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
    return new SeededDice({ algorithm: 'xoshiro128**', words });
  }

  get state(): SeededDiceState {
    return {
      algorithm: 'xoshiro128**',
      words: [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0],
    };
  }

  /** The next 32 random bits as an unsigned integer. */
  next32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  roll(sides: number): number {
    if (sides <= LEMIRE_LIMIT) {
      let m = this.next32() * sides;
      let low = m >>> 0;
      if (low < sides) {
        const threshold = (TWO_32 - sides) % sides;
        while (low < threshold) {
          m = this.next32() * sides;
          low = m >>> 0;
        }
      }
      return Math.floor(m / TWO_32) + 1;
    }
    const limit = Math.floor(2 ** 53 / sides) * sides;
    for (;;) {
      const bits = (this.next32() >>> 11) * TWO_32 + this.next32();
      if (bits < limit) return (bits % sides) + 1;
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

function splitmix32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

function fnv1a(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

function validateState(state: SeededDiceState): [number, number, number, number] {
  const words = (state as { words?: unknown }).words;
  if (
    (state as { algorithm?: unknown }).algorithm !== 'xoshiro128**' ||
    !Array.isArray(words) ||
    words.length !== 4 ||
    !words.every((w) => Number.isInteger(w) && w >= 0 && w < TWO_32) ||
    words.every((w) => w === 0)
  ) {
    throw new DiceError(
      'dice/bad-seed',
      'a saved dice state must be { algorithm: "xoshiro128**", words: [four 32-bit unsigned integers, not all 0] }',
    );
  }
  return [words[0] | 0, words[1] | 0, words[2] | 0, words[3] | 0];
}
