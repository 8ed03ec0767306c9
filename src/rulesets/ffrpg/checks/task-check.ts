import { type DiceSource, parseDice, type RollResult } from '../../../dice/index.js';
import { CheckError } from './errors.js';

/** "If the total is 100 or higher, the character succeeds automatically." */
export const AUTOMATIC_SUCCESS_COS = 100;
/** Rolls of 1 to 10 are Critical Successes; the Rule of 10 saves the same rolls. */
export const CRITICAL_SUCCESS_MAX = 10;
export const RULE_OF_10_MAX = 10;
/** Rolls of 95 to 100 are Botches. */
export const BOTCH_MIN = 95;

/**
 * How a table reads the Rule of 10 when the CoS is below 10 (see docs/rulings.md):
 * - `saves-the-roll` (default, the chapter text): "a character will always succeed on a roll of
 *   10 or less"; a roll at or under the CoS is an ordinary success, so 1 to 10 is a Critical
 *   Success, and only a roll above the CoS succeeds under the Rule of 10.
 * - `floors-the-cos` (the glossary): "the lowest a CoS can be reduced to is 10 - making the roll
 *   under these circumstances is not a Critical Success"; below CoS 10 every success is a Rule
 *   of 10 success and none is critical.
 */
export type RuleOf10Reading = 'saves-the-roll' | 'floors-the-cos';

export interface TaskCheckOptions {
  /**
   * The GM "explicitly states that what the character is attempting is impossible": the Rule of
   * 10 does not apply. Table 1-1's Impossible (-80) alone does not do this.
   */
  readonly impossible?: boolean;
  /**
   * True (default): a roll of 95 to 100 is a Botch and fails even at a CoS of 95 or more. False:
   * a Botch only marks a roll that also fails (rolled over the CoS).
   */
  readonly botchAlwaysFails?: boolean;
  readonly ruleOf10Reading?: RuleOf10Reading;
}

/** What a d% roll against a CoS came to. */
export interface PercentileJudgement {
  readonly cos: number;
  readonly roll: number;
  readonly success: boolean;
  /** A success on 1 to 10 that did not need the Rule of 10. */
  readonly critical: boolean;
  readonly botch: boolean;
  /** Succeeded only because of the Rule of 10: "a skin-of-our-teeth miracle", never critical. */
  readonly ruleOf10: boolean;
  /** CoS minus roll: how far below the CoS the roll came; negative when above. */
  readonly margin: number;
}

export interface TaskCheckResult {
  readonly cos: number;
  /** The d% result, or null when the CoS was 100 or more and no Task Check was needed. */
  readonly roll: number | null;
  readonly automatic: boolean;
  readonly success: boolean;
  readonly critical: boolean;
  readonly botch: boolean;
  readonly ruleOf10: boolean;
  readonly margin: number | null;
}

export interface TaskCheckInput {
  /** The Skill or Attribute Rating used. */
  readonly rating: number;
  /** The Conditional Modifier, plus anything else the CoS formula adds (such as -EVA). */
  readonly modifier: number;
  /** The d% result, 1 to 100; leave it out when the CoS is 100 or more. */
  readonly roll?: number | undefined;
}

/**
 * The CoS of a Task Check: Rating plus Conditional Modifier. The modifier is not held to Table
 * 1-1's -80..+80 here: attack CoS formulas subtract the target's Evasion on top of it.
 */
export function chanceOfSuccess(rating: number, modifier: number): number {
  if (!Number.isSafeInteger(rating) || rating < 0) {
    throw new CheckError(
      'check/bad-rating',
      `a Rating is a whole number, 0 or more (Skill Ratings run 1 to 100), got ${rating}`,
    );
  }
  if (!Number.isSafeInteger(modifier)) {
    throw new CheckError('check/bad-modifier', `a modifier is a whole number, got ${modifier}`);
  }
  return rating + modifier;
}

/** True when the CoS is under 100: "If it is less than 100, a Task Check is required." */
export function taskCheckNeedsRoll(cos: number): boolean {
  assertCoS(cos);
  return cos < AUTOMATIC_SUCCESS_COS;
}

/** Throws the typed error for a d% result no pair of d10 can show. */
export function assertPercentileRoll(roll: number): void {
  if (!Number.isInteger(roll) || roll < 1 || roll > 100) {
    throw new CheckError(
      'check/roll-out-of-range',
      `a d% roll is a whole number from 1 to 100 (0 and 0 is 100), got ${roll}`,
    );
  }
}

