import { describe, expect, it } from 'vitest';
import { misfit, parseEntered } from '../../web/src/encounter/entered.js';

describe("the tracker's dice entry: faces are faces", () => {
  it('"Rob: (rolling) 10." one number is what the dice show, several the faces', () => {
    expect(parseEntered('10')).toEqual({ sum: 10 });
    expect(parseEntered(' 3 7 ')).toEqual([3, 7]);
    expect(parseEntered('3,7')).toEqual([3, 7]);
    expect(parseEntered('')).toBeUndefined();
  });

  it('"30 Physical damage": with the total switch on, or written =30, one number is a total', () => {
    expect(parseEntered('30', true)).toEqual({ total: 30 });
    expect(parseEntered('=30')).toEqual({ total: 30 });
    expect(parseEntered('-2', true)).toEqual({ total: -2 });
  });

  it('refuses what is not the dice: words, a negative face, several numbers as a total', () => {
    expect(parseEntered('ten')).toBeUndefined();
    expect(parseEntered('-2')).toBeUndefined();
    expect(parseEntered('3 7', true)).toBeUndefined();
    expect(parseEntered('2.5')).toBeUndefined();
  });
});

describe('an entry against its slot', () => {
  const d12 = {
    purpose: 'damage:heket',
    notation: '2*AGI + d12',
    label: '20 + d12',
    faces: [{ min: 1, max: 12 }],
    sum: { min: 1, max: 12 },
    total: { min: 21, max: 32 },
    accepts: 'die 1–12 · total 21–32',
  };

  it('says why what was typed cannot be the roll, and nothing when it may be', () => {
    expect(misfit(d12, { sum: 10 })).toBeUndefined();
    expect(misfit(d12, { total: 30 })).toBeUndefined();
    expect(misfit(d12, { sum: 13 })).toBe('its dice show 1–12, not 13');
    expect(misfit(d12, { total: 12 })).toBe('a total of 21–32, not 12');
    expect(misfit(d12, [3, 4])).toContain('this roll lays 1 die, not 2');
  });

  it('takes a d10 read as 0, which is its 10', () => {
    const d10 = {
      purpose: 'initiative:hiro',
      notation: '1d10+SPD',
      label: 'd10 + 5',
      faces: [{ min: 0, max: 10 }],
      sum: { min: 1, max: 10 },
      total: { min: 6, max: 15 },
      accepts: 'die 0–10 · total 6–15',
    };
    expect(misfit(d10, { sum: 0 })).toBeUndefined();
    expect(misfit(d10, { sum: 11 })).toBe('its dice show 0–10, not 11');
  });

  it('takes any entry where the dice set no bounds (Feng Shui rerolls each 6)', () => {
    const fs = {
      purpose: 'draw:giant',
      notation: 'fs',
      label: 'positive die, negative die',
      accepts: '',
    };
    expect(misfit(fs, [6, 3, 2])).toBeUndefined();
  });
});
