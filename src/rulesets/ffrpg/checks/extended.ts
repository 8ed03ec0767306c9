import { CheckError } from './errors.js';
import {
  assertPercentileRoll,
  resolveTaskCheckAgainst,
  type TaskCheckOptions,
  type TaskCheckResult,
  taskCheckNeedsRoll,
} from './task-check.js';

export interface ExtendedCheckInput {
  readonly cos: number;
  /** "two or more successful Task Checks in order to succeed" (1 makes it a plain Task Check). */
  readonly required: number;
  /** The d% rolls made so far, in order. */
  readonly rolls: readonly number[];
  /**
   * How many rolls the situation allows (two minutes before the next gust, say). Without it the
   * text sets no limit: only enough successes decide the check.
   */
  readonly maxRolls?: number | undefined;
}

export interface ExtendedCheckOptions extends TaskCheckOptions {
  /**
   * A Botch ends the attempt as a failure. Off by default: the text leaves retakes to the GM
   * ("not every failed Task Check can be retaken, particularly if the original roll was
   * Botched").
   */
  readonly botchEnds?: boolean;
}

export interface ExtendedCheckResult {
  readonly cos: number;
  readonly required: number;
  /** True when the CoS is 100 or more: every Task Check succeeds with no roll. */
  readonly automatic: boolean;
  readonly checks: readonly TaskCheckResult[];
  readonly successes: number;
  readonly failures: number;
  readonly criticals: number;
  readonly botches: number;
  readonly succeeded: boolean;
  /** Succeeded, or can no longer succeed (out of rolls, or a Botch with `botchEnds`). */
  readonly decided: boolean;
  /** The fewest further rolls that could finish it: one per missing success; 0 once decided. */
  readonly rollsNeeded: number;
  /** Rolls still allowed under `maxRolls`, or null when there is no limit. */
  readonly rollsLeft: number | null;
}

function assertCount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new CheckError('check/bad-count', `${what} is a whole number, 1 or more, got ${value}`);
  }
}

/** A complex task that needs several successful Task Checks at the same CoS. */
export function resolveExtendedCheck(
  input: ExtendedCheckInput,
  options: ExtendedCheckOptions = {},
): ExtendedCheckResult {
  const { cos, required, rolls, maxRolls } = input;
  assertCount(required, 'the number of successes required');
  if (maxRolls !== undefined) {
    assertCount(maxRolls, 'the number of rolls allowed');
    if (maxRolls < required) {
      throw new CheckError(
        'check/bad-count',
        `${maxRolls} rolls cannot give the ${required} successes required`,
      );
    }
  }
  if (!taskCheckNeedsRoll(cos)) {
    // Rolls made anyway cannot change an automatic success, but a d% of 0 is still a mistake.
    for (const roll of rolls) assertPercentileRoll(roll);
    const automatic = resolveTaskCheckAgainst(cos, undefined, options);
    return {
      cos,
      required,
      automatic: true,
      checks: Array.from({ length: required }, () => automatic),
      successes: required,
      failures: 0,
      criticals: 0,
      botches: 0,
      succeeded: true,
      decided: true,
      rollsNeeded: 0,
      rollsLeft: maxRolls ?? null,
    };
  }

  const checks: TaskCheckResult[] = [];
  let decided = false;
  for (const [index, roll] of rolls.entries()) {
    if (decided) {
      throw new CheckError(
        'check/too-many-rolls',
        `roll ${index + 1} (${roll}) comes after the check was already decided`,
      );
    }
    checks.push(resolveTaskCheckAgainst(cos, roll, options));
    decided = isDecided(tallyGroupCheck(checks), checks.length, input, options);
  }
  const tally = tallyGroupCheck(checks);
  const succeeded = tally.successes >= required;
  return {
    cos,
    required,
    automatic: false,
    checks,
    successes: tally.successes,
    failures: tally.failures,
    criticals: tally.criticals,
    botches: tally.botches,
    succeeded,
    decided,
    rollsNeeded: decided ? 0 : required - tally.successes,
    rollsLeft: maxRolls === undefined ? null : maxRolls - checks.length,
  };
}

function isDecided(
  tally: GroupCheckTally,
  rolled: number,
  input: ExtendedCheckInput,
  options: ExtendedCheckOptions,
): boolean {
  if (tally.successes >= input.required) return true;
  if (options.botchEnds === true && tally.botches > 0) return true;
  if (input.maxRolls === undefined) return false;
  return input.maxRolls - rolled < input.required - tally.successes;
}

export interface GroupCheckTally {
  readonly checks: number;
  /** Automatic successes count: the character had no need to roll. */
  readonly successes: number;
  readonly failures: number;
  readonly criticals: number;
  readonly botches: number;
  readonly ruleOf10: number;
}

/**
 * Counts Task Checks made by several characters for one verdict: "The final verdict then weighs
 * the sum of successes and failures among the defendants." How to weigh them is the GM's call.
 */
export function tallyGroupCheck(results: readonly TaskCheckResult[]): GroupCheckTally {
  let successes = 0;
  let criticals = 0;
  let botches = 0;
  let ruleOf10 = 0;
  for (const result of results) {
    if (result.success) successes += 1;
    if (result.critical) criticals += 1;
    if (result.botch) botches += 1;
    if (result.ruleOf10) ruleOf10 += 1;
  }
  return {
    checks: results.length,
    successes,
    failures: results.length - successes,
    criticals,
    botches,
    ruleOf10,
  };
}
