import { describe, expect, it } from 'vitest';
import { entryHint, parseEnteredRoll } from '../../src/cli/battle/entered.js';
import { DiceError } from '../../src/dice/index.js';

describe('dice typed at the battle screen', () => {
  it('"Rob: (rolling) 10." one number is what the dice show; several are the faces', () => {
    expect(parseEnteredRoll('10')).toEqual({ sum: 10 });
    expect(parseEnteredRoll('3,5')).toEqual([3, 5]);
    expect(parseEnteredRoll('3 5')).toEqual([3, 5]);
    expect(parseEnteredRoll('0')).toEqual({ sum: 0 });
  });

  it('"30 Physical damage": a total with its modifiers is marked total:', () => {
    expect(parseEnteredRoll('total:30')).toEqual({ total: 30 });
    expect(parseEnteredRoll('TOTAL: 30')).toEqual({ total: 30 });
    expect(parseEnteredRoll('total:-3')).toEqual({ total: -3 });
  });

  it('refuses what is not a whole number, saying what was typed', () => {
    expect(() => parseEnteredRoll('total:3,5')).toThrow(
      new DiceError(
        'dice/entered-out-of-range',
        "a total is one whole number, as total:32, not '3,5'",
      ),
    );
    expect(() => parseEnteredRoll('total:')).toThrow(DiceError);
    expect(() => parseEnteredRoll('ten')).toThrow(/not a whole number/);
    expect(() => parseEnteredRoll('')).toThrow(/no dice were entered/);
  });

  it('prompts say which: one die, several dice, with or without modifiers', () => {
    expect(entryHint('2*AGI + d12')).toBe(
      ' (the die as it lies; total:N for the total with modifiers)',
    );
    expect(entryHint('1d8')).toBe(' (the die as it lies)');
    expect(entryHint('2d6')).toBe(' (the faces as they lie, 3 5, or their sum)');
    expect(entryHint('2*STR+2d8')).toBe(
      ' (the faces as they lie, 3 5, or their sum; total:N for the total with modifiers)',
    );
    expect(entryHint('d%')).toContain('or 28 as one number');
    expect(entryHint('fs')).toContain('the positive die');
  });
});
