import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import { characterKind } from '../content.js';
import type { CharacterState } from './roster.js';

/**
 * A character joining the table: the Level and XP its sheet gives, no Gil yet, HP and MP as the
 * sheet starts them (full unless it says otherwise). The sheet's own Status Conditions are not
 * copied: they are part of the sheet, and every fight starts with them anyway.
 */
export function recruit(library: ContentLibrary, characterId: string): Result<CharacterState> {
  const sheet = library.get(characterKind, characterId);
  if (sheet === undefined)
    return err('campaign/unknown-character', `there is no ffrpg/character '${characterId}'`);
  return ok({
    level: sheet.level,
    xp: sheet.xp,
    gil: 0,
    hp: Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp),
    mp: Math.min(sheet.mp ?? sheet.stats.mp, sheet.stats.mp),
    statuses: [],
  });
}
