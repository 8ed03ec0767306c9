/**
 * FFRPG 3e Task Checks: Conditional Modifiers (Table 1-1), the Task Check with its Critical
 * Successes, Botches and Rule of 10, Opposed Task Checks, and checks that need several successes
 * or several characters. Pure: the only dice are those a caller hands in.
 */
export {
  CONDITIONAL_MODIFIERS,
  conditionalModifierOf,
  isConditionalModifier,
  MAX_CONDITIONAL_MODIFIER,
  MIN_CONDITIONAL_MODIFIER,
  parseConditionalModifier,
  type TaskDifficulty,
  taskDifficultyOf,
} from './conditional-modifiers.js';
export { CheckError, type CheckErrorCode, type Checked } from './errors.js';
export {
  type ExtendedCheckInput,
  type ExtendedCheckOptions,
  type ExtendedCheckResult,
  type GroupCheckTally,
  resolveExtendedCheck,
  tallyGroupCheck,
} from './extended.js';
export {
  type OpposedCheckOptions,
  type OpposedCheckResult,
  type OpposedParticipant,
  type OpposedStanding,
  type OpposedTieBreak,
  resolveOpposedCheck,
} from './opposed.js';
export {
  AUTOMATIC_SUCCESS_COS,
  assertPercentileRoll,
  BOTCH_MIN,
  CRITICAL_SUCCESS_MAX,
  chanceOfSuccess,
  judgePercentileRoll,
  type PercentileJudgement,
  type PercentileRoll,
  type RolledTaskCheck,
  RULE_OF_10_MAX,
  type RuleOf10Reading,
  resolveTaskCheck,
  resolveTaskCheckAgainst,
  rollPercentile,
  rollTaskCheck,
  type TaskCheckInput,
  type TaskCheckOptions,
  type TaskCheckResult,
  taskCheckNeedsRoll,
} from './task-check.js';
