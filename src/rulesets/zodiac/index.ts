/** ZODIAC on the shared engine: the ruleset, its content kinds and its attack roll. */

export {
  type AttackJudgement,
  AUTOMATIC_HIT,
  BLIND_PENALTY,
  FLYING_PENALTY,
  judgeAttack,
  judgeStatusRoll,
} from './attack.js';
export * from './campaign/index.js';
export type { ZodiacCommand } from './commands.js';
export {
  characterKind,
  createZodiacEncounter,
  type EncounterSpec,
  itemKind,
  monsterKind,
  STARTER_CONTENT_DIR,
  techKind,
  weaponKind,
  zodiacKinds,
  zodiacSetupFrom,
} from './content.js';
export { computeDamage, DAMAGE_CAP, type DamageInput, type DamageResult } from './damage.js';
export { AFFINITIES, type Affinity, ELEMENTS, type Element } from './elements.js';
export type { AttackRecord, DamageRecord, ZodiacEvent } from './events.js';
export type { ZodiacSetup, ZodiacSetupInput } from './model.js';
export { zodiac } from './ruleset.js';
export type { ZodiacState } from './state.js';
export { STATUS_IDS, STATUSES, type StatusId } from './statuses.js';
export { zodiacSystem } from './system.js';
