import { z } from 'zod';
import { entityFields } from '../../../content/kind.js';
import type { ContentLibrary } from '../../../content/library.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import { characterKind, itemKind } from '../content.js';
import { STATUSES } from '../statuses.js';
import {
  parseZodiacRoster,
  toCampaignRoster,
  type ZodiacCharacterState,
  type ZodiacRoster,
} from './roster.js';

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

/**
 * Between fights a party may rest (the chapter gives no rest: rulings) and use its Potions, as
 * "Potions ... may be used on any target".
 */
export const zodiacServiceSchema = z.discriminatedUnion('type', [
  /** Every conscious character back to full HP and MP; Permanent effects stay. */
  z.strictObject({ type: z.literal('rest') }),
  /** A Potion from `character`'s pack on `target`. */
  z.strictObject({ type: z.literal('use-item'), character: slug, item: slug, target: slug }),
]);
export type ZodiacService = z.infer<typeof zodiacServiceSchema>;

interface Full {
  readonly name: string;
  readonly hp: number;
  readonly mp: number;
}

function sheetOf(library: ContentLibrary, id: string): Result<Full> {
  const entity = library.get(characterKind, id);
  if (entity === undefined)
    return err('campaign/unknown-character', `there is no zodiac/character '${id}'`);
  const sheet = entityFields(entity);
  return ok({ name: sheet.name, hp: sheet.stats.hp, mp: sheet.stats.mp });
}

function rest(library: ContentLibrary, roster: ZodiacRoster): Result<CampaignStep> {
  const characters: Record<string, ZodiacCharacterState> = {};
  const report: string[] = [];
  for (const [id, state] of Object.entries(roster.characters)) {
    characters[id] = state;
    if (state.unconscious || state.dead) continue;
    const full = sheetOf(library, id);
    if (!full.ok) return full;
    if (state.hp === full.value.hp && state.mp === full.value.mp) continue;
    characters[id] = { ...state, hp: full.value.hp, mp: full.value.mp };
    report.push(`${full.value.name} rests: ${full.value.hp} HP, ${full.value.mp} MP`);
  }
  if (report.length === 0)
    return err('campaign/nothing-to-do', 'nobody conscious needs rest: HP and MP are full');
  return ok({ roster: toCampaignRoster({ characters, party: null }), report });
}

/**
 * A Potion used between fights, as in a fight: it revives, restores HP and MP, cures. It is
 * refused, and kept, where it would do nothing, and on a Zombie, whose curatives are reversed
 * "dealing damage instead of healing it" (no table hurts its own between fights).
 */
function useItem(
  library: ContentLibrary,
  roster: ZodiacRoster,
  service: Extract<ZodiacService, { type: 'use-item' }>,
): Result<CampaignStep> {
  const holder = roster.characters[service.character];
  if (holder === undefined)
    return err('campaign/unknown-character', `'${service.character}' is not on the roster`);
  const entity = library.get(itemKind, service.item);
  if (entity === undefined || (holder.items[service.item] ?? 0) <= 0)
    return err(
      'campaign/no-item',
      `${service.character} has no ${entity?.name ?? `item '${service.item}'`} left`,
    );
  const item = entityFields(entity);
  const before = roster.characters[service.target];
  if (before === undefined)
    return err('campaign/unknown-character', `'${service.target}' is not on the roster`);
  const full = sheetOf(library, service.target);
  if (!full.ok) return full;
  const who = full.value.name;
  if (before.dead) return err('campaign/dead', `${who} is dead, beyond any Potion`);
  const restores = item.restoreHp > 0 || item.restoreMp > 0;
  if (before.statuses.includes('zombie') && restores)
    return err('campaign/zombie', `${who} is a Zombie: the ${item.name} would hurt, not heal`);
  let target = before;
  const did: string[] = [];
  if (item.revive !== undefined && target.unconscious) {
    const hp = Math.max(1, Math.floor((full.value.hp * item.revive.hpPercent) / 100));
    target = { ...target, unconscious: false, hp };
    did.push(`revives with ${hp} HP`);
  }
  // "Curative Potions and Healing Techs will have no effect" on the Unconscious.
  if (!target.unconscious) {
    const hp = Math.min(full.value.hp, target.hp + item.restoreHp);
    const mp = Math.min(full.value.mp, target.mp + item.restoreMp);
    if (hp > target.hp) did.push(`regains ${hp - target.hp} HP`);
    if (mp > target.mp) did.push(`regains ${mp - target.mp} MP`);
    target = { ...target, hp, mp };
  }
  const cured = target.statuses.filter((s) => item.cures.includes(s));
  if (cured.length > 0) {
    target = { ...target, statuses: target.statuses.filter((s) => !cured.includes(s)) };
    did.push(`is cured of ${cured.map((s) => STATUSES[s].name).join(', ')}`);
  }
  if (did.length === 0)
    return err('campaign/no-effect', `the ${item.name} would do nothing for ${who}: kept`);
  const left = (holder.items[service.item] ?? 0) - 1;
  const { [service.item]: _, ...others } =
    service.target === service.character ? target.items : holder.items;
  const pack = left > 0 ? { ...others, [service.item]: left } : others;
  const characters =
    service.target === service.character
      ? { ...roster.characters, [service.target]: { ...target, items: pack } }
      : {
          ...roster.characters,
          [service.character]: { ...holder, items: pack },
          [service.target]: target,
        };
  return ok({
    roster: toCampaignRoster({ characters, party: null }),
    report: [`${who} ${did.join(' and ')} (${item.name})`],
  });
}

export function applyZodiacService(
  library: ContentLibrary,
  rosterInput: CampaignRoster,
  service: ZodiacService,
): Result<CampaignStep> {
  const roster = parseZodiacRoster(rosterInput);
  if (!roster.ok) return roster;
  return service.type === 'rest'
    ? rest(library, roster.value)
    : useItem(library, roster.value, service);
}
