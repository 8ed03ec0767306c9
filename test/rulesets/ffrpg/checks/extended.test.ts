import { describe, expect, it } from 'vitest';
import {
  CheckError,
  resolveExtendedCheck,
  resolveTaskCheck,
  tallyGroupCheck,
} from '../../../../src/rulesets/ffrpg/checks/index.js';

function codeOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof CheckError) return error.code;
    throw error;
  }
  return undefined;
}

describe('"two or more successful Task Checks in order to succeed"', () => {
  it('succeeds once enough rolls have, however many failed between', () => {
    const result = resolveExtendedCheck({ cos: 50, required: 2, rolls: [30, 70, 20] });
    expect(result).toMatchObject({
      successes: 2,
      failures: 1,
      succeeded: true,
      decided: true,
      rollsNeeded: 0,
      rollsLeft: null,
    });
    expect(result.checks.map((c) => c.roll)).toEqual([30, 70, 20]);
  });

  it('is not decided while successes are missing and the text sets no limit', () => {
    expect(resolveExtendedCheck({ cos: 50, required: 3, rolls: [70, 5] })).toMatchObject({
      successes: 1,
      criticals: 1,
      failures: 1,
      succeeded: false,
      decided: false,
      rollsNeeded: 2,
    });
    expect(resolveExtendedCheck({ cos: 50, required: 2, rolls: [] })).toMatchObject({
      decided: false,
      rollsNeeded: 2,
    });
  });

  it('fails once too few rolls are left to make up the successes', () => {
    const open = resolveExtendedCheck({ cos: 50, required: 2, rolls: [70], maxRolls: 3 });
    expect(open).toMatchObject({ decided: false, rollsNeeded: 2, rollsLeft: 2 });
    const lost = resolveExtendedCheck({ cos: 50, required: 2, rolls: [70, 80], maxRolls: 3 });
    expect(lost).toMatchObject({ succeeded: false, decided: true, rollsNeeded: 0, rollsLeft: 1 });
  });

  it('counts Botches, and ends on one only with botchEnds', () => {
    expect(resolveExtendedCheck({ cos: 50, required: 2, rolls: [97, 10] })).toMatchObject({
      botches: 1,
      decided: false,
    });
    expect(
      resolveExtendedCheck({ cos: 50, required: 2, rolls: [97] }, { botchEnds: true }),
    ).toMatchObject({ botches: 1, decided: true, succeeded: false });
  });

  it('succeeds with no roll at CoS 100 or more', () => {
    const result = resolveExtendedCheck({ cos: 110, required: 3, rolls: [] });
    expect(result).toMatchObject({ automatic: true, successes: 3, succeeded: true, decided: true });
    expect(result.checks.every((c) => c.automatic && c.roll === null)).toBe(true);
  });

  it('applies the Rule of 10 to each roll', () => {
    expect(resolveExtendedCheck({ cos: -10, required: 2, rolls: [4, 9] })).toMatchObject({
      succeeded: true,
      criticals: 0,
    });
  });

  it('rejects rolls after it was decided, bad counts and bad rolls', () => {
    expect(codeOf(() => resolveExtendedCheck({ cos: 50, required: 1, rolls: [5, 6] }))).toBe(
      'check/too-many-rolls',
    );
    expect(
      codeOf(() => resolveExtendedCheck({ cos: 50, required: 2, rolls: [90, 90, 9], maxRolls: 2 })),
    ).toBe('check/too-many-rolls');
    expect(codeOf(() => resolveExtendedCheck({ cos: 50, required: 0, rolls: [] }))).toBe(
      'check/bad-count',
    );
    expect(
      codeOf(() => resolveExtendedCheck({ cos: 50, required: 3, rolls: [], maxRolls: 2 })),
    ).toBe('check/bad-count');
    expect(codeOf(() => resolveExtendedCheck({ cos: 50, required: 2, rolls: [101] }))).toBe(
      'check/roll-out-of-range',
    );
    expect(codeOf(() => resolveExtendedCheck({ cos: 120, required: 2, rolls: [0] }))).toBe(
      'check/roll-out-of-range',
    );
  });
});

describe('"The final verdict then weighs the sum of successes and failures among the defendants"', () => {
  it("tallies each defendant's Negotiation roll", () => {
    const defendants = [
      resolveTaskCheck({ rating: 60, modifier: -20, roll: 5 }),
      resolveTaskCheck({ rating: 45, modifier: -20, roll: 30 }),
      resolveTaskCheck({ rating: 30, modifier: -20, roll: 98 }),
      resolveTaskCheck({ rating: 20, modifier: -20, roll: 8 }),
      resolveTaskCheck({ rating: 90, modifier: 20 }),
    ];
    expect(tallyGroupCheck(defendants)).toEqual({
      checks: 5,
      successes: 3,
      failures: 2,
      criticals: 1,
      botches: 1,
      ruleOf10: 1,
    });
  });

  it('tallies nobody as nothing', () => {
    expect(tallyGroupCheck([])).toMatchObject({ checks: 0, successes: 0, failures: 0 });
  });
});
