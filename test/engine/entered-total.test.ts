import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededDice } from '../../src/dice/index.js';
import { ReplayDice } from '../../src/engine/dice.js';
import {
  CommandDice,
  DiceEntryError,
  type EnteredRolls,
  type RollRecord,
} from '../../src/engine/index.js';

function rollEntered(
  purpose: string,
  notation: string,
  entered: EnteredRolls,
  variables: Record<string, number> = {},
  readsFaces = false,
): RollRecord {
  return new CommandDice(seededDice(1), { entered }).roll(purpose, notation, variables, {
    readsFaces,
  });
}

function refusal(run: () => unknown): DiceEntryError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiceEntryError) return error;
    throw error;
  }
  throw new Error('the entry was accepted');
}

describe('faces are faces', () => {
  it('"Rob: (rolling) 10. 30 Physical damage": [10] on 2 x AGI + d12 is the d12 showing 10', () => {
    const roll = rollEntered('damage:heket', '2*AGI+d12', { 'damage:heket': [10] }, { AGI: 10 });
    expect(roll).toMatchObject({ total: 30, dice: [10], entered: true });
    expect(roll.totalOnly).toBeUndefined();
    // The same roll entered as the number read off the die, and as the total Rob announced.
    expect(
      rollEntered('damage:heket', '2*AGI+d12', { 'damage:heket': { sum: 10 } }, { AGI: 10 }),
    ).toEqual(roll);
    expect(
      rollEntered('damage:heket', '2*AGI+d12', { 'damage:heket': { total: 30 } }, { AGI: 10 }),
    ).toEqual(roll);
  });

  it('reads one face on 1d10+SPD as the d10: 7 with SPD 5 is an Initiative of 12', () => {
    const roll = rollEntered('initiative:hiro', '1d10+SPD', { 'initiative:hiro': [7] }, { SPD: 5 });
    expect(roll).toMatchObject({ total: 12, dice: [7], entered: true });
  });

  it('"Rob: (rolling) Woo! 15.": an Initiative announced as a total is marked as one', () => {
    const roll = rollEntered(
      'initiative:hiro',
      '1d10+SPD',
      { 'initiative:hiro': { total: 15 } },
      { SPD: 5 },
    );
    expect(roll).toMatchObject({ total: 15, dice: [10], entered: true });
  });

  it('refuses a face its die cannot show, naming the roll, the die and the face', () => {
    const error = refusal(() =>
      rollEntered('damage:heket', '2*AGI+d12', { 'damage:heket': [30] }, { AGI: 10 }),
    );
    expect(error.code).toBe('dice/entered-out-of-range');
    expect(error.purpose).toBe('damage:heket');
    expect(error.message).toBe(
      'damage:heket (2*AGI+d12): entered die 1 is 30, but it fills a d12, which shows 1 to 12',
    );
    const sum = refusal(() =>
      rollEntered('damage:heket', '2*AGI+d12', { 'damage:heket': { sum: 13 } }, { AGI: 10 }),
    );
    expect(sum.code).toBe('dice/entered-out-of-range');
    expect(sum.message).toBe(
      'damage:heket (2*AGI+d12): 13 is not what its dice can show (1 to 12)',
    );
  });

  it('refuses one face for a roll of two dice: an array is never a total or a sum', () => {
    const error = refusal(() =>
      rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': [5] }, { STR: 10 }),
    );
    expect(error.code).toBe('dice/entered-too-few');
    expect(error.message).toContain('needs 1 more die');
    expect(refusal(() => rollEntered('x', 'd%', { x: [28] })).code).toBe(
      'dice/entered-out-of-range',
    );
    expect(refusal(() => rollEntered('x', '1d8', { x: [3, 5] })).code).toBe(
      'dice/entered-too-many',
    );
  });

  it('keeps a physical die as its face: d10 and d100 entered as 0 read 10 and 100', () => {
    expect(rollEntered('x', 'd10', { x: [7] })).toMatchObject({ total: 7, dice: [7] });
    expect(rollEntered('x', 'd10', { x: [0] })).toMatchObject({ total: 10, dice: [10] });
    expect(rollEntered('x', 'd100', { x: [0] })).toMatchObject({ total: 100, dice: [100] });
    expect(rollEntered('x', 'd10', { x: { sum: 0 } })).toMatchObject({ total: 10, dice: [10] });
  });
});

