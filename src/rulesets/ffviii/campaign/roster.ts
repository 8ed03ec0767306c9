import { z } from 'zod';
import type { Result } from '../../../engine/index.js';
import type { CampaignRoster, RosterReference } from '../../campaign.js';
import { countedReferences, readRosterWith, rosterReferencesWith } from '../../campaign-roster.js';
import { itemKind, spellKind, weaponKind } from '../content.js';
import { idSchema, STATUS_NAME } from '../model.js';

/**
 * What an FFVIII character keeps between fights. The text gives no experience and no money, so
 * the roster holds only what a fight uses up or adds: HP, the Spell Matrix's stock (cast down,
 * drawn up), items, the rounds in each gun, and statuses held until ended. Nothing the sheet
 * says (Attributes, Skills, maximum HP, weapons) is copied. Fields added later get defaults.
 */

const int = z.number().int();

export const characterStateSchema = z.strictObject({
  /** Current HP (at most the sheet's); 0: fallen, and out of fights until healed or rested. */
  hp: int.min(0).max(9999),
  /** Spells in stock, by spell id. */
  spellMatrix: z.record(idSchema, int.min(0).max(100)).default({}),
  items: z.record(idSchema, int.min(0).max(99)).default({}),
  /** Rounds left in each gun, by weapon id; a gun not listed is full. */
  ammo: z.record(idSchema, int.min(0).max(200)).default({}),
  /** Statuses the GM put on with no timer, held until ended. */
  statuses: z.array(z.string().regex(STATUS_NAME, 'a status: one lower-case word')).default([]),
});
export type CharacterState = z.infer<typeof characterStateSchema>;

export const partyStateSchema = z.strictObject({
  /** After a fight: HP as it left them (the default), or restored for those still standing. */
  hpAfterBattle: z.enum(['carried', 'restored']).default('carried'),
});
export type PartyState = z.infer<typeof partyStateSchema>;

export interface FfviiiRoster {
  readonly characters: Readonly<Record<string, CharacterState>>;
  readonly party: PartyState;
}

export const EMPTY_PARTY: PartyState = partyStateSchema.parse({});

/** A roster as stored, checked: a bad one names the character (or the party) and the field. */
export function readRoster(value: unknown): Result<FfviiiRoster> {
  return readRosterWith(value, {
    id: idSchema,
    character: characterStateSchema,
    party: partyStateSchema,
  });
}

/**
 * What the roster names in the content: the spells each character has in stock, the items it
 * has left, and the guns whose rounds it counts (an empty gun too: 0 rounds is a count, where
 * a spell or item at 0 is spent and names nothing). Statuses are free words, not content.
 */
export function ffviiiRosterReferences(roster: FfviiiRoster): RosterReference[] {
  return rosterReferencesWith(roster, {
    character: (c) => [
      ...countedReferences(c.spellMatrix, spellKind.kind, 'Spell Matrix'),
      ...countedReferences(c.items, itemKind.kind, 'items'),
      ...countedReferences(c.ammo, weaponKind.kind, 'rounds in its gun', 0),
    ],
  });
}

/** The typed roster as the plain JSON a table stores. */
export function toCampaignRoster(roster: FfviiiRoster): CampaignRoster {
  const characters: Record<string, CharacterState> = { ...roster.characters };
  return { characters, party: roster.party };
}
