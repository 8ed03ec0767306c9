/** The systems' names as the table reads them. */
export const SYSTEM_NAMES: Readonly<Record<string, string>> = {
  ffrpg: 'Final Fantasy RPG 3rd Edition',
  ffviii: 'FFVIII Feng Shui',
  zodiac: 'ZODIAC',
  'shining-force': 'Shining Force',
};
