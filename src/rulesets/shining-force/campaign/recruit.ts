import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import { characterKind, shiningForceNewcomer } from '../content.js';
import type { ForceMemberState } from './roster.js';

/**
 * A Force member joining the table as the sheet has it: class, level, EXP and items, no gains
 * yet. A sheet without a class cannot gain levels, so it cannot join.
 */
export function recruitShiningForce(
  library: ContentLibrary,
  characterId: string,
): Result<ForceMemberState> {
  if (library.get(characterKind, characterId) === undefined)
    return err(
      'campaign/unknown-character',
      `there is no shining-force/character '${characterId}'`,
    );
  const sheet = shiningForceNewcomer(library, characterId);
  if (!sheet.ok) return sheet;
  const { class: cls, level, exp, items, name } = sheet.value;
  if (cls === undefined)
    return err('campaign/no-class', `${name} has no class: a Force member levels up in one`);
  return ok({
    class: cls,
    level,
    exp,
    gains: { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 },
    items: items.map((h) => ({ item: h.item, cracked: h.cracked, equipped: h.equipped })),
    poison: null,
    defeated: sheet.value.hp === 0,
  });
}
