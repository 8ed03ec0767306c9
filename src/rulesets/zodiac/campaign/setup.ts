import { encounterInvalid } from '../../../content/encounter-sheets.js';
import type { ContentLibrary } from '../../../content/library.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster } from '../../campaign.js';
import { withLastingStates } from '../../campaign-sides.js';
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
  const sides = withLastingStates(
    built.value.sides,
    spec.sides,
    roster.value.characters,
    (sheet, state, where) =>
      state.dead
        ? err('campaign/dead', `${where}: ${sheet.name} is dead and fights no more`)
        : ok(fromRoster(sheet, state)),
  );
  if (!sides.ok) return sides;
  const setup = setupSchema.safeParse({ ...built.value, sides: sides.value });
  return setup.success ? ok(setup.data) : encounterInvalid(setup.error);
}
