import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enteredDice, seededDice } from '../../../../src/dice/index.js';
import {
  CheckError,
  type CheckErrorCode,
  chanceOfSuccess,
  conditionalModifierOf,
  judgePercentileRoll,
  type RuleOf10Reading,
  resolveTaskCheck,
  resolveTaskCheckAgainst,
  rollTaskCheck,
  type TaskCheckOptions,
  taskCheckNeedsRoll,
} from '../../../../src/rulesets/ffrpg/checks/index.js';

function codeOf(run: () => unknown): CheckErrorCode | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckError) return error.code;
    throw error;
  }
  return undefined;
}

const ALL_OPTIONS: readonly TaskCheckOptions[] = [true, false].flatMap((impossible) =>
  [true, false].flatMap((botchAlwaysFails) =>
    (['saves-the-roll', 'floors-the-cos'] as RuleOf10Reading[]).map((ruleOf10Reading) => ({
      impossible,
      botchAlwaysFails,
      ruleOf10Reading,
    })),
  ),
);

const ROLLS = Array.from({ length: 100 }, (_, i) => i + 1);

describe('Task Checks in action (the Wind Cave)', () => {
  it('"Hiro has Awareness at a Rating of 50 ... Conditional Modifier of +80 ... a modified CoS of 130, a Task Check will not be required"', () => {
    const modifier = conditionalModifierOf('Elementary')!;
    expect(chanceOfSuccess(50, modifier)).toBe(130);
    expect(taskCheckNeedsRoll(130)).toBe(false);
    expect(resolveTaskCheck({ rating: 50, modifier })).toEqual({
      cos: 130,
      roll: null,
      automatic: true,
      success: true,
      critical: false,
      botch: false,
      ruleOf10: false,
      margin: null,
    });
  });

  it('"Haze and Mint both have Attribute Ratings of 34 in Speed; Hiro\'s is 25" with +40: rolls 40, 29 and 62 are "all ... underneath the Task Check\'s CoS"', () => {
    const mint = resolveTaskCheck({ rating: 34, modifier: 40, roll: 40 });
    const hiro = resolveTaskCheck({ rating: 25, modifier: 40, roll: 62 });
    const haze = resolveTaskCheck({ rating: 34, modifier: 40, roll: 29 });
    expect([mint.cos, hiro.cos, haze.cos]).toEqual([74, 65, 74]);
    for (const check of [mint, hiro, haze]) {
      expect(check.automatic).toBe(false);
      expect(check.success).toBe(true);
      expect(check.critical).toBe(false);
    }
    expect([mint.margin, hiro.margin, haze.margin]).toEqual([34, 3, 45]);
  });

  it('"The Heket\'s Evasion is 22; 92 minus 22 would give Rob a CoS of 70. Rob\'s roll [28] comfortably beats the adjusted CoS"', () => {
    const shot = resolveTaskCheck({ rating: 92, modifier: -22, roll: 28 });
    expect(shot).toMatchObject({ cos: 70, roll: 28, success: true, critical: false, margin: 42 });
  });
});

