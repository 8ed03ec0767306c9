import { AFFINITY_NAMES, type Affinity, ELEMENT_NAMES, type Element } from './elements.js';

/**
 * The damage pipeline, pure and exact: every multiplier is kept as a fraction and the result is
 * rounded down once at the end, so "591 minus 358" never needs rounding to "600 minus 350".
 */

/** One multiplier on the way: `['critical', 2, 1]`, `['Defend', 1, 2]`. */
export type Factor = readonly [name: string, numerator: number, denominator: number];

export const CRITICAL: Factor = ['critical', 2, 1];
export const FROG: Factor = ['Frog', 1, 10];
export const MINI_DEALT: Factor = ['Mini', 1, 10];
export const MINI_TAKEN: Factor = ['Mini (taken)', 3, 2];
export const DEFEND: Factor = ['Defend', 1, 2];
export const BARRIER: Factor = ['Barrier', 1, 2];
export const MBARRIER: Factor = ['MBarrier', 1, 2];

/** The chapter's Damage Cap: "Any attack that would otherwise deal over 999 damage ... deals 999". */
export const DAMAGE_CAP = 999;

const AFFINITY_FACTOR: Readonly<Record<'weakness' | 'resistance' | 'immunity', [number, number]>> =
  {
    weakness: [2, 1],
    resistance: [1, 2],
    immunity: [0, 1],
  };

export interface DamageInput {
  /** The roll with its power added: (dice x 10) + Attack Power, with the Damage Levels' zeroes. */
  readonly base: number;
  /** What the attacker's side does to it (critical, Frog, Mini): this is the "damage rolled". */
  readonly dealt: readonly Factor[];
  /** What protects the target (Defend, Barrier, MBarrier) or hurts it more (Mini). */
  readonly taken: readonly Factor[];
  readonly element?: Element | undefined;
  readonly affinity?: Affinity | undefined;
  /** "nothing can harm you while you are petrified - all damage dealt to you is reduced to zero". */
  readonly stone?: boolean;
  readonly cap: number | null;
  /** Build the breakdown text (a simulation does not). */
  readonly explain: boolean;
}

export interface DamageResult {
  /** HP lost, or with `absorbed` HP regained. */
  readonly amount: number;
  readonly absorbed: boolean;
  readonly breakdown: string;
}

function show(numerator: number, denominator: number): string {
  const value = numerator / denominator;
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}

function times(numerator: number, denominator: number): string {
  return denominator === 1 ? `x${numerator}` : `x${numerator}/${denominator}`;
}

/**
 * The order: the attacker's multipliers; then an Absorbency takes the damage rolled (Defend
 * "does NOT affect Absorbencies"); otherwise the target's protections, the element, Stone, and
 * the cap last, "after figuring in weaknesses, resistances, etc".
 */
export function computeDamage(input: DamageInput): DamageResult {
  let numerator = input.base;
  let denominator = 1;
  const steps: string[] = [];
  const step = (name: string, n: number, d: number): void => {
    numerator *= n;
    denominator *= d;
    if (input.explain) steps.push(`${name} ${times(n, d)} = ${show(numerator, denominator)}`);
  };
  for (const [name, n, d] of input.dealt) step(name, n, d);
  const element = input.element === undefined ? '' : `${ELEMENT_NAMES[input.element]} `;
  const affinity = input.affinity;
  if (affinity === 'lesser-absorbency' || affinity === 'greater-absorbency') {
    if (affinity === 'lesser-absorbency') denominator *= 2;
    const amount = Math.floor(numerator / denominator);
    const breakdown = input.explain
      ? [
          String(input.base),
          ...steps,
          `${element}${AFFINITY_NAMES[affinity]}: heals ${amount}`,
        ].join(', ')
      : '';
    return { amount, absorbed: true, breakdown };
  }
  for (const [name, n, d] of input.taken) step(name, n, d);
  if (affinity !== undefined) {
    const [n, d] = AFFINITY_FACTOR[affinity];
    step(`${element}${AFFINITY_NAMES[affinity]}`, n, d);
  }
  let amount = Math.floor(numerator / denominator);
  if (input.stone === true && amount > 0) {
    amount = 0;
    if (input.explain) steps.push('Stone: 0');
  }
  if (input.cap !== null && amount > input.cap) {
    amount = input.cap;
    if (input.explain) steps.push(`Damage Cap ${input.cap}`);
  }
  const breakdown = input.explain
    ? [String(input.base), ...steps].join(', ') +
      (denominator !== 1 && numerator % denominator !== 0 ? `, rounded down: ${amount}` : '')
    : '';
  return { amount, absorbed: false, breakdown };
}
