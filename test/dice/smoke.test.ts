import { describe, expect, it } from 'vitest';
import { distribution, roll, seededDice } from '../../src/index.js';

describe('dice engine smoke', () => {
  it('rpg-dice-roller gets 4d6kh3 wrong (10.5): the true mean is 12.2446', () => {
    expect(distribution('4d6kh3').mean).toBeCloseTo(12.2446, 4);
  });

  it('rolls the same with the same seed', () => {
    const a = roll('4d6kh3+d%', { dice: seededDice(7) });
    const b = roll('4d6kh3+d%', { dice: seededDice(7) });
    expect(a.text).toBe(b.text);
  });
});