describe('the CoS and the automatic success', () => {
  it('"If the total is 100 or higher, the character succeeds automatically"; 99 needs a roll', () => {
    expect(taskCheckNeedsRoll(100)).toBe(false);
    expect(taskCheckNeedsRoll(99)).toBe(true);
    expect(resolveTaskCheck({ rating: 80, modifier: 20 }).automatic).toBe(true);
    expect(resolveTaskCheck({ rating: 79, modifier: 20, roll: 99 }).automatic).toBe(false);
  });

  it('ignores a roll made anyway at CoS 100 or more: not even a 100 Botches', () => {
    expect(resolveTaskCheck({ rating: 50, modifier: 80, roll: 100 })).toMatchObject({
      roll: null,
      automatic: true,
      success: true,
      botch: false,
    });
  });

  it('"Rolling equal to or under this modified Rating means the Task Check is successful; rolling over means it fails"', () => {
    expect(resolveTaskCheck({ rating: 40, modifier: 0, roll: 40 }).success).toBe(true);
    expect(resolveTaskCheck({ rating: 40, modifier: 0, roll: 41 })).toMatchObject({
      success: false,
      botch: false,
      margin: -1,
    });
  });

  it('needs the roll when the CoS is under 100', () => {
    expect(codeOf(() => resolveTaskCheck({ rating: 50, modifier: 20 }))).toBe('check/roll-needed');
  });

  it.each([0, 101, -5, 50.5, Number.NaN])('rejects a d%% roll of %d as out of range', (roll) => {
    expect(codeOf(() => resolveTaskCheck({ rating: 50, modifier: 0, roll }))).toBe(
      'check/roll-out-of-range',
    );
    expect(codeOf(() => judgePercentileRoll(50, roll))).toBe('check/roll-out-of-range');
  });

  it('rejects a roll out of range even when none was needed', () => {
    expect(codeOf(() => resolveTaskCheck({ rating: 90, modifier: 40, roll: 0 }))).toBe(
      'check/roll-out-of-range',
    );
  });

  it('rejects Ratings that are not whole numbers of 0 or more, and fractional modifiers', () => {
    expect(codeOf(() => resolveTaskCheck({ rating: 1.5, modifier: 0, roll: 1 }))).toBe(
      'check/bad-rating',
    );
    expect(codeOf(() => resolveTaskCheck({ rating: -1, modifier: 0, roll: 1 }))).toBe(
      'check/bad-rating',
    );
    expect(codeOf(() => resolveTaskCheck({ rating: 50, modifier: 0.5, roll: 1 }))).toBe(
      'check/bad-modifier',
    );
    expect(codeOf(() => taskCheckNeedsRoll(Number.NaN))).toBe('check/bad-cos');
  });

  it('lets a modifier go past Table 1-1 when the CoS formula subtracts an Evasion', () => {
    expect(resolveTaskCheck({ rating: 120, modifier: -110, roll: 5 }).cos).toBe(10);
  });
});

describe('Critical Successes: "a number between 10 (1 and 0) and 1 (0 and 1)"', () => {
  it.each([1, 5, 10])('a roll of %i against CoS 70 is a Critical Success', (roll) => {
    expect(resolveTaskCheck({ rating: 50, modifier: 20, roll })).toMatchObject({
      success: true,
      critical: true,
      ruleOf10: false,
    });
  });

  it('a roll of 11 is an ordinary success', () => {
    expect(resolveTaskCheck({ rating: 50, modifier: 20, roll: 11 }).critical).toBe(false);
  });

  it('a roll of 10 against CoS exactly 10 is at or under the CoS: a Critical Success', () => {
    expect(resolveTaskCheckAgainst(10, 10)).toMatchObject({ critical: true, ruleOf10: false });
  });
});

