/** The Shining Force tabletop system on the shared engine: the ruleset, its content kinds, its rates. */

export * from './campaign/index.js';
export type { NewcomerSheet, ShiningForceCommand } from './commands.js';
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
  shiningForceNewcomer,
  shiningForceSetupFrom,
  spellKind,
} from './content.js';
export type { AttackRecord, GmEvent, ShiningForceEvent } from './events.js';
export { arrivalCell } from './gm.js';
export * from './grid/index.js';
export type { ShiningForceSetup, ShiningForceSetupInput } from './model.js';
export { odds as shiningForceOdds } from './odds.js';
export * from './rates.js';
export { shiningForce } from './ruleset.js';
export type { CombatantState, ShiningForceState, StatusInstance } from './state.js';
export { shiningForceSystem } from './system.js';
