/**
 * Where dice faces come from. Rules never reach for a global random generator: they are handed a DiceSource, so a
 * seeded generator makes play repeatable and a person's physical dice can stand in for it.
 */
export interface DiceSource {
  /** One face of a die with `sides` sides: a whole number from 1 to `sides`. */
  roll(sides: number): number;
}

/** The largest die a source must support: faces stay exact in 32-bit arithmetic. */
export const MAX_SIDES = 2 ** 32;