describe('the Rule of 10: "a character will always succeed on a roll of 10 or less"', () => {
  it('"While modifiers can reduce a CoS to 0 or lower": CoS 0 and CoS -30 succeed on 10 or less', () => {
    for (const cos of [0, -30]) {
      for (const roll of [1, 10]) {
        expect(resolveTaskCheckAgainst(cos, roll)).toMatchObject({
          success: true,
          ruleOf10: true,
          critical: false,
          margin: cos - roll,
        });
      }
      expect(resolveTaskCheckAgainst(cos, 11).success).toBe(false);
    }
  });

  it('"is not treated as a Critical Success": Heroic (-60) on a Rating of 40, rolled 7', () => {
    expect(resolveTaskCheck({ rating: 40, modifier: -60, roll: 7 })).toMatchObject({
      cos: -20,
      success: true,
      ruleOf10: true,
      critical: false,
    });
  });

  it('Table 1-1 Impossible (-80) alone leaves the Rule of 10 in force', () => {
    expect(resolveTaskCheck({ rating: 30, modifier: -80, roll: 3 }).success).toBe(true);
  });

  it('"will not apply to situations where the GM explicitly states that what the character is attempting is impossible"', () => {
    const check = resolveTaskCheck({ rating: 30, modifier: -80, roll: 3 }, { impossible: true });
    expect(check).toMatchObject({ success: false, ruleOf10: false, critical: false });
  });

  it('an impossible declaration removes only the Rule of 10: a roll under a real CoS still counts', () => {
    expect(resolveTaskCheckAgainst(30, 3, { impossible: true })).toMatchObject({
      success: true,
      critical: true,
    });
  });

  describe('ruling: CoS between 1 and 10', () => {
    it('by default a roll at or under CoS 6 is an ordinary success and so a Critical Success', () => {
      expect(resolveTaskCheckAgainst(6, 4)).toMatchObject({ critical: true, ruleOf10: false });
      expect(resolveTaskCheckAgainst(6, 6)).toMatchObject({ critical: true, ruleOf10: false });
    });

    it('by default a roll above CoS 6 but 10 or less succeeds under the Rule of 10, not critical', () => {
      expect(resolveTaskCheckAgainst(6, 7)).toMatchObject({
        success: true,
        critical: false,
        ruleOf10: true,
        margin: -1,
      });
    });

    it('with the glossary reading ("the lowest a CoS can be reduced to is 10"), no success below CoS 10 is critical', () => {
      const floors = { ruleOf10Reading: 'floors-the-cos' } as const;
      expect(resolveTaskCheckAgainst(6, 4, floors)).toMatchObject({
        success: true,
        critical: false,
        ruleOf10: true,
      });
      expect(resolveTaskCheckAgainst(6, 9, floors)).toMatchObject({
        success: true,
        ruleOf10: true,
      });
      expect(resolveTaskCheckAgainst(10, 4, floors)).toMatchObject({ critical: true });
    });
  });
});

describe('Botches: "95 to 100 (0 and 0)"', () => {
  it.each([95, 99, 100])('a roll of %i against CoS 50 Botches and fails', (roll) => {
    expect(resolveTaskCheckAgainst(50, roll)).toMatchObject({ success: false, botch: true });
  });

  it('94 is an ordinary failure against CoS 50', () => {
    expect(resolveTaskCheckAgainst(50, 94)).toMatchObject({ success: false, botch: false });
  });

  it('ruling: by default a Botch fails even at CoS 99 with a roll of 97', () => {
    expect(resolveTaskCheckAgainst(99, 97)).toMatchObject({
      success: false,
      botch: true,
      margin: 2,
    });
  });

  it('with botchAlwaysFails false, 97 against CoS 99 is a success and no Botch; 100 still Botches', () => {
    const options = { botchAlwaysFails: false };
    expect(resolveTaskCheckAgainst(99, 97, options)).toMatchObject({ success: true, botch: false });
    expect(resolveTaskCheckAgainst(99, 100, options)).toMatchObject({
      success: false,
      botch: true,
    });
    expect(resolveTaskCheckAgainst(50, 95, options)).toMatchObject({ success: false, botch: true });
  });
});

describe('the odds the rules give, counted over all 100 rolls', () => {
  const successes = (cos: number, options?: TaskCheckOptions) =>
    ROLLS.filter((roll) => judgePercentileRoll(cos, roll, options).success).length;

  it('CoS 11 to 94 succeeds on exactly CoS rolls in 100', () => {
    for (let cos = 11; cos <= 94; cos++) expect(successes(cos)).toBe(cos);
  });

  it('the Rule of 10 floors the odds at 10%, or 0% when the GM declares it impossible', () => {
    for (const cos of [-80, 0, 5, 10]) expect(successes(cos)).toBe(10);
    expect(successes(-80, { impossible: true })).toBe(0);
    expect(successes(5, { impossible: true })).toBe(5);
  });

  it('Botches cap a rolled check at 94%, or CoS % when they only flavour failures', () => {
    for (const cos of [95, 99, 150]) expect(successes(cos)).toBe(94);
    expect(successes(97, { botchAlwaysFails: false })).toBe(97);
  });
});

