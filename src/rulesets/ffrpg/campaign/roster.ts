import { z } from 'zod';
import type { Result } from '../../../engine/index.js';
import type { CampaignRoster, RosterReference } from '../../campaign.js';
import { readRosterWith, rosterReferencesWith } from '../../campaign-roster.js';
import { levelTableKind, statusKind } from '../content.js';

/**
 * What an FFRPG character keeps between fights, and what the party keeps together. Plain JSON;
 * nothing the sheet already says (Attributes, maximum HP, Job) is copied here, so a corrected
 * sheet reaches every table. Fields added later get defaults, so older rosters still read.
 */

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const contentId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a content id: a-z, 0-9 and -');

export const characterStateSchema = z.strictObject({
  /** "new FFRPG characters begin the game at Level 1, and can advance up to Level 99". */
  level: whole(1, 99),
  xp: whole(0, 99_999_999),
  /** The character's share of the Gil the party has won. */
  gil: whole(0, 999_999_999),
  /** Current HP and MP, as the last fight or rest left them (at most the sheet's maximums). */
  hp: whole(0, 99_999),
  mp: whole(0, 99_999),
  /** Status Conditions with an unlimited Timer (∞), which outlast the end of a fight. */
  statuses: z.array(contentId).default([]),
});
export type CharacterState = z.infer<typeof characterStateSchema>;

/** After a fight: HP and MP as it left them (the default), or restored to full. */
export const HP_AFTER_BATTLE = ['carried', 'restored'] as const;

export const partyStateSchema = z.strictObject({
  /** Gil that did not divide evenly among the characters: kept by the party, not lost. */
  gil: whole(0, 999_999_999).default(0),
  /** Items won ("rewards ... will typically include items"), by name, with how many. */
  items: z.record(z.string().min(1), whole(1, 9999)).default({}),
  /**
   * The campaign's level table (a content id), used when an encounter names none and for XP
   * awarded between fights; null: levels come only from an encounter's own table.
   */
  levelTable: contentId.nullable().default(null),
  hpAfterBattle: z.enum(HP_AFTER_BATTLE).default('carried'),
});
export type PartyState = z.infer<typeof partyStateSchema>;

export interface FfrpgRoster {
  readonly characters: Readonly<Record<string, CharacterState>>;
  readonly party: PartyState;
}

export const EMPTY_PARTY: PartyState = partyStateSchema.parse({});

/** A roster as stored, checked: a bad one names the character (or the party) and the field. */
export function readRoster(value: unknown): Result<FfrpgRoster> {
  return readRosterWith(value, {
    id: contentId,
    character: characterStateSchema,
    party: partyStateSchema,
  });
}

/**
 * What the roster names in the content: each character's lasting (∞) Status Conditions, and
 * the party's level table. The items the party has won are names, not content.
 */
export function ffrpgRosterReferences(roster: FfrpgRoster): RosterReference[] {
  return rosterReferencesWith(roster, {
    character: (c) =>
      c.statuses.map((id) => ({ kind: statusKind.kind, id, where: 'lasting status' })),
    party: (p) =>
      p.levelTable === null
        ? []
        : [{ kind: levelTableKind.kind, id: p.levelTable, where: 'level table' }],
  });
}

/** The typed roster as the plain JSON a table stores. */
export function toCampaignRoster(roster: FfrpgRoster): CampaignRoster {
  const characters: Record<string, CharacterState> = { ...roster.characters };
  return { characters, party: roster.party };
}
