import type { DiceRoller } from '../../../engine/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { ClassDefinition, Stats } from '../model.js';
import type { Catalogue, ForceMember } from './force.js';

/** EXP and levels, and promotion: randomness (stat gains) only through the DiceRoller. */

/** "Upon reaching 100 experience points (exp), their points reset to 0 (though any excess do carry over)". */
export const EXP_PER_LEVEL = 100;
/** "In the first class tier, promotion becomes available at level 10 and the maximum level is level 20." */
export const FIRST_TIER_PROMOTION = 10;
export const FIRST_TIER_MAX_LEVEL = 20;
/** "In the second class tier, promotion becomes available at level 20." */
export const SECOND_TIER_PROMOTION = 20;
/** Not in the text: the Shining Force games stop at 99 (promoted) and so does this. */
export const DEFAULT_MAX_LEVEL = 99;

export interface LevelUp {
  readonly level: number;
  readonly gains: Readonly<Record<'hp' | 'mp' | 'attack' | 'defence' | 'agility', number>>;
}

export function maxLevelOf(cls: ClassDefinition): number {
  return cls.maxLevel ?? (cls.tier === 1 ? FIRST_TIER_MAX_LEVEL : DEFAULT_MAX_LEVEL);
}

const GAIN_KEYS = ['hp', 'mp', 'attack', 'defence', 'agility'] as const;

/**
 * EXP earned: every 100 is a level, the excess carried; each level rolls the class's stat gains
 * ("possibly gaining statistic gains"). At the maximum level EXP stops at 99.
 */
export function gainExp(
  member: ForceMember,
  amount: number,
  catalogue: Catalogue,
  dice: DiceRoller,
): Result<{ readonly member: ForceMember; readonly levels: readonly LevelUp[] }> {
  const cls = catalogue.classes[member.class];
  if (cls === undefined)
    return err('campaign/unknown-class', `there is no class '${member.class}'`);
  if (!Number.isInteger(amount) || amount < 0)
    return err('campaign/bad-exp', `EXP gained is a whole number, 0 or more, not ${amount}`);
  const max = maxLevelOf(cls);
  let { level, exp } = member;
  const stats: Record<keyof Stats, number> = { ...member.stats };
  const levels: LevelUp[] = [];
  exp += amount;
  // Bounded: one pass per level, and levels stop at the maximum.
  while (exp >= EXP_PER_LEVEL && level < max) {
    exp -= EXP_PER_LEVEL;
    level++;
    const gains = { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 };
    for (const key of GAIN_KEYS) {
      const notation = cls.gains[key];
      const gained =
        notation === '0' ? 0 : Math.max(0, dice.roll(`gain-${key}:${member.id}`, notation).total);
      gains[key] = gained;
      stats[key] = Math.min(999, stats[key] + gained);
    }
    levels.push({ level, gains });
  }
  if (level >= max) exp = Math.min(exp, EXP_PER_LEVEL - 1);
  return ok({ member: { ...member, level, exp, stats }, levels });
}

/** Promotion is available from level 10 in the first tier and level 20 in the second. */
export function canPromote(member: ForceMember, catalogue: Catalogue): Result<ClassDefinition> {
  const cls = catalogue.classes[member.class];
  if (cls === undefined)
    return err('campaign/unknown-class', `there is no class '${member.class}'`);
  if (cls.promotesTo === undefined)
    return err('campaign/no-promotion', `${cls.name} has no class to promote to`);
  const next = catalogue.classes[cls.promotesTo];
  if (next === undefined)
    return err('campaign/unknown-class', `there is no class '${cls.promotesTo}'`);
  const from = cls.tier === 1 ? FIRST_TIER_PROMOTION : SECOND_TIER_PROMOTION;
  if (member.level < from)
    return err(
      'campaign/too-low',
      `${member.name} can be promoted from level ${from} (is level ${member.level})`,
    );
  return ok(next);
}
