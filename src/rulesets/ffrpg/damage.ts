import type { Affinity } from './elements.js';

/**
 * The FFRPG damage pipeline, in the text's order: the damage code's result; every percentage
 * added together, then applied ("multiple percentages ... will be added together before being
 * applied", rounding down); armour; barrier Status Conditions; the Damage Cap of 999 ("including
 * modifiers for the target's Armor ... as well as Barrier status effects"); the Rule of 1.
 * Elemental Weakness and Resistance are percentages like any other (+100%, -50%); Immunity
 * leaves nothing; Absorbance turns the damage into healing (docs/rulings.md).
 */
export interface DamageInput {
  readonly base: number;
  /** Named percentages in steps of 25: `[['Darkside', 100], ['Critical', 100]]`. */
  readonly percents: readonly (readonly [string, number])[];
  readonly armor: { readonly name: 'ARM' | 'M. ARM'; readonly value: number } | null;
  /** Barrier percentages applied after armour: `[['Protect', -50]]`. */
  readonly barriers: readonly (readonly [string, number])[];
  readonly affinity: Affinity | undefined;
  readonly cap: number | null;
  /** False: skip the breakdown text (simulations). */
  readonly explain?: boolean;
}

export interface DamageResult {
  readonly amount: number;
  readonly absorbed: boolean;
  /** `30 +100% (Darkside) = 60 - ARM 10 = 50` */
  readonly breakdown: string;
}

export const WEAKNESS_PERCENT = 100;
export const RESISTANCE_PERCENT = -50;

/** A number changed by a percentage, rounded down as the text requires. */
export function applyPercent(value: number, percent: number): number {
  return Math.floor((value * (100 + percent)) / 100);
}

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `${n}`;
}

export function computeDamage(input: DamageInput): DamageResult {
  // The breakdown is for people; a simulation asks for the amount alone.
  const explain = input.explain !== false;
  let amount = input.base;
  let text = explain ? `${input.base}` : '';
  if (input.affinity === 'immunity')
    return { amount: 0, absorbed: false, breakdown: explain ? `${text}, immune: 0` : '' };
  let percents = input.percents;
  if (input.affinity === 'weakness') percents = [...percents, ['Weakness', WEAKNESS_PERCENT]];
  if (input.affinity === 'resistance') percents = [...percents, ['Resistance', RESISTANCE_PERCENT]];
  if (percents.length > 0) {
    let total = 0;
    for (const [, p] of percents) total += p;
    // Never below zero: -100% or less leaves no damage to armour.
    amount = Math.max(0, applyPercent(amount, Math.max(total, -100)));
    if (explain) {
      text += ` ${signed(total)}% (${percents.map(([name, p]) => `${name} ${signed(p)}%`).join(', ')}) = ${amount}`;
    }
  }
  const absorbed = input.affinity === 'absorbance';
  if (input.armor !== null && input.armor.value !== 0 && !absorbed) {
    amount -= input.armor.value;
    if (explain) text += ` - ${input.armor.name} ${input.armor.value} = ${amount}`;
  }
  if (input.barriers.length > 0 && !absorbed) {
    let barrier = 0;
    for (const [, p] of input.barriers) barrier += p;
    amount = Math.max(0, applyPercent(Math.max(amount, 0), Math.max(barrier, -100)));
    if (explain)
      text += ` ${signed(barrier)}% (${input.barriers.map(([n]) => n).join(', ')}) = ${amount}`;
  }
  if (input.cap !== null && amount > input.cap) {
    amount = input.cap;
    if (explain) text += `, capped at ${input.cap}`;
  }
  if (amount < 1) {
    amount = 1;
    if (explain) text += ', Rule of 1: 1';
  }
  if (absorbed && explain) text += ', absorbed: heals';
  return { amount, absorbed, breakdown: text };
}
