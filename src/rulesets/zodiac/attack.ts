/**
 * The attack roll, pure: "roll 1d100 and add your Accuracy to the result. If the total is greater
 * than the target's Evade, you hit. However, ... a natural roll of 90 or higher ALWAYS hits. If you
 * make a successful strike, and the natural number you roll is equal to or greater than your
 * Critical stat, you score a critical hit". `moogle check zodiac` and the battles share it.
 */

/** "a natural roll of 90 or higher ALWAYS hits". */
export const AUTOMATIC_HIT = 90;
/** "suffer a penalty of -30 to your attack rolls". */
export const BLIND_PENALTY = 30;
/** "characters attacking them with short range weapons suffer a penalty of -60". */
export const FLYING_PENALTY = 60;

export interface AttackJudgement {
  readonly natural: number;
  readonly total: number;
  readonly hit: boolean;
  readonly automatic: boolean;
  readonly critical: boolean;
}

/**
 * Judges a natural d100 roll. `penalty` is subtracted from the total (Blind, range);
 * `critical` is the attacker's Critical stat, if known.
 */
export function judgeAttack(
  natural: number,
  accuracy: number,
  evade: number,
  critical: number | undefined,
  penalty = 0,
): AttackJudgement {
  const total = natural + accuracy - penalty;
  const automatic = natural >= AUTOMATIC_HIT;
  const hit = total > evade || automatic;
  return {
    natural,
    total,
    hit,
    automatic,
    critical: hit && critical !== undefined && natural >= critical,
  };
}

/** "If the total is equal to or greater than the target's Resist, the effect is successful." */
export function judgeStatusRoll(natural: number, magicAccuracy: number, resist: number): boolean {
  return natural + magicAccuracy >= resist;
}
