import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import { characterKind, ffviiiNewcomer } from '../content.js';
import type { CharacterState } from './roster.js';

/** A character joining the table as its sheet has it: full HP, its Spell Matrix and items, full guns. */
export function recruit(library: ContentLibrary, characterId: string): Result<CharacterState> {
  if (library.get(characterKind, characterId) === undefined)
    return err('campaign/unknown-character', `there is no ffviii/character '${characterId}'`);
  const sheet = ffviiiNewcomer(library, characterId);
  if (!sheet.ok) return sheet;
  const ammo: Record<string, number> = {};
  for (const w of sheet.value.weapons) if (w.gun !== undefined) ammo[w.id] = w.gun.capacity;
  return ok({
    hp: sheet.value.hp,
    spellMatrix: { ...sheet.value.spellMatrix },
    items: { ...sheet.value.items },
    ammo,
    statuses: [],
  });
}