describe('the dice added by the table ({ sum })', () => {
  it('reads d% entered as 28 as the tens die 2 and the ones die 8', () => {
    const one = rollEntered('hit:heket', 'd%', { 'hit:heket': { sum: 28 } });
    const two = rollEntered('hit:heket', 'd%', { 'hit:heket': [2, 8] });
    expect(one).toEqual(two);
    expect(one).toMatchObject({ total: 28, dice: [2, 8], entered: true });
    expect(rollEntered('hit:heket', 'd%', { 'hit:heket': { sum: 100 } }).dice).toEqual([10, 10]);
  });

  it('records two d8 showing 9 on 2*STR+2d8 as the total 29 alone, several rolls giving it', () => {
    const roll = rollEntered(
      'damage:heket',
      '2*STR+2d8',
      { 'damage:heket': { sum: 9 } },
      { STR: 10 },
    );
    expect(roll).toEqual({
      purpose: 'damage:heket',
      notation: '2*STR+2d8',
      total: 29,
      dice: [],
      text: '2*STR+2d8 = 29 (entered as dice showing 9)',
      entered: true,
      totalOnly: true,
    });
    expect(new ReplayDice([roll]).roll('damage:heket', '2*STR+2d8', { STR: 10 })).toEqual(roll);
    // Only 1 and 1 show 2: recorded as those faces.
    expect(
      rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': { sum: 2 } }, { STR: 10 }),
    ).toMatchObject({ total: 22, dice: [1, 1] });
  });

  it('refuses a sum the dice cannot show, with the range they do', () => {
    const error = refusal(() =>
      rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': { sum: 32 } }, { STR: 10 }),
    );
    expect(error.code).toBe('dice/entered-out-of-range');
    expect(error.message).toBe(
      'damage:heket (2*STR+2d8): 32 is not what its dice can show (2 to 16)',
    );
  });

  it('asks for the faces when dice showing the sum give different totals (2d6*d4)', () => {
    const error = refusal(() => rollEntered('x', '2d6*d4', { x: { sum: 5 } }));
    expect(error.code).toBe('dice/entered-too-few');
    expect(error.message).toContain('enter the faces, or the total as total:N');
  });

  it('asks for the faces or the total when the rolls showing the sum are too many to list', () => {
    const error = refusal(() => rollEntered('x', '2*STR+3d6!', { x: { sum: 9 } }, { STR: 7 }));
    expect(error.code).toBe('dice/entered-too-few');
    expect(error.message).toBe(
      'x (2*STR+3d6!): too many rolls show 9 to tell its total: enter the faces, or the total as total:N',
    );
  });

  it('reads a sum of dice alone, too many to list, against the exact odds', () => {
    expect(rollEntered('x', '10d10', { x: { sum: 55 } })).toMatchObject({
      total: 55,
      totalOnly: true,
    });
    expect(refusal(() => rollEntered('x', '10d10', { x: { sum: 9 } })).message).toContain(
      '10 to 100',
    );
  });

  it('refuses a sum where the rules read each die and several rolls give it', () => {
    const error = refusal(() =>
      rollEntered('hit:giant', 'fs', { 'hit:giant': { sum: 2 } }, {}, true),
    );
    expect(error.message).toContain('the rules read each die');
  });
});

