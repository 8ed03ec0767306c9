import { err, ok, type Result } from '../../../engine/index.js';
import { type Catalogue, memberOf, pay, type Roster, withMember } from './force.js';
import { canPromote } from './levels.js';

/** "Priest: Curing poison (20 gold), releasing a curse (1/4 relevant item price), promotion (free), raising (50 gold per character level)" */
export const PRIEST_CURE_POISON = 20;
export const PRIEST_RAISE_PER_LEVEL = 50;

/** "Curing poison (20 gold)". */
export function curePoison(roster: Roster, memberId: string): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  if (!member.value.poisoned)
    return err('campaign/not-poisoned', `${member.value.name} is not poisoned`);
  const gold = pay(roster, PRIEST_CURE_POISON, 'Curing poison');
  return gold.ok ? ok(withMember(roster, { ...member.value, poisoned: false }, gold.value)) : gold;
}

/**
 * "releasing a curse (1/4 relevant item price)": the cursed item comes off (into the bag if
 * there is room; otherwise the priest keeps it).
 */
export function liftCurse(roster: Roster, memberId: string, catalogue: Catalogue): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  const slot = member.value.items.findIndex(
    (h) => h.equipped && catalogue.items[h.item]?.curse !== undefined,
  );
  if (slot < 0) return err('campaign/not-cursed', `${member.value.name} wears nothing cursed`);
  const held = member.value.items[slot]!;
  const item = catalogue.items[held.item]!;
  const gold = pay(roster, Math.floor(item.price / 4), `Releasing the curse of ${item.name}`);
  if (!gold.ok) return gold;
  const bag = member.value.items.filter((h) => !h.equipped).length;
  const items =
    bag < 4
      ? member.value.items.map((h, i) => (i === slot ? { ...h, equipped: false } : h))
      : member.value.items.filter((_, i) => i !== slot);
  return ok(withMember(roster, { ...member.value, items }, gold.value));
}

/** "raising (50 gold per character level)". */
export function raise(roster: Roster, memberId: string): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  if (!member.value.defeated)
    return err('campaign/not-defeated', `${member.value.name} needs no raising`);
  const gold = pay(
    roster,
    PRIEST_RAISE_PER_LEVEL * member.value.level,
    `Raising ${member.value.name}`,
  );
  return gold.ok ? ok(withMember(roster, { ...member.value, defeated: false }, gold.value)) : gold;
}

/**
 * The priest's promotion (free): the promoted class, back to level 1 with 0 EXP as in the
 * Shining Force games, stats kept.
 */
export function promote(roster: Roster, memberId: string, catalogue: Catalogue): Result<Roster> {
  const member = memberOf(roster, memberId);
  if (!member.ok) return member;
  const promotion = canPromote(member.value, catalogue);
  if (!promotion.ok) return promotion;
  const cls = catalogue.classes[member.value.class]!;
  return ok(withMember(roster, { ...member.value, class: cls.promotesTo!, level: 1, exp: 0 }));
}
