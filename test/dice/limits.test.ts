import { describe, expect, it } from 'vitest';
import {
  DiceExpression,
  diceDistribution,
  parseDice,
  rollDice,
  rollTotal,
  seededDice,
} from '../../src/dice/index.js';
import { diceError } from './helpers.js';

describe('dice limits are checked before anything is allocated', () => {
  it('4294967296d9kh8 is refused with the 10,000-dice limit, on every path', () => {
    for (const f of [
      () => parseDice('4294967296d9kh8'),
      () => rollDice('4294967296d9kh8', { dice: seededDice(1) }),
      () => rollTotal('4294967296d9kh8', seededDice(1)),
      () => diceDistribution('4294967296d9kh8'),
    ]) {
      const error = diceError(f);
      expect(error.code).toBe('dice/too-many-dice');
      expect(error.message).toBe('4294967296 dice is more than the 10000 allowed in one roll');
    }
  });

  it('counts near 1e8 are refused too, and the parse cache keeps none of them', () => {
    expect(diceError(() => parseDice('99999999d9kh8')).code).toBe('dice/too-many-dice');
    expect(diceError(() => parseDice('99999999d9kh8')).code).toBe('dice/too-many-dice');
    expect(diceError(() => parseDice('6000d6+6000d6')).code).toBe('dice/too-many-dice');
  });

  it('a parsed expression holds no scratch space for its dice until it rolls within the limit', () => {
    // Building the expression directly skips parseDice's check: it must still allocate nothing.
    const huge = new DiceExpression('4294967296d9kh8');
    expect(diceError(() => huge.total(seededDice(1))).code).toBe('dice/too-many-dice');
    const fine = new DiceExpression('4d6kh3');
    expect(fine.total(seededDice(1))).toBeGreaterThanOrEqual(3);
  });
});

describe('the exact-odds work budget covers what the sums really cost', () => {
  it('(1d30)d10000: dice counts that are themselves rolled are refused by the budget', () => {
    expect(diceError(() => diceDistribution('(1d30)d10000')).code).toBe('odds/too-large');
  });

  it('30d10000 is refused before it is computed (it took 2 s inside the old budget)', () => {
    // Charged up front: a budget of the default size refuses it before any step runs.
    expect(diceError(() => diceDistribution('30d10000')).code).toBe('odds/too-large');
    expect(diceError(() => diceDistribution('1000d20')).code).toBe('odds/too-large');
  });

  it('what fits is still computed: 1000d6, 10d10000, 4d6kh3', () => {
    expect(diceDistribution('1000d6').mean).toBe(3500);
    expect(diceDistribution('10d10000').max).toBe(100_000);
    expect(diceDistribution('4d6kh3').min).toBe(3);
  });
});

describe('odds and rolls agree on rerolls, cap included', () => {
  it('d100r>=2 is 1 in the odds and in every roll, though the cap is reached in a third of them', () => {
    expect(diceDistribution('d100r>=2').distribution).toEqual([[1, 1]]);
    const dice = seededDice('reroll-cap');
    for (let i = 0; i < 300; i++) expect(rollTotal('d100r>=2', dice)).toBe(1);
  });

  it('sampled rolls of rerolled dice match the exact odds at a fixed seed', () => {
    for (const notation of ['d10r>=3', '2d6r<3', 'd20r2r<5r>18']) {
      const odds = diceDistribution(notation);
      const dice = seededDice(`agree:${notation}`);
      const n = 4000;
      const seen = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const total = rollTotal(notation, dice);
        seen.set(total, (seen.get(total) ?? 0) + 1);
      }
      for (const value of seen.keys()) expect(odds.probabilityOf(value)).toBeGreaterThan(0);
      for (const [value, p] of odds.distribution) {
        const observed = (seen.get(value) ?? 0) / n;
        // Five standard errors: a fixed seed, so this either always passes or never does.
        expect(Math.abs(observed - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / n) + 1e-9);
      }
    }
  });
});
