import { UsageError } from '../input.js';

/** A flag's value as a whole number, or a UsageError saying which flag and what it takes. */
export function wholeNumber(text: string, flag: string, why: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?\d{1,16}$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new UsageError(`${flag}: '${text}' is not a whole number (${why})`);
  }
  return Number(trimmed);
}

export function signed(value: number): string {
  return value > 0 ? `+${value}` : String(value);
}

/** A flag the chosen system needs. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`${flag} is required for this system`);
  return value;
}
