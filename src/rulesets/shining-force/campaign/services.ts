import { z } from 'zod';
import type { ContentLibrary } from '../../../content/index.js';
import { err, ok, type Result } from '../../../engine/index.js';
import type { CampaignRoster, CampaignStep } from '../../campaign.js';
import type { Catalogue, Roster } from './force.js';
import { curePoison, liftCurse, promote, raise } from './priest.js';
import {
  catalogueOf,
  forceOf,
  parseShiningForceRoster,
  rosterOf,
  toCampaignRoster,
} from './roster.js';
import { buy, repair, sell } from './store.js';

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/);

/**
 * "Priest and Store Services": the priest cures poison, releases a curse, promotes and raises;
 * the store buys, sells and repairs. Each names the Force member it is for.
 */
export const shiningForceServiceSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('cure-poison'), character: id }),
  z.strictObject({ type: z.literal('lift-curse'), character: id }),
  z.strictObject({ type: z.literal('promote'), character: id }),
  z.strictObject({ type: z.literal('raise'), character: id }),
  z.strictObject({ type: z.literal('buy'), character: id, item: id }),
  z.strictObject({ type: z.literal('sell'), character: id, item: id }),
  z.strictObject({ type: z.literal('repair'), character: id, item: id }),
]);
export type ShiningForceService = z.infer<typeof shiningForceServiceSchema>;

function perform(
  force: Roster,
  service: ShiningForceService,
  catalogue: Catalogue,
): Result<Roster> {
  switch (service.type) {
    case 'cure-poison':
      return curePoison(force, service.character);
    case 'lift-curse':
      return liftCurse(force, service.character, catalogue);
    case 'promote':
      return promote(force, service.character, catalogue);
    case 'raise':
      return raise(force, service.character);
    case 'buy':
      return buy(force, service.character, service.item, catalogue);
    case 'sell':
      return sell(force, service.character, service.item, catalogue);
    case 'repair':
      return repair(force, service.character, service.item, catalogue);
  }
}

function said(
  service: ShiningForceService,
  name: string,
  catalogue: Catalogue,
  cls: string,
): string {
  const item = 'item' in service ? (catalogue.items[service.item]?.name ?? service.item) : '';
  switch (service.type) {
    case 'cure-poison':
      return `The priest cures ${name} of poison`;
    case 'lift-curse':
      return `The priest releases ${name} from a curse`;
    case 'promote':
      return `The priest promotes ${name} to ${catalogue.classes[cls]?.name ?? cls}`;
    case 'raise':
      return `The priest raises ${name}`;
    case 'buy':
      return `${name} buys ${item}`;
    case 'sell':
      return `${name} sells ${item}`;
    case 'repair':
      return `The store repairs ${name}'s ${item}`;
  }
}

export function applyShiningForceService(
  library: ContentLibrary,
  rosterInput: CampaignRoster,
  service: ShiningForceService,
): Result<CampaignStep> {
  const roster = parseShiningForceRoster(rosterInput);
  if (!roster.ok) return roster;
  if (roster.value.characters[service.character] === undefined)
    return err('campaign/unknown-member', `no Force member '${service.character}' on the roster`);
  const force = forceOf(library, roster.value);
  if (!force.ok) return force;
  const catalogue = catalogueOf(library);
  const done = perform(force.value, service, catalogue);
  if (!done.ok) return done;
  const next = rosterOf(library, done.value, roster.value);
  if (!next.ok) return next;
  const member = done.value.members.find((m) => m.id === service.character)!;
  const spent = roster.value.party.gold - done.value.gold;
  const money = spent > 0 ? ` for ${spent} gold` : spent < 0 ? ` for ${-spent} gold` : '';
  return ok({
    roster: toCampaignRoster(next.value),
    report: [
      `${said(service, member.name, catalogue, member.class)}${money} (${done.value.gold} gold left)`,
    ],
  });
}
