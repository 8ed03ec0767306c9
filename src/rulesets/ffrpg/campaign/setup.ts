import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster } from '../../campaign.js';
import { withLastingStates } from '../../campaign-sides.js';
import { type EncounterSpec, encounterSpecSchema, ffrpgSetupFrom } from '../content.js';
import type { CombatantSheet, FfrpgSetup } from '../model.js';
import { ffrpg } from '../ruleset.js';
import { type CharacterState, readRoster } from './roster.js';

/**
 * An encounter's setup built as an encounter file's is (ffrpgSetupFrom), then each character the
 * roster holds changed to start from its lasting state: Level and XP, current HP and MP, and the
 * (∞) Status Conditions it carries on top of its sheet's own. The campaign's level table stands
 * in when the encounter names none.
 */
export function setupFromRoster(
  library: ContentLibrary,
  spec: EncounterSpec,
  rosterInput: CampaignRoster,
): Result<FfrpgSetup> {
  const roster = readRoster(rosterInput);
  if (!roster.ok) return roster;
  const parsedSpec = encounterSpecSchema.safeParse(spec);
  // ffrpgSetupFrom reports a bad spec in its own words.
  if (!parsedSpec.success) return ffrpgSetupFrom(library, spec);
  const levelTable = parsedSpec.data.levelTable ?? roster.value.party.levelTable ?? undefined;
  const base = ffrpgSetupFrom(library, {
    ...parsedSpec.data,
    ...(levelTable === undefined ? {} : { levelTable }),
  });
  if (!base.ok) return base;
  const sides = withLastingStates(
    base.value.sides,
    parsedSpec.data.sides,
    roster.value.characters,
    (sheet, lasting) => ok(fromLastingState(sheet, lasting)),
  );
  if (!sides.ok) return sides;
  // Parsed again: a status the roster names must be one the content defines.
  const setup = ffrpg.parseSetup({ ...base.value, sides: sides.value });
  return setup.ok ? ok(setup.value) : err('campaign/invalid-roster', setup.error.message);
}

function fromLastingState(sheet: CombatantSheet, lasting: CharacterState): CombatantSheet {
  const own = new Set(sheet.statuses.map((s) => s.status));
  return {
    ...sheet,
    level: lasting.level,
    xp: lasting.xp,
    hp: Math.min(lasting.hp, sheet.stats.hp),
    mp: Math.min(lasting.mp, sheet.stats.mp),
    statuses: [
      ...sheet.statuses,
      ...lasting.statuses
        .filter((status) => !own.has(status))
        .map((status) => ({ status, timer: 'infinite' as const })),
    ],
  };
}
