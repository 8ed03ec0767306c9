import { z } from 'zod';
import { entitiesById } from '../../../content/encounter-sheets.js';
import { entityFields } from '../../../content/kind.js';
import type { ContentLibrary } from '../../../content/library.js';
import { describeIssue, err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, JsonValue, RosterReference } from '../../campaign.js';
import { rosterReferencesWith } from '../../campaign-roster.js';
import { DEFAULT_POISON } from '../combat.js';
import { characterKind, classKind, itemKind } from '../content.js';
import { heldItemSchema, type Stats } from '../model.js';
import type { Catalogue, ForceMember, Roster } from './force.js';

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase id: letters, digits and -');

/** The statistics a level raises: "hit points, magic points, attack, defence and agility". */
export const GAIN_STATS = ['hp', 'mp', 'attack', 'defence', 'agility'] as const;
type Gains = Record<(typeof GAIN_STATS)[number], number>;

/**
 * A Force member between battles. HP and MP are not kept: "Once a battle has ended, if a
 * character is still alive, all their hit points are restored" (and all MP). The stats are the
 * sheet's plus the gains rolled at each level, kept as gains so the sheet stays their source.
 */
export const forceMemberStateSchema = z.strictObject({
  class: id,
  level: whole(1, 99),
  exp: whole(0, 99),
  gains: z.strictObject({
    hp: whole(0, 999),
    mp: whole(0, 999),
    attack: whole(0, 999),
    defence: whole(0, 999),
    agility: whole(0, 999),
  }),
  /** "a maximum of 6 items": an equipped weapon, an equipped accessory and four others. */
  items: z
    .array(heldItemSchema)
    .max(6)
    .refine(
      (items) => items.filter((h) => !h.equipped).length <= 4,
      'at most four unequipped items',
    )
    .refine((items) => items.filter((h) => h.equipped).length <= 2, 'at most two items equipped'),
  /** HP lost after each turn while Poisoned; null: not poisoned. */
  poison: whole(1, 999).nullable(),
  /** "If an individual's hit points are reduced to 0, they are defeated and ... must be raised." */
  defeated: z.boolean(),
});
export type ForceMemberState = z.infer<typeof forceMemberStateSchema>;

/** What the Force holds together: its gold. */
export const forcePartySchema = z.strictObject({ gold: whole(0, 999_999_999) });
export type ForceParty = z.infer<typeof forcePartySchema>;

export const SHINING_FORCE_EMPTY_PARTY: ForceParty = { gold: 0 };

export interface ShiningForceRoster {
  readonly characters: Readonly<Record<string, ForceMemberState>>;
  readonly party: ForceParty;
}

export function toCampaignRoster(roster: ShiningForceRoster): CampaignRoster {
  const characters: Record<string, JsonValue> = {};
  for (const [memberId, m] of Object.entries(roster.characters))
    characters[memberId] = {
      class: m.class,
      level: m.level,
      exp: m.exp,
      gains: { ...m.gains },
      items: m.items.map((h) => ({ item: h.item, cracked: h.cracked, equipped: h.equipped })),
      poison: m.poison,
      defeated: m.defeated,
    };
  return { characters, party: { gold: roster.party.gold } };
}

/**
 * What the roster names in the content: each member's class, and each item it carries or has
 * equipped. The Force's gold names nothing.
 */
export function shiningForceRosterReferences(roster: ShiningForceRoster): RosterReference[] {
  return rosterReferencesWith(roster, {
    character: (m) => [
      { kind: classKind.kind, id: m.class, where: 'class' },
      ...m.items.map((h) => ({
        kind: itemKind.kind,
        id: h.item,
        where: h.equipped ? 'equipped' : 'carried',
      })),
    ],
  });
}

