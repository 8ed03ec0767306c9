import { parseDice, type SeededDice, type Variables } from '../dice/index.js';
import { RecordingSource } from '../engine/dice.js';
import type { DiceRoller, RollNeeds, RollRecord } from '../engine/index.js';

const NO_FACES: readonly number[] = Object.freeze([]);

/**
 * Dice for simulations: totals from the compiled total-only path, no explanation, and no faces
 * kept unless the rules read them (FFVIII's boxcars): those are recorded as the table's dice
 * would record them. A simulated battle is never saved or replayed, so it need not pay for more.
 */
export class FastDice implements DiceRoller {
  readonly explain = false;

  constructor(private readonly source: SeededDice) {}

  roll(purpose: string, notation: string, variables?: Variables, needs?: RollNeeds): RollRecord {
    if (needs?.readsFaces === true) {
      const recording = new RecordingSource(this.source);
      const total = parseDice(notation).total(recording, variables);
      return { purpose, notation, total, dice: recording.faces, text: '', entered: false };
    }
    const total = parseDice(notation).total(this.source, variables);
    return { purpose, notation, total, dice: NO_FACES, text: '', entered: false };
  }
}
