import { describe, expect, it } from 'vitest';
import { parseEntered } from '../../web/src/encounter/entered.js';

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