describe('rolling the d% for you', () => {
  it('reads the called die as tens: 2 and 8 is 28, explained as [20+8]', () => {
    const { check, percentile } = rollTaskCheck({ rating: 50, modifier: 20 }, enteredDice([2, 8]));
    expect(check).toMatchObject({ cos: 70, roll: 28, success: true, margin: 42 });
    expect(percentile).toMatchObject({ total: 28, tensDigit: 2, onesDigit: 8 });
    expect(percentile!.explanation.text).toBe('d% = [20+8] = 28');
  });

  it('"0 and 0 always equal 100": a Botch', () => {
    const { check, percentile } = rollTaskCheck({ rating: 90, modifier: 0 }, enteredDice([0, 0]));
    expect(check).toMatchObject({ roll: 100, botch: true, success: false });
    expect(percentile).toMatchObject({ tensDigit: 0, onesDigit: 0 });
  });

  it('takes no dice when the CoS is 100 or more', () => {
    const dice = enteredDice([4, 2]);
    const { check, percentile } = rollTaskCheck({ rating: 50, modifier: 80 }, dice);
    expect(check.automatic).toBe(true);
    expect(percentile).toBeNull();
    expect(dice.remaining).toBe(2);
  });

  it('rolls the same with the same seed, and stays within 1..100', () => {
    for (let seed = 0; seed < 200; seed++) {
      const a = rollTaskCheck({ rating: 40, modifier: 0 }, seededDice(seed));
      const b = rollTaskCheck({ rating: 40, modifier: 0 }, seededDice(seed));
      expect(a.check).toEqual(b.check);
      expect(a.check.roll).toBeGreaterThanOrEqual(1);
      expect(a.check.roll).toBeLessThanOrEqual(100);
      const { tensDigit, onesDigit } = a.percentile!;
      expect(tensDigit * 10 + onesDigit || 100).toBe(a.check.roll);
    }
  });
});

describe('properties', () => {
  const cosArb = fc.integer({ min: -200, max: 200 });
  const rollArb = fc.integer({ min: 1, max: 100 });
  const optionsArb = fc.constantFrom(...ALL_OPTIONS);

  it('success is monotone in the CoS for a fixed roll, under every option', () => {
    fc.assert(
      fc.property(cosArb, cosArb, rollArb, optionsArb, (a, b, roll, options) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        if (judgePercentileRoll(low, roll, options).success) {
          expect(judgePercentileRoll(high, roll, options).success).toBe(true);
        }
      }),
    );
  });

  it('a Task Check is automatic if and only if the CoS is 100 or more', () => {
    fc.assert(
      fc.property(cosArb, rollArb, optionsArb, (cos, roll, options) => {
        const check = resolveTaskCheckAgainst(cos, roll, options);
        expect(check.automatic).toBe(cos >= 100);
        expect(check.roll === null).toBe(cos >= 100);
        expect(check.margin === null).toBe(cos >= 100);
        if (check.automatic) expect(check.success).toBe(true);
      }),
    );
  });

  it('Critical Success, Rule of 10 and Botch mean what the text says, and exclude each other', () => {
    fc.assert(
      fc.property(cosArb, rollArb, optionsArb, (cos, roll, options) => {
        const r = judgePercentileRoll(cos, roll, options);
        expect(r.margin).toBe(cos - roll);
        if (r.critical) expect(r.success && roll <= 10 && !r.ruleOf10).toBe(true);
        if (r.ruleOf10) expect(r.success && roll <= 10 && options.impossible !== true).toBe(true);
        if (r.botch) expect(!r.success && roll >= 95).toBe(true);
        if (roll >= 11 && roll <= 94) expect(r.success).toBe(roll <= cos);
        if (roll <= 10 && options.impossible !== true) expect(r.success).toBe(true);
        if (roll >= 95 && options.botchAlwaysFails !== false) expect(r.botch).toBe(true);
      }),
    );
  });
});
