import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attributeOfRating,
  attributeRating,
  proficiencyOf,
  SKILL_GROUPS,
  skillGroupOf,
} from '../../../../src/rulesets/ffrpg/skills.js';

describe('Skill Rating and proficiency', () => {
  it.each([
    [1, 'Untrained'],
    [19, 'Untrained'],
    [20, 'Novice'],
    [30, 'Novice'],
    [31, 'Intermediate'],
    [50, 'Intermediate'],
    [51, 'Advanced'],
    [70, 'Advanced'],
    [71, 'Expert'],
    [90, 'Expert'],
    [91, 'Master'],
    [100, 'Master'],
  ])('a Skill Rating of %i is %s', (rating, level) => {
    expect(proficiencyOf(rating)).toBe(level);
  });

  it('gives no proficiency outside the whole numbers 1 to 100', () => {
    for (const rating of [0, 101, -5, 50.5]) expect(proficiencyOf(rating)).toBeUndefined();
  });

  it('labels every rating from 1 to 100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (rating) => {
        expect(proficiencyOf(rating)).toBeDefined();
      }),
    );
  });
});

describe('"one of eight groups"', () => {
  it('lists Artistic, General, Scholastic, Social, Technical, Thievery, Weapons, Wilderness', () => {
    expect(SKILL_GROUPS).toEqual([
      'Artistic',
      'General',
      'Scholastic',
      'Social',
      'Technical',
      'Thievery',
      'Weapons',
      'Wilderness',
    ]);
  });

  it('finds a group named in any case', () => {
    expect(skillGroupOf('thievery')).toBe('Thievery');
    expect(skillGroupOf('WEAPONS')).toBe('Weapons');
    expect(skillGroupOf('Magic')).toBeUndefined();
  });
});

describe('ruling: Attribute Rating = 3 x Attribute + 10', () => {
  it('maps "a numerical value ranging from 1 to 30" onto "13 to 100"', () => {
    expect(attributeRating(1)).toBe(13);
    expect(attributeRating(30)).toBe(100);
    expect(attributeRating(0)).toBeUndefined();
    expect(attributeRating(31)).toBeUndefined();
    expect(attributeRating(2.5)).toBeUndefined();
  });

  it('"Haze and Mint both have Attribute Ratings of 34 in Speed; Hiro\'s is 25": SPD 8 and 5', () => {
    expect(attributeOfRating(34)).toBe(8);
    expect(attributeOfRating(25)).toBe(5);
    expect(attributeOfRating(26)).toBeUndefined();
  });

  it('fits the Heket fight: Initiatives 15 (Hiro), 14 (Haze), 12 (Mint) are each d10 + SPD', () => {
    for (const [initiative, speedRating] of [
      [15, 25],
      [14, 34],
      [12, 34],
    ] as const) {
      const d10 = initiative - attributeOfRating(speedRating)!;
      expect(d10).toBeGreaterThanOrEqual(1);
      expect(d10).toBeLessThanOrEqual(10);
    }
  });

  it('round-trips every Attribute', () => {
    for (let attribute = 1; attribute <= 30; attribute++) {
      expect(attributeOfRating(attributeRating(attribute)!)).toBe(attribute);
    }
  });
});
