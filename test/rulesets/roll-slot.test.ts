/** What an entry slot tells the table: the dice as they lie, with the roller's numbers, and the range. */
import { describe, expect, it } from 'vitest';
import { rollSlot } from '../../src/rulesets/roll-slot.js';

describe('rollSlot', () => {
  it('fills in the roller’s numbers and works out the part without dice', () => {
    const slot = rollSlot('damage:heket', '2*AGI + d12', 'hiro', { AGI: 10 });
    expect(slot).toEqual({
      purpose: 'damage:heket',
      notation: '2*AGI + d12',
      roller: 'hiro',
      label: '20 + d12',
      faces: [{ min: 1, max: 12 }],
      sum: { min: 1, max: 12 },
      total: { min: 21, max: 32 },
      accepts: 'die 1–12 · total 21–32',
    });
  });

  it('reads a d% as its tens and units dice and one number 1 to 100', () => {
    expect(rollSlot('hit:heket', 'd%', 'hiro')).toMatchObject({
      label: 'd% (tens, units)',
      faces: [
        { min: 0, max: 10 },
        { min: 0, max: 10 },
      ],
      sum: { min: 1, max: 100 },
      accepts: '2 dice 0–10 each · showing 1–100',
    });
  });

  it('names Feng Shui action dice by their roles and gives no range to dice that explode', () => {
    const slot = rollSlot('attack:giant', 'fs', 'squall');
    expect(slot.label).toBe('positive die, negative die');
    expect(slot.faces).toBeUndefined();
    expect(slot.total).toBeUndefined();
    expect(slot.accepts).toBe('');
  });

  it('shows a Damage Level’s multiplier', () => {
    expect(rollSlot('damage:goblin', '(1d8*10+25)*2').label).toBe('(d8 × 10 + 25) × 2');
  });
});