describe('a roll entered as a marked total ({ total })', () => {
  it('reads a total of 12 on 1d10+SPD with SPD 5 as the face 7', () => {
    const roll = rollEntered(
      'initiative:hiro',
      '1d10+SPD',
      { 'initiative:hiro': { total: 12 } },
      { SPD: 5 },
    );
    expect(roll).toMatchObject({ total: 12, dice: [7], entered: true });
    expect(roll.totalOnly).toBeUndefined();
  });

  it('records "32 damage" on 2*STR+2d8 as a total alone, several rolls giving it', () => {
    const roll = rollEntered(
      'damage:heket',
      '2*STR+2d8',
      { 'damage:heket': { total: 32 } },
      { STR: 10 },
    );
    expect(roll).toEqual({
      purpose: 'damage:heket',
      notation: '2*STR+2d8',
      total: 32,
      dice: [],
      text: '2*STR+2d8 = 32 (entered as a total)',
      entered: true,
      totalOnly: true,
    });
  });

  it('refuses a total the roll cannot give, with the range it could', () => {
    const error = refusal(() =>
      rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': { total: 50 } }, { STR: 10 }),
    );
    expect(error.code).toBe('dice/entered-out-of-range');
    expect(error.message).toContain('50 is not a total this roll can give (22 to 36)');
    expect(error.purpose).toBe('damage:heket');
  });

  it('checks totals too many to list against the exact odds', () => {
    const roll = rollEntered('x', '10d10', { x: { total: 55 } });
    expect(roll).toMatchObject({ total: 55, totalOnly: true });
    expect(refusal(() => rollEntered('x', '10d10', { x: { total: 9 } })).message).toContain(
      '10 to 100',
    );
  });

  it('refuses a total where the rules read each die and several rolls give it', () => {
    const error = refusal(() =>
      rollEntered('hit:giant', 'fs', { 'hit:giant': { total: 2 } }, {}, true),
    );
    expect(error.message).toContain('the rules read each die');
    expect(rollEntered('x', '2d6', { x: { total: 12 } }, {}, true)).toMatchObject({
      dice: [6, 6],
    });
  });

  it('replays a total-only record, and refuses one that was forged', () => {
    const record = rollEntered('damage:heket', '2d8', { 'damage:heket': { total: 9 } });
    expect(new ReplayDice([record]).roll('damage:heket', '2d8')).toEqual(record);
    const impossible = { ...record, total: 17 };
    expect(refusal(() => new ReplayDice([impossible]).roll('damage:heket', '2d8')).code).toBe(
      'dice/entered-out-of-range',
    );
    const unique = { ...record, total: 16 };
    expect(refusal(() => new ReplayDice([unique]).roll('damage:heket', '2d8')).code).toBe(
      'save/inconsistent',
    );
  });

  it('replays a record saved before faces were faces: "32" on 2*STR+2d8 kept as a total', () => {
    // As an earlier version wrote `damage:heket=32`: one number, read as the total.
    const old = {
      purpose: 'damage:heket',
      notation: '2*STR+2d8',
      total: 32,
      dice: [],
      text: '2*STR+2d8 = 32 (entered as a total)',
      entered: true,
      totalOnly: true,
    } as const;
    expect(new ReplayDice([old]).roll('damage:heket', '2*STR+2d8', { STR: 10 })).toEqual(old);
  });
});

describe('arrays are always faces (property)', () => {
  // Notations from the four systems' rolls, with the sides of each die they roll in order.
  const ROLLS: readonly [string, readonly number[]][] = [
    ['2*AGI+d12', [12]],
    ['1d10+SPD', [10]],
    ['2*STR+2d8', [8, 8]],
    ['d%', [10, 10]],
    ['2d4*10+55', [4, 4]],
    ['2d6*d4', [6, 6, 4]],
    ['d100', [100]],
  ];
  const variables = { AGI: 10, SPD: 5, STR: 7 };

  it('faces in range are recorded as exactly those faces, whatever the notation', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...ROLLS)
          .chain(([notation, sides]) =>
            fc.tuple(
              fc.constant(notation),
              fc.tuple(...sides.map((s) => fc.integer({ min: 1, max: s }))),
            ),
          ),
        ([notation, faces]) => {
          const roll = rollEntered('x', notation, { x: faces }, variables);
          expect(roll.dice).toEqual(faces);
          expect(roll.totalOnly).toBeUndefined();
        },
      ),
    );
  });

  it('one face for a roll of several dice is one face short, never a total or a sum', () => {
    const several = ROLLS.filter(([, sides]) => sides.length > 1);
    fc.assert(
      fc.property(
        fc.constantFrom(...several),
        fc.integer({ min: 0, max: 200 }),
        ([notation], n) => {
          const error = refusal(() => rollEntered('x', notation, { x: [n] }, variables));
          expect(['dice/entered-too-few', 'dice/entered-out-of-range']).toContain(error.code);
          expect(error.purpose).toBe('x');
        },
      ),
    );
  });
});
