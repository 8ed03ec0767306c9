/** The FFVIII RPG (Feng Shui based): shot clock, action dice, dodging, spellshards and summons. */
export { ACTION_DICE, type ActionCheck, actionCheck, readActionDice } from './action-dice.js';
export * from './campaign/index.js';
export type { FfviiiCommand } from './commands.js';
export {
  createFfviiiEncounter,
  type EncounterSpec,
  encounterSpecSchema,
  ffviiiKinds,
  ffviiiNewcomer,
  ffviiiSetupFrom,
  STARTER_CONTENT_DIR,
} from './content.js';
export type { FfviiiEvent } from './events.js';
export type { FfviiiOptions, FfviiiSetup } from './model.js';
export { ffviii } from './ruleset.js';
export type { FfviiiState } from './state.js';
export { ffviiiSystem } from './system.js';
