/** The systems' names as the table reads them. */
export const SYSTEM_NAMES: Readonly<Record<string, string>> = {
  ffrpg: 'Final Fantasy RPG 3rd Edition',
  ffviii: 'FFVIII Feng Shui',
  zodiac: 'ZODIAC',
  'shining-force': 'Shining Force',
};

/**
 * The most HP an encounter entry's `maxHp` may give a monster in each system (its encounter
 * schema's bound): the tune panel's HP range starts within it.
 */
export const MOST_HP: Readonly<Record<string, number>> = {
  ffrpg: 99_999,
  ffviii: 9_999,
  zodiac: 9_999_999,
  'shining-force': 999,
};

/** The tune panel's first HP range: up to 2,000, or the system's most where that is less. */
export function defaultHpRange(system: string): { readonly low: number; readonly high: number } {
  return { low: 1, high: Math.min(2000, MOST_HP[system] ?? 2000) };
}
