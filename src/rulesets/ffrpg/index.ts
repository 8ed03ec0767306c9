/** FFRPG 3rd Edition on the shared engine: the ruleset, its content kinds and its checks. */

export * from './campaign/index.js';
export * from './checks/index.js';
export type { FfrpgCommand } from './commands.js';
export {
  abilityKind,
  characterKind,
  createFfrpgEncounter,
  type EncounterSpec,
  ffrpgKinds,
  ffrpgSetupFrom,
  jobKind,
  levelTableKind,
  monsterKind,
  STARTER_CONTENT_DIR,
  statusKind,
  weaponKind,
} from './content.js';
export type { CheckRecord, DamageRecord, FfrpgEvent } from './events.js';
export type { FfrpgSetup, FfrpgSetupInput } from './model.js';
export { describeIssue, ffrpg } from './ruleset.js';
export type { FfrpgState } from './state.js';
