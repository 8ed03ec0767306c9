import { entityFields } from '../../../content/kind.js';
import type { ContentLibrary } from '../../../content/library.js';
import { err, ok, type Result } from '../../../engine/index.js';
import { characterKind } from '../content.js';
import { LASTING_STATUSES, type ZodiacCharacterState } from './roster.js';

/**
 * A character joining the table as its sheet has it: its HP and MP (full unless the sheet says
 * otherwise), its Potions, and the lasting status effects it comes with.
 */
export function recruitZodiac(
  library: ContentLibrary,
  characterId: string,
): Result<ZodiacCharacterState> {
  const entity = library.get(characterKind, characterId);
  if (entity === undefined)
    return err('campaign/unknown-character', `there is no zodiac/character '${characterId}'`);
  const sheet = entityFields(entity);
  const unconscious = sheet.hp === 0 || sheet.statuses.some((s) => s.status === 'unconscious');
  const items: Record<string, number> = {};
  for (const [item, count] of Object.entries(sheet.items)) if (count > 0) items[item] = count;
  return ok({
    hp: unconscious ? 0 : Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp),
    mp: Math.min(sheet.mp ?? sheet.stats.mp, sheet.stats.mp),
    items,
    statuses: [
      ...new Set(sheet.statuses.map((s) => s.status).filter((s) => LASTING_STATUSES.includes(s))),
    ],
    unconscious,
    dead: false,
  });
}
