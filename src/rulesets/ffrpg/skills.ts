/**
 * Skills and Attribute Ratings as Chapter One describes them: the proficiency a Skill Rating
 * stands for, the eight Skill groups, and the Attribute Rating an Attribute gives.
 */

/** "The relationship between Skill Rating and proficiency breaks down roughly as follows" */
export const SKILL_PROFICIENCIES = [
  { level: 'Untrained', min: 1, max: 19 },
  { level: 'Novice', min: 20, max: 30 },
  { level: 'Intermediate', min: 31, max: 50 },
  { level: 'Advanced', min: 51, max: 70 },
  { level: 'Expert', min: 71, max: 90 },
  { level: 'Master', min: 91, max: 100 },
] as const;

export type ProficiencyLevel = (typeof SKILL_PROFICIENCIES)[number]['level'];

export const MIN_SKILL_RATING = 1;
export const MAX_SKILL_RATING = 100;

/** The proficiency a Skill Rating stands for, or undefined outside the whole numbers 1 to 100. */
export function proficiencyOf(skillRating: number): ProficiencyLevel | undefined {
  if (!Number.isInteger(skillRating)) return undefined;
  return SKILL_PROFICIENCIES.find((row) => skillRating >= row.min && skillRating <= row.max)?.level;
}

/** "Depending on its applications, a Skill will belong to one of eight groups" */
export const SKILL_GROUPS = [
  'Artistic',
  'General',
  'Scholastic',
  'Social',
  'Technical',
  'Thievery',
  'Weapons',
  'Wilderness',
] as const;

export type SkillGroup = (typeof SKILL_GROUPS)[number];

/** The Skill group named in any case (`thievery`), or undefined. */
export function skillGroupOf(name: string): SkillGroup | undefined {
  const wanted = name.trim().toLowerCase();
  return SKILL_GROUPS.find((group) => group.toLowerCase() === wanted);
}

/** "Each Attribute has a numerical value ranging from 1 to 30." */
export const MIN_ATTRIBUTE = 1;
export const MAX_ATTRIBUTE = 30;

/**
 * The Attribute Rating, "which ranges from 13 to 100", of an Attribute from 1 to 30; undefined
 * outside that range. The chapter gives no formula: 3 x Attribute + 10 is the only straight line
 * from 1..30 onto 13..100, and it fits the worked examples (see docs/rulings.md).
 */
export function attributeRating(attribute: number): number | undefined {
  if (!Number.isInteger(attribute) || attribute < MIN_ATTRIBUTE || attribute > MAX_ATTRIBUTE) {
    return undefined;
  }
  return 3 * attribute + 10;
}

/** The Attribute behind an Attribute Rating, or undefined when no Attribute gives that Rating. */
export function attributeOfRating(rating: number): number | undefined {
  const attribute = (rating - 10) / 3;
  return attributeRating(attribute) === undefined ? undefined : attribute;
}
