import { describe, expect, it } from 'vitest';
import { SeededDice } from '../../src/dice/index.js';
import { CommandDice } from '../../src/engine/index.js';
import { readActionDice } from '../../src/rulesets/ffviii/action-dice.js';
import { FastDice } from '../../src/sim/fast-dice.js';

describe("a simulation's dice", () => {
  it('roll what the table would roll from the same stream: the same totals, and the faces where the rules read them', () => {
    for (let seed = 0; seed < 300; seed++) {
      const fast = new FastDice(SeededDice.fromSeed(seed));
      const table = new CommandDice(SeededDice.fromSeed(seed), { explain: false });
      for (const [notation, readsFaces] of [
        ['fs', true],
        ['d100', false],
        ['fs', true],
        ['2d8+3', false],
      ] as const) {
        const a = fast.roll('check', notation, {}, { readsFaces });
        const b = table.roll('check', notation, {}, { readsFaces });
        expect(a.total).toBe(b.total);
        if (readsFaces) expect(a.dice).toEqual(b.dice);
      }
    }
  });

  it("give FFVIII's action dice their boxcars: both dice six on the first throw, 1 in 36", () => {
    const dice = new FastDice(SeededDice.fromSeed('boxcars'));
    let boxcars = 0;
    const n = 36_000;
    for (let i = 0; i < n; i++) {
      const roll = dice.roll('check', 'fs', {}, { readsFaces: true });
      const reading = readActionDice(roll.dice);
      expect(reading.roll).toBe(roll.total);
      if (reading.boxcars) boxcars++;
    }
    // 1,000 expected, standard deviation about 31: four of them either way.
    expect(boxcars).toBeGreaterThan(875);
    expect(boxcars).toBeLessThan(1125);
  });
});
