/**
 * The Feng Shui action dice and the action check: "rolls the dice and adds the result to the
 * appropriate Action Value. If the final result is higher than or equal to the difficulty, the
 * action succeeds"; boxcars under both readings of the `boxcars` option.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enteredDice, rollDice, seededDice } from '../../../src/dice/index.js';
import {
  ACTION_DICE,
  actionCheck,
  readActionDice,
  WILLING_DIFFICULTY,
} from '../../../src/rulesets/ffviii/action-dice.js';
import { rollOf } from './helpers.js';

/** What the dice engine makes of these faces for `1d6!-1d6!`, and the faces it used. */
function engineTotal(faces: readonly number[]): { total: number; used: number[] } {
  const dice = enteredDice(faces);
  const total = rollDice(ACTION_DICE, { dice }).total;
  expect(dice.remaining).toBe(0);
  return { total, used: [...dice.used] };
}

describe('readActionDice: the faces of one action roll, positive die first', () => {
  it.each([
    // faces, positive, negative, roll, boxcars
    [[3, 1], 3, 1, 2, false],
    [[1, 5], 1, 5, -4, false],
    [[6, 3, 2], 9, 2, 7, false],
    [[6, 6, 1, 4], 13, 4, 9, false],
    [[2, 6, 6, 5], 2, 17, -15, false],
    [[6, 1, 6, 1], 7, 7, 0, true],
    [[6, 6, 2, 6, 3], 14, 9, 5, true],
    [[5, 6, 6, 1], 5, 13, -8, false],
  ])('%j reads as +%i -%i = %i (boxcars %s)', (faces, positive, negative, roll, boxcars) => {
    const reading = readActionDice(faces);
    expect(reading).toEqual({ positive, negative, roll, boxcars });
    expect(engineTotal(faces).total).toBe(roll);
  });

  it('boxcars are both dice showing six on the first throw, not a six after an explosion', () => {
    // The negative die's second face is a 6, but its first is 3: no boxcars.
    expect(readActionDice([6, 2, 3]).boxcars).toBe(false);
    // The positive die exploded into a 6 then a 1, the negative die opened with 6: boxcars.
    expect(readActionDice([6, 6, 1, 6, 2]).boxcars).toBe(true);
    // Only the negative die shows six.
    expect(readActionDice([4, 6, 2]).boxcars).toBe(false);
  });

  it('agrees with the dice engine on every seeded roll, and the engine rolls the faces it reads', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const source = seededDice(seed);
        const faces: number[] = [];
        const rolled = rollDice(ACTION_DICE, {
          dice: {
            roll: (sides: number) => {
              const face = source.roll(sides);
              faces.push(face);
              return face;
            },
          },
        });
        const reading = readActionDice(faces);
        expect(reading.roll).toBe(rolled.total);
        expect(reading.positive - reading.negative).toBe(reading.roll);
        expect(reading.positive).toBeGreaterThanOrEqual(1);
        expect(reading.negative).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('rollOf (the tests own helper) makes faces that roll what it says and are never boxcars', () => {
    for (let n = -20; n <= 20; n++) {
      const faces = rollOf(n);
      expect(engineTotal(faces).total, `rollOf(${n})`).toBe(n);
      expect(readActionDice(faces).boxcars).toBe(false);
    }
  });
});

describe('actionCheck: "higher than or equal to the difficulty, the action succeeds"', () => {
  it('"he rolls a -4" on Martial Arts AV 11 against the Iron Giant\'s Dodge 6: 7, a hit by 1 (our reading of the text\'s "final result 6")', () => {
    const check = actionCheck(11, 6, -4, false);
    expect(check).toMatchObject({ result: 7, success: true, margin: 1, criticalFailure: false });
  });

  it('"If he had rolled one point lower on the dice, he would have missed": equal succeeds, one less fails', () => {
    expect(actionCheck(11, 6, -5, false)).toMatchObject({ result: 6, success: true, margin: 0 });
    expect(actionCheck(11, 6, -6, false)).toMatchObject({ result: 5, success: false, margin: -1 });
  });

  it('"Fnord rolls a 2, and so his final result is 12" against Magic Evade 1 + 3 for dodging', () => {
    expect(actionCheck(10, 1 + 3, 2, false)).toMatchObject({
      result: 12,
      success: true,
      margin: 8,
    });
  });

  it('"Even a 1 succeeds" on a willing target: the difficulty is 1', () => {
    expect(WILLING_DIFFICULTY).toBe(1);
    expect(actionCheck(10, WILLING_DIFFICULTY, -9, false).success).toBe(true);
    expect(actionCheck(10, WILLING_DIFFICULTY, -10, false).success).toBe(false);
  });

  it('boxcars `failure-only` (the default): a disaster only when the action fails anyway', () => {
    expect(actionCheck(10, 7, 0, true)).toMatchObject({ success: true, criticalFailure: false });
    expect(actionCheck(10, 7, 0, true, 'failure-only')).toMatchObject({
      success: true,
      criticalFailure: false,
    });
    expect(actionCheck(10, 11, 0, true)).toMatchObject({ success: false, criticalFailure: true });
    // A plain failure without boxcars is no critical failure.
    expect(actionCheck(10, 11, 0, false)).toMatchObject({ success: false, criticalFailure: false });
  });

  it('boxcars `always`: every boxcars fails, critically, whatever the total', () => {
    expect(actionCheck(10, 7, 0, true, 'always')).toMatchObject({
      result: 10,
      success: false,
      criticalFailure: true,
    });
    expect(actionCheck(10, 7, 0, false, 'always')).toMatchObject({
      success: true,
      criticalFailure: false,
    });
  });

  it('for any numbers: result = AV + roll, margin = result - difficulty, success iff margin >= 0 without boxcars', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: -10, max: 40 }),
        fc.integer({ min: -40, max: 40 }),
        fc.boolean(),
        fc.constantFrom('failure-only' as const, 'always' as const),
        (av, difficulty, roll, boxcars, rule) => {
          const check = actionCheck(av, difficulty, roll, boxcars, rule);
          expect(check.result).toBe(av + roll);
          expect(check.margin).toBe(av + roll - difficulty);
          if (!boxcars) {
            expect(check.success).toBe(check.margin >= 0);
            expect(check.criticalFailure).toBe(false);
          }
          // A critical failure is never a success.
          if (check.criticalFailure) expect(check.success).toBe(false);
        },
      ),
    );
  });
});
