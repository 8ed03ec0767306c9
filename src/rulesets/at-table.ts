import type { RollRecord } from '../engine/index.js';

/**
 * What a log line says after a roll whose dice were rolled at the table and entered, the same
 * in every system: a table reading the log back can tell its own dice from the server's.
 */
export const AT_TABLE = 'rolled at the table';

/** ` (rolled at the table)` after an entered roll; nothing after the server's, or no roll. */
export function atTable(roll: RollRecord | null | undefined): string {
  if (roll?.entered !== true) return '';
  // A total alone already says so in its text: `2d6+3 = 12 (entered as a total)`.
  return roll.totalOnly === true && roll.text !== '' ? '' : ` (${AT_TABLE})`;
}
