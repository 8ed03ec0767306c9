/** The Shining Force tabletop system on the shared engine: the ruleset, its content kinds, its rates. */

export * from './campaign.js';
export type { ShiningForceCommand } from './commands.js';
export {
  characterKind,
  classKind,
  createShiningForceEncounter,
  type EncounterSpec,
  itemKind,
  monsterKind,
  patternKind,
  STARTER_CONTENT_DIR,
  shiningForceKinds,
  shiningForceSetupFrom,
  spellKind,
} from './content.js';
export type { AttackRecord, ShiningForceEvent } from './events.js';
export * from './grid/index.js';
export type { ShiningForceSetup, ShiningForceSetupInput } from './model.js';
export * from './rates.js';
export { shiningForce } from './ruleset.js';
export type { ShiningForceState } from './state.js';
export { shiningForceSystem } from './system.js';
