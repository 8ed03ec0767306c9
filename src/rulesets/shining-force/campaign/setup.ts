import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster } from '../../campaign.js';
import { withLastingStates } from '../../campaign-sides.js';
import { type EncounterSpec, encounterSpecSchema, shiningForceSetupFrom } from '../content.js';
import type { CombatantSheet, ShiningForceSetup } from '../model.js';
import { shiningForce } from '../ruleset.js';
import { type ForceMemberState, parseShiningForceRoster, withGains } from './roster.js';

/**
 * A member's sheet as it enters with the roster's lasting state: class, level, EXP, stats with
 * their gains, items as they are (cracked ones cracked), Poison. A survivor enters at full HP and
 * MP (unless the encounter says otherwise); a defeated one enters at 0 HP, out of the battle until
 * raised.
 */
function fromRoster(sheet: CombatantSheet, state: ForceMemberState): CombatantSheet {
  const { hp: _hp, poison: _poison, ...rest } = sheet;
  return {
    ...rest,
    class: state.class,
    level: state.level,
    exp: state.exp,
    stats: withGains(sheet.stats, state.gains),
    items: state.items.map((h) => ({ ...h })),
    ...(state.poison === null ? {} : { poison: state.poison }),
    ...(state.defeated ? { hp: 0 } : sheet.hp === undefined ? {} : { hp: sheet.hp }),
  };
}

/**
 * The encounter's setup as `shiningForceSetupFrom` builds it, each roster member then starting
 * from its lasting state. A roster member fights under its own id, so the battle's results find
 * their way back to it.
 */
export function shiningForceSetupFromRoster(
  library: ContentLibrary,
  specInput: EncounterSpec,
  rosterInput: CampaignRoster,
): Result<ShiningForceSetup> {
  const roster = parseShiningForceRoster(rosterInput);
  if (!roster.ok) return roster;
  const built = shiningForceSetupFrom(library, specInput);
  if (!built.ok) return built;
  // shiningForceSetupFrom has accepted the spec, and builds its sides in the spec's order.
  const spec = encounterSpecSchema.parse(specInput);
  const sides = withLastingStates(
    built.value.sides,
    spec.sides,
    roster.value.characters,
    (sheet, state, where) => {
      const unknown = state.items.find((h) => built.value.items[h.item] === undefined);
      if (unknown !== undefined)
        return err(
          'campaign/unknown-item',
          `${where}: ${sheet.name} carries '${unknown.item}', which the content does not hold`,
        );
      return ok(fromRoster(sheet, state));
    },
  );
  if (!sides.ok) return sides;
  const parsed = shiningForce.parseSetup({ ...built.value, sides: sides.value });
  return parsed.ok ? parsed : err('encounter/invalid', parsed.error.message);
}
