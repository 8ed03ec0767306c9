/**
 * The text's numbers as pure functions: the derived rates, what each of an attack's d100s
 * decides, and status chances against Luck. The engine and `moogle check shining-force` both
 * use these.
 */

/** "Evade: calculated by adding one quarter of a character's agility to their luck." */
export function evadeRate(agility: number, luck: number): number {
  return Math.floor(agility / 4) + luck;
}

/** "Critical: calculated by adding one point for every five levels a character has to their luck." */
export function criticalRate(luck: number, level: number): number {
  return luck + Math.floor(level / 5);
}

/** "Counter: calculated by adding one eigth of a character's agility to their luck." */
export function counterRate(agility: number, luck: number): number {
  return Math.floor(agility / 8) + luck;
}

/**
 * First roll: "if the target had a 9% evade rate, a roll of 10-100 would result in a hit".
 * Illusion on the attacker: "attacks are 50% less accurate": half the chance to hit, so a roll
 * must clear 100 - (100 - evade) / 2 (rounded down, as the text rounds).
 */
export function isHit(roll: number, evade: number, illusion = false): boolean {
  if (!illusion) return roll > evade;
  const chance = Math.floor((100 - Math.min(100, evade)) / 2);
  return roll > 100 - chance;
}

/** Second (and fifth) roll: 1-33 a penalty, 34-66 none, 67-100 a bonus, each 1d15%. */
export function varianceDirection(roll: number): -1 | 0 | 1 {
  if (roll <= 33) return -1;
  if (roll <= 66) return 0;
  return 1;
}

/** Third roll(s): "if a character's critical rate is 5%, a roll from 1-5 would result in a critical hit". */
export function isCritical(roll: number, rate: number): boolean {
  return roll <= rate;
}

/** Fourth roll: "if the target had a 15% counter rate, a roll of 1-15 would result in a counter attack". */
export function isCounter(roll: number, rate: number): boolean {
  return roll <= rate;
}

export type StatusLuckRule = 'multiply' | 'subtract' | 'none';

/**
 * A status chance after Luck: "if Syntesis has 6 luck and casts Desoul (70% chance of working)
 * against a target with 9 luck, the overall percent of success would drop by 10% for each
 * difference in luck ... would drop to 50%". Only a caster with less Luck loses chance.
 * 'multiply': 10% of the chance per point (70 -> 63 -> 56 -> 51, the text's "50%" give or take);
 * 'subtract': 10 points per point (70 -> 40).
 */
export function statusChance(
  chance: number,
  casterLuck: number,
  targetLuck: number,
  rule: StatusLuckRule,
): number {
  const difference = targetLuck - casterLuck;
  if (difference <= 0 || rule === 'none') return chance;
  if (rule === 'subtract') return Math.max(0, chance - 10 * difference);
  return Math.floor(chance * 0.9 ** Math.min(difference, 100));
}

/**
 * Damage the Shining Force games' way: Attack minus Defence, then the variance percentage, then
 * a critical's percentage, rounded down at each step, never below the minimum. The steps are
 * written out only when `explain`: a simulated blow would spend more on the text than the sum.
 */
export function attackDamage(
  attack: number,
  defence: number,
  variancePercent: number,
  criticalPercent: number | null,
  minimum: number,
  explain = true,
): { readonly amount: number; readonly steps: readonly string[] } {
  let amount = attack - defence;
  const steps = explain ? [`ATT ${attack} - DEF ${defence} = ${amount}`] : undefined;
  if (variancePercent !== 0) {
    amount = Math.floor((amount * (100 + variancePercent)) / 100);
    steps?.push(`${variancePercent > 0 ? '+' : ''}${variancePercent}% = ${amount}`);
  }
  if (criticalPercent !== null) {
    amount = Math.floor((amount * criticalPercent) / 100);
    steps?.push(`critical ${criticalPercent}% = ${amount}`);
  }
  if (amount < minimum) {
    amount = minimum;
    steps?.push(`minimum ${minimum}`);
  }
  return { amount, steps: steps ?? NO_STEPS };
}

const NO_STEPS: readonly string[] = Object.freeze([]);

/** A spell's damage with its variance (spells never critical). */
export function effectDamage(base: number, variancePercent: number): number {
  return Math.max(0, Math.floor((base * (100 + variancePercent)) / 100));
}
