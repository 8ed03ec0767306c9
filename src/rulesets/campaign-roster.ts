import type { z } from 'zod';
import { err, ok, type Result } from '../engine/index.js';
import type { RosterReference } from './campaign.js';

/** `hiro.hp: Too small: expected number to be >=0`: whose field, and what is wrong with it. */
function issueText(whose: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${[whose, ...issue.path.map(String)].join('.')}: ${issue.message}`;
}

/**
 * A roster as stored (`{ characters, party }`), checked with a system's schemas: a bad one names
 * the character (or the party) and the field. A missing party reads as the party's defaults.
 */
export function readRosterWith<Character, Party>(
  value: unknown,
  schemas: {
    readonly id: z.ZodType<string>;
    readonly character: z.ZodType<Character>;
    readonly party: z.ZodType<Party>;
  },
): Result<{ characters: Record<string, Character>; party: Party }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return err('campaign/invalid-roster', 'a roster is an object: { characters, party }');
  const { characters, party } = value as Record<string, unknown>;
  if (typeof characters !== 'object' || characters === null || Array.isArray(characters))
    return err('campaign/invalid-roster', 'characters: an object of character states by id');
  const out: Record<string, Character> = {};
  for (const [id, state] of Object.entries(characters)) {
    if (!schemas.id.safeParse(id).success)
      return err('campaign/invalid-roster', `characters: '${id}' is not a character's content id`);
    const parsed = schemas.character.safeParse(state);
    if (!parsed.success) return err('campaign/invalid-roster', issueText(id, parsed.error));
    out[id] = parsed.data;
  }
  const partyParsed = schemas.party.safeParse(party ?? {});
  if (!partyParsed.success)
    return err('campaign/invalid-roster', issueText('party', partyParsed.error));
  return ok({ characters: out, party: partyParsed.data });
}

/** A content entry one state names, and where in it: a RosterReference without its holder. */
export type HeldReference = Omit<RosterReference, 'holder'>;

/**
 * A typed roster's references (`CampaignRules.references`): each character's, by what its
 * system says a character's state names, then the party's.
 */
export function rosterReferencesWith<Character, Party>(
  roster: {
    readonly characters: Readonly<Record<string, Character>>;
    readonly party: Party;
  },
  names: {
    readonly character: (state: Character) => readonly HeldReference[];
    readonly party?: (state: Party) => readonly HeldReference[];
  },
): RosterReference[] {
  const out: RosterReference[] = [];
  for (const [holder, state] of Object.entries(roster.characters))
    for (const r of names.character(state)) out.push({ ...r, holder });
  for (const r of names.party?.(roster.party) ?? []) out.push({ ...r, holder: null });
  return out;
}

/**
 * The keys of a record of counts (`{ potion: 2 }`) as references of one kind; `heldAt` the
 * least count that still holds one (1: an entry at 0 is spent, and names nothing).
 */
export function countedReferences(
  counts: Readonly<Record<string, number>>,
  kind: string,
  where: string,
  heldAt = 1,
): HeldReference[] {
  return Object.entries(counts)
    .filter(([, n]) => n >= heldAt)
    .map(([id]) => ({ kind, id, where }));
}
