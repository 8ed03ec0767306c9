import { DiceError } from '../errors.js';

/**
 * Counts the elementary steps of one exact-odds computation and stops it, before the step
 * that would overrun, with a clear error instead of a hang.
 */
export class WorkBudget {
  private spentUnits = 0;

  /** Units charged so far (for calibration and tests). */
  get spent(): number {
    return this.spentUnits;
  }

  constructor(
    private readonly limit: number,
    private readonly expression: string,
  ) {}

  /**
   * Charges `steps` operations on integers of about `bits` bits: big weights (a denominator of
   * 6^4500 has 11,600 bits) cost in proportion to their length, so the budget bounds time.
   */
  charge(steps: number, what: string, bits = 64): void {
    this.spentUnits += steps * Math.max(1, bits / 64);
    if (this.spentUnits > this.limit) {
      throw new DiceError(
        'odds/too-large',
        `exact odds of ${this.expression} would take more than ${this.limit.toLocaleString('en-US')} steps (${what}); sample it with rolls instead, or raise maxOddsWork`,
        this.expression,
        { start: 0, end: this.expression.length },
      );
    }
  }
}
