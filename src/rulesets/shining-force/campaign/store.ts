import { err, ok, type Result } from '../../../engine/index.js';
import type { HeldItem } from '../model.js';
import {
  type Catalogue,
  type ForceMember,
  memberOf,
  pay,
  type Roster,
  withMember,
} from './force.js';

/** "Store: selling an item to the store (1/2 list price), repairing an item (1/4 list price)." */

function heldSlot(member: ForceMember, itemId: string, want: (h: HeldItem) => boolean): number {
  return member.items.findIndex((h) => h.item === itemId && want(h));
}

/** "selling an item to the store (1/2 list price)"; a cursed item worn cannot be taken off to sell. */
export function sell(
  roster: Roster,
  memberId: string,
  itemId: string,
  catalogue: Catalogue,
): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  const item = catalogue.items[itemId];
  const slot = heldSlot(member.value, itemId, (h) => !h.equipped || item?.curse === undefined);
  if (item === undefined || slot < 0)
    return err('campaign/no-such-item', `${member.value.name} has no '${itemId}' to sell`);
  const items = member.value.items.filter((_, i) => i !== slot);
  return ok(
    withMember(roster, { ...member.value, items }, roster.gold + Math.floor(item.price / 2)),
  );
}

/** "repairing an item (1/4 list price)": a cracked item made good. */
export function repair(
  roster: Roster,
  memberId: string,
  itemId: string,
  catalogue: Catalogue,
): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  const item = catalogue.items[itemId];
  const slot = heldSlot(member.value, itemId, (h) => h.cracked);
  if (item === undefined || slot < 0)
    return err('campaign/not-cracked', `${member.value.name} has no cracked '${itemId}'`);
  const gold = pay(roster, Math.floor(item.price / 4), `Repairing ${item.name}`);
  if (!gold.ok) return gold;
  const items = member.value.items.map((h, i) => (i === slot ? { ...h, cracked: false } : h));
  return ok(withMember(roster, { ...member.value, items }, gold.value));
}

/**
 * Buying at the list price, into the buyer's hands (not equipped). The text lists only what the
 * store pays and charges for repairs: a store that buys at half "list price" sells at the list
 * price. An item without a price (0) is not for sale.
 */
export function buy(
  roster: Roster,
  memberId: string,
  itemId: string,
  catalogue: Catalogue,
): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  const item = catalogue.items[itemId];
  if (item === undefined) return err('campaign/no-such-item', `the store has no '${itemId}'`);
  if (item.price === 0) return err('campaign/not-for-sale', `${item.name} is not for sale`);
  const unequipped = member.value.items.filter((h) => !h.equipped).length;
  if (unequipped >= 4 || member.value.items.length >= 6)
    return err(
      'campaign/hands-full',
      `${member.value.name} carries all they can ("a maximum of 6 items")`,
    );
  const gold = pay(roster, item.price, item.name);
  if (!gold.ok) return gold;
  const items = [...member.value.items, { item: itemId, cracked: false, equipped: false }];
  return ok(withMember(roster, { ...member.value, items }, gold.value));
}
