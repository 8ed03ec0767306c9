/** The encounter engine: what every system shares. Names nothing system-specific. */

export { combatantById, withCombatantReplaced } from './combatants.js';
export type { RollNeeds } from './dice.js';
export {
  CommandDice,
  type CommandDiceOptions,
  DiceEntryError,
  type DiceRoller,
  type EnteredRoll,
  type EnteredRolls,
  enteredMisfit,
  isEnteredFaces,
  type RollRecord,
  recordedRolls,
} from './dice.js';
export {
  Encounter,
  type EncounterCheckpoint,
  SAVE_FORMAT,
  SAVE_VERSION,
  type SavedEncounter,
  type SubmitOptions,
} from './encounter.js';
export * as gm from './gm/index.js';
export {
  type CommandEntry,
  effectiveHistory,
  type History,
  type LogEntry,
  undoneSeqs,
} from './log.js';
export {
  decideByResolving,
  parserOf,
  Resolution,
  type Resolved,
} from './resolution.js';
export { type EngineError, err, ok, type Result } from './result.js';
export type {
  AnyRuleset,
  CommandBase,
  EventBase,
  LegalAction,
  Outcome,
  Ruleset,
} from './ruleset.js';
export {
  type AnyEncounter,
  loadEncounter,
  MAX_SAVE_BYTES,
  parseSavedEncounter,
} from './save.js';
export { describeIssue } from './schema-error.js';
export { StatesAfterEntries } from './states-after.js';
