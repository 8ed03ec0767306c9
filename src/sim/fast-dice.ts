import { parseDice, type SeededDice, type Variables } from '../dice/index.js';
import type { DiceRoller, RollRecord } from '../engine/index.js';

const NO_FACES: readonly number[] = Object.freeze([]);

/**
 * Dice for simulations: totals from the compiled total-only path, no explanation and no faces
 * kept. A simulated battle is never saved or replayed, so it need not pay for either.
 */
export class FastDice implements DiceRoller {
  readonly explain = false;

  constructor(private readonly source: SeededDice) {}

  roll(purpose: string, notation: string, variables?: Variables): RollRecord {
    const total = parseDice(notation).total(this.source, variables);
    return { purpose, notation, total, dice: NO_FACES, text: '', entered: false };
  }
}
