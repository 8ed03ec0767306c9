import type { ContentLibrary } from '../../../content/index.js';
import { encounterInvalid } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster } from '../../campaign.js';
import { type EncounterSpec, encounterSpecSchema, zodiacSetupFrom } from '../content.js';
import { type CombatantSheet, setupSchema, type ZodiacSetup } from '../model.js';
import { parseZodiacRoster, type ZodiacCharacterState } from './roster.js';

/** A character's sheet as it enters with the roster's lasting state instead of the sheet's. */
function fromRoster(sheet: CombatantSheet, state: ZodiacCharacterState): CombatantSheet {
  return {
    ...sheet,
    // combatantFromSheet reads 0 HP as Unconscious and adds the Damage Levels' zeroes.
    hp: state.unconscious ? 0 : state.hp,
    mp: state.mp,
    items: { ...state.items },
    statuses: state.statuses.map((status) => ({ status })),
  };
}

/**
 * The encounter's setup as `zodiacSetupFrom` builds it, each roster character then starting
 * from its lasting state. A roster character fights under its own id, so the fight's results
 * find their way back to it; a dead one fights no more.
 */
export function zodiacSetupFromRoster(
  library: ContentLibrary,
  specInput: EncounterSpec,
  rosterInput: CampaignRoster,
): Result<ZodiacSetup> {
  const roster = parseZodiacRoster(rosterInput);
  if (!roster.ok) return roster;
  const built = zodiacSetupFrom(library, specInput);
  if (!built.ok) return built;
  // zodiacSetupFrom has accepted the spec, and builds its sides in the spec's order.
  const spec = encounterSpecSchema.parse(specInput);
  const sides = built.value.sides.map((side, s) => ({
    ...side,
    combatants: side.combatants.map((sheet, c) => ({
      sheet,
      characterId: spec.sides[s]!.combatants[c]!.character,
      where: `sides[${s}].combatants[${c}]`,
    })),
  }));
  for (const side of sides)
    for (const { sheet, characterId, where } of side.combatants) {
      const state = characterId === undefined ? undefined : roster.value.characters[characterId];
      if (state === undefined) continue;
      if (sheet.id !== characterId)
        return err(
          'campaign/renamed',
          `${where}: ${sheet.name} is on the roster and fights as '${characterId}', not '${sheet.id}'`,
        );
      if (state.dead)
        return err('campaign/dead', `${where}: ${sheet.name} is dead and fights no more`);
    }
  const setup = setupSchema.safeParse({
    ...built.value,
    sides: sides.map((side) => ({
      ...side,
      combatants: side.combatants.map(({ sheet, characterId }) => {
        const state = characterId === undefined ? undefined : roster.value.characters[characterId];
        return state === undefined ? sheet : fromRoster(sheet, state);
      }),
    })),
  });
  return setup.success ? ok(setup.data) : encounterInvalid(setup.error);
}
