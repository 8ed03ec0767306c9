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

describe('a roll entered as its total', () => {
  it('reads d% entered as 28 as the tens die 2 and the ones die 8', () => {
    const one = rollEntered('hit:heket', 'd%', { 'hit:heket': [28] });
    const two = rollEntered('hit:heket', 'd%', { 'hit:heket': [2, 8] });
    expect(one).toEqual(two);
    expect(one).toMatchObject({ total: 28, dice: [2, 8], entered: true });
    expect(rollEntered('hit:heket', 'd%', { 'hit:heket': [100] }).dice).toEqual([10, 10]);
  });

  it('reads one number on 1d10+SPD as the total, the face found from it', () => {
    const roll = rollEntered(
      'initiative:hiro',
      '1d10+SPD',
      { 'initiative:hiro': [12] },
      { SPD: 5 },
    );
    expect(roll).toMatchObject({ total: 12, dice: [7], entered: true });
    expect(roll.totalOnly).toBeUndefined();
  });

  it('keeps a plain die as its face: d10, d100, and a d100 entered as 00 reads 100', () => {
    expect(rollEntered('x', 'd10', { x: [7] })).toMatchObject({ total: 7, dice: [7] });
    expect(rollEntered('x', 'd10', { x: [0] })).toMatchObject({ total: 10, dice: [10] });
    expect(rollEntered('x', 'd100', { x: [0] })).toMatchObject({ total: 100, dice: [100] });
  });

  it('records "32 damage" on 2*STR+2d8 as a total alone, several rolls giving it', () => {
    const roll = rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': [32] }, { STR: 10 });
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
      rollEntered('damage:heket', '2*STR+2d8', { 'damage:heket': [50] }, { STR: 10 }),
    );
    expect(error.code).toBe('dice/entered-out-of-range');
    expect(error.message).toContain('50 is not a total this roll can give (22 to 36)');
    expect(error.purpose).toBe('damage:heket');
  });

  it('checks totals too many to list against the exact odds', () => {
    const roll = rollEntered('x', '10d10', { x: [55] });
    expect(roll).toMatchObject({ total: 55, totalOnly: true });
    expect(refusal(() => rollEntered('x', '10d10', { x: [9] })).message).toContain('10 to 100');
  });

  it('refuses a total where the rules read each die and several rolls give it', () => {
    const error = refusal(() => rollEntered('hit:giant', 'fs', { 'hit:giant': [2] }, {}, true));
    expect(error.message).toContain('the rules read each die');
    expect(rollEntered('x', '2d6', { x: [12] }, {}, true)).toMatchObject({ dice: [6, 6] });
  });

  it('replays a total-only record, and refuses one that was forged', () => {
    const record = rollEntered('damage:heket', '2d8', { 'damage:heket': [9] });
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
});
