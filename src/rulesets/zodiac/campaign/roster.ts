import { z } from 'zod';
import { describeIssue, err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, JsonValue, RosterReference } from '../../campaign.js';
import { countedReferences, rosterReferencesWith } from '../../campaign-roster.js';
import { itemKind } from '../content.js';
import { STATUS_IDS, STATUSES, type StatusId } from '../statuses.js';

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a lowercase id: letters, digits and -');

/**
 * The status effects a fight leaves behind: "All 'Temporary' effects vanish when the battle is
 * over", and the positive ones with them (rulings); the Permanent ones stay "until cured".
 * Unconscious is kept as its own flag, as the battle keeps it.
 */
export const LASTING_STATUSES = STATUS_IDS.filter(
  (s) => STATUSES[s].duration === 'permanent' && s !== 'unconscious',
) as readonly StatusId[];

/**
 * A ZODIAC character between fights: what the next fight starts from besides the sheet. HP is
 * counted as the sheet counts it, without the Damage Levels' zeroes, so a roster plays the same
 * in an encounter with or without them.
 */
export const zodiacCharacterStateSchema = z.strictObject({
  hp: whole(0, 9_999_999),
  mp: whole(0, 9_999_999),
  /** Potions left, by item id: "All Potions are gone after one use." */
  items: z.record(slug, whole(1, 99)),
  statuses: z
    .array(z.enum(LASTING_STATUSES as [StatusId, ...StatusId[]]))
    .refine((s) => new Set(s).size === s.length, 'a status effect is listed twice'),
  /** At 0 HP: "can only be revived through the use of a Phoenix Down, Phoenix Pinion, or Life spell". */
  unconscious: z.boolean(),
  /** "Death is permanent": the GM's decision, kept so the character fights no more. */
  dead: z.boolean(),
});
export type ZodiacCharacterState = z.infer<typeof zodiacCharacterStateSchema>;

/** ZODIAC's party shares nothing: the chapter gives no money and no shared stores. */
export const ZODIAC_EMPTY_PARTY = null;

export interface ZodiacRoster {
  readonly characters: Readonly<Record<string, ZodiacCharacterState>>;
  readonly party: null;
}

/** A roster as plain JSON again, for the table to store. */
export function toCampaignRoster(roster: ZodiacRoster): CampaignRoster {
  const characters: Record<string, JsonValue> = {};
  for (const [id, c] of Object.entries(roster.characters))
    characters[id] = {
      hp: c.hp,
      mp: c.mp,
      items: { ...c.items },
      statuses: [...c.statuses],
      unconscious: c.unconscious,
      dead: c.dead,
    };
  return { characters, party: null };
}

/**
 * What the roster names in the content: the items each character has left. Status effects are
 * the rules' own, not content; the party holds nothing.
 */
export function zodiacRosterReferences(roster: ZodiacRoster): RosterReference[] {
  return rosterReferencesWith(roster, {
    character: (c) => countedReferences(c.items, itemKind.kind, 'items'),
  });
}

/** Checks a stored roster; a mistake names the character and the field. */
export function parseZodiacRoster(value: unknown): Result<ZodiacRoster> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return err('campaign/invalid-roster', 'a roster is an object with characters and party');
  const { characters, party } = value as { characters?: unknown; party?: unknown };
  if (party !== null && party !== undefined)
    return err('campaign/invalid-roster', 'party: ZODIAC keeps nothing for the party (null)');
  if (typeof characters !== 'object' || characters === null || Array.isArray(characters))
    return err('campaign/invalid-roster', 'characters: an object of characters by id');
  const out: Record<string, ZodiacCharacterState> = {};
  for (const [id, state] of Object.entries(characters)) {
    if (!slug.safeParse(id).success)
      return err('campaign/invalid-roster', `characters: '${id}' is not a character id`);
    const parsed = zodiacCharacterStateSchema.safeParse(state);
    if (!parsed.success)
      return err('campaign/invalid-roster', `character '${id}': ${describeIssue(parsed.error)}`);
    out[id] = parsed.data;
  }
  return ok({ characters: out, party: null });
}
