import { z } from 'zod';
import type { ContentLibrary } from '../../../content/index.js';
import { describeIssue, err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignService, CampaignStep } from '../../campaign.js';
import { characterKind, levelTableKind, statusKind } from '../content.js';
import type { LevelTable } from '../model.js';
import { levelFor } from './levels.js';
import { type CharacterState, type FfrpgRoster, readRoster, toCampaignRoster } from './roster.js';

/**
 * What an FFRPG party does between fights, by the Playguide:
 *
 * - `rest`: "Players also may be given the opportunity to treat Status Conditions and other
 *   injuries during the Status Phase, depending on the GM's personal preferences." HP and MP
 *   back to full, the knocked out back on their feet, negative Status Conditions ended; an inn's
 *   price in Gil, if the GM sets one, paid by each character who rests.
 * - `award`: XP "increased by certain actions and achievements within the game", and Gil, given
 *   by the GM to each character named; Levels follow the campaign's level table.
 */
const characters = z.array(z.string().min(1)).min(1).optional();

export const serviceSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('rest'),
    /** Who rests; absent: every character on the roster. */
    characters,
    /** What resting costs each character, in Gil (an inn). */
    gil: z.number().int().min(0).max(999_999_999).default(0),
  }),
  z.strictObject({
    type: z.literal('award'),
    characters,
    /** XP each character named gains. */
    xp: z.number().int().min(0).max(99_999_999).default(0),
    /** Gil each character named receives. */
    gil: z.number().int().min(0).max(999_999_999).default(0),
  }),
]);
export type FfrpgService = z.infer<typeof serviceSchema>;
/** A service as a table writes it, defaults left out. */
export type FfrpgServiceInput = z.input<typeof serviceSchema>;

export function applyService(
  library: ContentLibrary,
  rosterInput: CampaignRoster,
  input: CampaignService,
): Result<CampaignStep> {
  const parsed = serviceSchema.safeParse(input);
  if (!parsed.success)
    return err('campaign/invalid-service', `not an FFRPG service: ${describeIssue(parsed.error)}`);
  const read = readRoster(rosterInput);
  if (!read.ok) return read;
  const roster = read.value;
  const service = parsed.data;
  const named = service.characters ?? Object.keys(roster.characters);
  for (const id of named)
    if (roster.characters[id] === undefined)
      return err('campaign/not-on-roster', `'${id}' is not on the roster`);
  if (named.length === 0) return err('campaign/not-on-roster', 'the roster has nobody');
  return service.type === 'rest'
    ? rest(library, roster, named, service.gil)
    : award(library, roster, named, service.xp, service.gil);
}

function sheetOf(library: ContentLibrary, id: string) {
  return library.get(characterKind, id);
}

function rest(
  library: ContentLibrary,
  roster: FfrpgRoster,
  named: readonly string[],
  price: number,
): Result<CampaignStep> {
  const characters: Record<string, CharacterState> = { ...roster.characters };
  const report: string[] = [];
  let anyNeed = false;
  for (const id of named) {
    const c = roster.characters[id]!;
    const sheet = sheetOf(library, id);
    if (sheet === undefined)
      return err('campaign/unknown-character', `there is no ffrpg/character '${id}'`);
    if (c.gil < price)
      return err(
        'campaign/not-enough-gil',
        `resting costs ${price} Gil; ${sheet.name} has ${c.gil}: nobody rests`,
      );
    const negative = c.statuses.filter((s) => library.get(statusKind, s)?.polarity !== 'positive');
    const need = c.hp < sheet.stats.hp || c.mp < sheet.stats.mp || negative.length > 0;
    anyNeed ||= need;
    characters[id] = {
      ...c,
      gil: c.gil - price,
      hp: sheet.stats.hp,
      mp: sheet.stats.mp,
      statuses: c.statuses.filter((s) => !negative.includes(s)),
    };
    const cured = negative.map((s) => library.get(statusKind, s)?.name ?? s);
    report.push(
      `${sheet.name} rests${c.hp === 0 ? ' and is back on their feet' : ''}: ${sheet.stats.hp} HP, ${sheet.stats.mp} MP${cured.length > 0 ? `; ${cured.join(', ')} treated` : ''}${price > 0 ? ` (${price} Gil)` : ''}.`,
    );
  }
  if (!anyNeed)
    return err('campaign/nothing-to-do', 'everyone named is at full HP and MP and unhurt');
  return ok({ roster: toCampaignRoster({ characters, party: roster.party }), report });
}

function award(
  library: ContentLibrary,
  roster: FfrpgRoster,
  named: readonly string[],
  xp: number,
  gil: number,
): Result<CampaignStep> {
  if (xp === 0 && gil === 0) return err('campaign/nothing-to-do', 'an award of no XP and no Gil');
  let table: LevelTable | undefined;
  if (roster.party.levelTable !== null) {
    table = library.get<{ levels: LevelTable }>(levelTableKind, roster.party.levelTable)?.levels;
    if (table === undefined)
      return err(
        'campaign/unknown-level-table',
        `the party's level table '${roster.party.levelTable}' is not in the content`,
      );
  }
  const characters: Record<string, CharacterState> = { ...roster.characters };
  const report: string[] = [];
  for (const id of named) {
    const c = roster.characters[id]!;
    const name = sheetOf(library, id)?.name ?? id;
    const total = Math.min(99_999_999, c.xp + xp);
    const level = levelFor(table, total, c.level);
    characters[id] = { ...c, xp: total, level, gil: Math.min(999_999_999, c.gil + gil) };
    const levels = level > c.level ? ` and reaches Level ${level}` : '';
    report.push(`${name} gains ${xp} XP (${total} in all)${levels} and ${gil} Gil.`);
  }
  return ok({ roster: toCampaignRoster({ characters, party: roster.party }), report });
}