/** Checks a stored roster; a mistake names the character and the field. */
export function parseShiningForceRoster(value: unknown): Result<ShiningForceRoster> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return err('campaign/invalid-roster', 'a roster is an object with characters and party');
  const { characters, party } = value as { characters?: unknown; party?: unknown };
  const parsedParty = forcePartySchema.safeParse(party);
  if (!parsedParty.success)
    return err('campaign/invalid-roster', `party: ${describeIssue(parsedParty.error)}`);
  if (typeof characters !== 'object' || characters === null || Array.isArray(characters))
    return err('campaign/invalid-roster', 'characters: an object of Force members by id');
  const out: Record<string, ForceMemberState> = {};
  for (const [memberId, state] of Object.entries(characters)) {
    if (!id.safeParse(memberId).success)
      return err('campaign/invalid-roster', `characters: '${memberId}' is not a character id`);
    const parsed = forceMemberStateSchema.safeParse(state);
    if (!parsed.success)
      return err(
        'campaign/invalid-roster',
        `character '${memberId}': ${describeIssue(parsed.error)}`,
      );
    out[memberId] = parsed.data;
  }
  return ok({ characters: out, party: parsedParty.data });
}

/** The sheet's stats with the gains of every level, none past the statistics' 999. */
export function withGains(stats: Stats, gains: Gains): Stats {
  const out = { ...stats };
  for (const key of GAIN_STATS) out[key] = Math.min(999, stats[key] + gains[key]);
  return out;
}

export function catalogueOf(library: ContentLibrary): Catalogue {
  return { classes: entitiesById(library, classKind), items: entitiesById(library, itemKind) };
}

export function sheetStats(
  library: ContentLibrary,
  memberId: string,
): Result<{ name: string; stats: Stats }> {
  const entity = library.get(characterKind, memberId);
  if (entity === undefined)
    return err('campaign/unknown-character', `there is no shining-force/character '${memberId}'`);
  const sheet = entityFields(entity);
  return ok({ name: sheet.name, stats: sheet.stats });
}

/** The roster as the Force the level table, the priest and the store work on. */
export function forceOf(library: ContentLibrary, roster: ShiningForceRoster): Result<Roster> {
  const members: ForceMember[] = [];
  for (const [memberId, state] of Object.entries(roster.characters)) {
    const sheet = sheetStats(library, memberId);
    if (!sheet.ok) return sheet;
    members.push({
      id: memberId,
      name: sheet.value.name,
      class: state.class,
      level: state.level,
      exp: state.exp,
      stats: withGains(sheet.value.stats, state.gains),
      items: state.items,
      poisoned: state.poison !== null,
      defeated: state.defeated,
    });
  }
  return ok({ gold: roster.party.gold, members });
}

/**
 * A Force member back as lasting state: its gains what its stats have over the sheet's. A
 * Poison the priest did not cure keeps the amount it had; one new to the roster takes the
 * default.
 */
export function stateOf(
  member: ForceMember,
  sheet: Stats,
  before: ForceMemberState | undefined,
): ForceMemberState {
  const gains = { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 };
  for (const key of GAIN_STATS) gains[key] = Math.max(0, member.stats[key] - sheet[key]);
  return {
    class: member.class,
    level: member.level,
    exp: member.exp,
    gains,
    items: member.items.map((h) => ({ item: h.item, cracked: h.cracked, equipped: h.equipped })),
    poison: member.poisoned ? (before?.poison ?? DEFAULT_POISON) : null,
    defeated: member.defeated,
  };
}

/** Every member back as lasting state, and the gold. */
export function rosterOf(
  library: ContentLibrary,
  force: Roster,
  before: ShiningForceRoster,
): Result<ShiningForceRoster> {
  const characters: Record<string, ForceMemberState> = {};
  for (const member of force.members) {
    const sheet = sheetStats(library, member.id);
    if (!sheet.ok) return sheet;
    characters[member.id] = stateOf(member, sheet.value.stats, before.characters[member.id]);
  }
  return ok({ characters, party: { gold: force.gold } });
}