function assertCoS(cos: number): void {
  if (!Number.isSafeInteger(cos)) {
    throw new CheckError('check/bad-cos', `a CoS is a whole number, got ${cos}`);
  }
}

/**
 * Judges one d% roll against a CoS, whatever the CoS: an Opposed Task Check rolls "even if
 * their CoS is 100 or higher", so this does not short-cut to an automatic success.
 */
export function judgePercentileRoll(
  cos: number,
  roll: number,
  options: TaskCheckOptions = {},
): PercentileJudgement {
  assertCoS(cos);
  assertPercentileRoll(roll);
  const botchAlwaysFails = options.botchAlwaysFails ?? true;
  const reading = options.ruleOf10Reading ?? 'saves-the-roll';
  const lowRoll = roll <= RULE_OF_10_MAX;
  const atOrUnder = roll <= cos;
  const ruleOf10 =
    options.impossible !== true &&
    lowRoll &&
    (reading === 'floors-the-cos' ? cos < RULE_OF_10_MAX : !atOrUnder);
  const rolledBotch = roll >= BOTCH_MIN;
  const success = (atOrUnder || ruleOf10) && !(rolledBotch && botchAlwaysFails);
  return {
    cos,
    roll,
    success,
    critical: success && !ruleOf10 && roll <= CRITICAL_SUCCESS_MAX,
    botch: rolledBotch && !success,
    ruleOf10,
    margin: cos - roll,
  };
}

/**
 * Resolves a Task Check: CoS = Rating + Conditional Modifier; 100 or more succeeds with no
 * roll (a roll given anyway is ignored, since it cannot change that), otherwise the d% decides.
 */
export function resolveTaskCheck(
  input: TaskCheckInput,
  options: TaskCheckOptions = {},
): TaskCheckResult {
  const cos = chanceOfSuccess(input.rating, input.modifier);
  return resolveTaskCheckAgainst(cos, input.roll, options);
}

/** As resolveTaskCheck, for a CoS already worked out (a Flat CoS, or an ability's formula). */
export function resolveTaskCheckAgainst(
  cos: number,
  roll: number | undefined,
  options: TaskCheckOptions = {},
): TaskCheckResult {
  if (roll !== undefined) assertPercentileRoll(roll);
  if (!taskCheckNeedsRoll(cos)) {
    return {
      cos,
      roll: null,
      automatic: true,
      success: true,
      critical: false,
      botch: false,
      ruleOf10: false,
      margin: null,
    };
  }
  if (roll === undefined) {
    throw new CheckError(
      'check/roll-needed',
      `CoS ${cos} is under 100, so a Task Check is needed: give the d% roll`,
    );
  }
  return { ...judgePercentileRoll(cos, roll, options), automatic: false };
}

/** A d% rolled by Moogle: the result, the two d10 behind it, and the engine's explanation. */
export interface PercentileRoll {
  readonly total: number;
  /** The called die, read as the tens digit (0 to 9; 0 and 0 is 100). */
  readonly tensDigit: number;
  readonly onesDigit: number;
  /** `d% = [20+8] = 28` */
  readonly explanation: RollResult;
}

export interface RolledTaskCheck {
  readonly check: TaskCheckResult;
  /** Null when the CoS was 100 or more: no dice are taken from the source then. */
  readonly percentile: PercentileRoll | null;
}

/** Rolls the d% a Task Check needs from `dice` and resolves it. */
export function rollTaskCheck(
  input: Omit<TaskCheckInput, 'roll'>,
  dice: DiceSource,
  options: TaskCheckOptions = {},
): RolledTaskCheck {
  const cos = chanceOfSuccess(input.rating, input.modifier);
  if (!taskCheckNeedsRoll(cos)) {
    return { check: resolveTaskCheckAgainst(cos, undefined, options), percentile: null };
  }
  const percentile = rollPercentile(dice);
  return { check: resolveTaskCheckAgainst(cos, percentile.total, options), percentile };
}

/** One d%, through the dice engine so the explanation shows the called die and the ones die. */
export function rollPercentile(dice: DiceSource): PercentileRoll {
  const explanation = parseDice('d%').roll({ dice });
  const digits =
    explanation.detail.kind === 'dice' ? explanation.detail.dice[0]?.digits?.[0] : undefined;
  if (digits === undefined) throw new Error('d% rolled without its two d10');
  return { total: explanation.total, tensDigit: digits[0], onesDigit: digits[1], explanation };
}
