import type { LevelTable } from '../model.js';

/**
 * The Level a character's XP reaches on a level table ("Once a character has acquired enough XP,
 * they will advance a Level"); never below the Level it has. Without a table, the Level stays.
 */
export function levelFor(table: LevelTable | undefined, xp: number, level: number): number {
  let reached = level;
  if (table !== undefined)
    for (const row of table) if (row.xp <= xp && row.level > reached) reached = row.level;
  return reached;
}
