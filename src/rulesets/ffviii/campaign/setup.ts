import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster } from '../../campaign.js';
import { withLastingStates } from '../../campaign-sides.js';
import { type EncounterSpec, encounterSpecSchema, ffviiiSetupFrom } from '../content.js';
import type { CombatantSheet, FfviiiSetup } from '../model.js';
import { ffviii } from '../ruleset.js';
import { type CharacterState, readRoster } from './roster.js';

/**
 * An encounter's setup built as an encounter file's is (ffviiiSetupFrom), then each character the
 * roster holds changed to start from its lasting state: HP (a fallen one at 0, out of the
 * fight), the Spell Matrix's stock, items, the rounds in its guns, and statuses held until ended.
 */
export function setupFromRoster(
  library: ContentLibrary,
  spec: EncounterSpec,
  rosterInput: CampaignRoster,
): Result<FfviiiSetup> {
  const roster = readRoster(rosterInput);
  if (!roster.ok) return roster;
  const base = ffviiiSetupFrom(library, spec);
  if (!base.ok) return base;
  // ffviiiSetupFrom has accepted the spec, so it parses.
  const entries = encounterSpecSchema.parse(spec).sides;
  const sides = withLastingStates(
    base.value.sides,
    entries,
    roster.value.characters,
    (sheet, lasting) => ok(fromLastingState(sheet, lasting, base.value)),
  );
  if (!sides.ok) return sides;
  // Checked again: a spell or item the roster names must be one the content defines.
  const setup = ffviii.parseSetup({ ...base.value, sides: sides.value });
  return setup.ok ? ok(setup.value) : err('campaign/invalid-roster', setup.error.message);
}

function fromLastingState(
  sheet: CombatantSheet,
  lasting: CharacterState,
  content: Pick<FfviiiSetup, 'spells' | 'items'>,
): CombatantSheet {
  const { startHp: _encounterHp, ...rest } = sheet;
  const hp = Math.min(lasting.hp, sheet.hp);
  return {
    ...rest,
    ...(hp < sheet.hp ? { startHp: hp } : {}),
    spellMatrix: heldOf(lasting.spellMatrix, content.spells),
    items: heldOf(lasting.items, content.items),
    ...(Object.keys(lasting.ammo).length > 0 ? { startAmmo: lasting.ammo } : {}),
    ...(lasting.statuses.length > 0 ? { startStatuses: lasting.statuses } : {}),
  };
}

/**
 * The counts the next fight starts with. One at 0 is spent and names nothing (the roster's
 * references leave it out), so the library may have let its entry go: then it is dropped.
 */
function heldOf(
  counts: Readonly<Record<string, number>>,
  content: Readonly<Record<string, unknown>>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).filter(([id, n]) => n > 0 || Object.hasOwn(content, id)),
  );
}
