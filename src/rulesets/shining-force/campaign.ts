import type { DiceRoller } from '../../engine/index.js';
import { err, ok, type Result } from '../../engine/index.js';
import type { ClassDefinition, HeldItem, Item, Stats } from './model.js';
import type { ShiningForceState } from './state.js';

/**
 * Between battles: EXP and levels, promotion, the priest and the store, as pure functions over
 * a Force roster (plain data). Randomness (stat gains) only through the DiceRoller.
 */

/** "Upon reaching 100 experience points (exp), their points reset to 0 (though any excess do carry over)". */
export const EXP_PER_LEVEL = 100;
/** "In the first class tier, promotion becomes available at level 10 and the maximum level is level 20." */
export const FIRST_TIER_PROMOTION = 10;
export const FIRST_TIER_MAX_LEVEL = 20;
/** "In the second class tier, promotion becomes available at level 20." */
export const SECOND_TIER_PROMOTION = 20;
/** Not in the text: the Shining Force games stop at 99 (promoted) and so does this. */
export const DEFAULT_MAX_LEVEL = 99;

export const PRIEST_CURE_POISON = 20;
export const PRIEST_RAISE_PER_LEVEL = 50;

export interface ForceMember {
  readonly id: string;
  readonly name: string;
  readonly class: string;
  readonly level: number;
  readonly exp: number;
  /** The full values: HP and MP are restored after every battle. */
  readonly stats: Stats;
  readonly items: readonly HeldItem[];
  readonly poisoned: boolean;
  /** Defeated in battle: must be raised before the next one. */
  readonly defeated: boolean;
}

export interface Roster {
  readonly gold: number;
  readonly members: readonly ForceMember[];
}

export interface Catalogue {
  readonly classes: Readonly<Record<string, ClassDefinition>>;
  readonly items: Readonly<Record<string, Item>>;
}

export interface LevelUp {
  readonly level: number;
  readonly gains: Readonly<Record<'hp' | 'mp' | 'attack' | 'defence' | 'agility', number>>;
}

export function maxLevelOf(cls: ClassDefinition): number {
  return cls.maxLevel ?? (cls.tier === 1 ? FIRST_TIER_MAX_LEVEL : DEFAULT_MAX_LEVEL);
}

const GAIN_KEYS = ['hp', 'mp', 'attack', 'defence', 'agility'] as const;

/**
 * EXP earned: every 100 is a level, the excess carried; each level rolls the class's stat gains
 * ("possibly gaining statistic gains"). At the maximum level EXP stops at 99.
 */
export function gainExp(
  member: ForceMember,
  amount: number,
  catalogue: Catalogue,
  dice: DiceRoller,
): Result<{ readonly member: ForceMember; readonly levels: readonly LevelUp[] }> {
  const cls = catalogue.classes[member.class];
  if (cls === undefined)
    return err('campaign/unknown-class', `there is no class '${member.class}'`);
  if (!Number.isInteger(amount) || amount < 0)
    return err('campaign/bad-exp', `EXP gained is a whole number, 0 or more, not ${amount}`);
  const max = maxLevelOf(cls);
  let { level, exp } = member;
  const stats: Record<keyof Stats, number> = { ...member.stats };
  const levels: LevelUp[] = [];
  exp += amount;
  // Bounded: one pass per level, and levels stop at the maximum.
  while (exp >= EXP_PER_LEVEL && level < max) {
    exp -= EXP_PER_LEVEL;
    level++;
    const gains = { hp: 0, mp: 0, attack: 0, defence: 0, agility: 0 };
    for (const key of GAIN_KEYS) {
      const notation = cls.gains[key];
      const gained =
        notation === '0' ? 0 : Math.max(0, dice.roll(`gain-${key}:${member.id}`, notation).total);
      gains[key] = gained;
      stats[key] = Math.min(999, stats[key] + gained);
    }
    levels.push({ level, gains });
  }
  if (level >= max) exp = Math.min(exp, EXP_PER_LEVEL - 1);
  return ok({ member: { ...member, level, exp, stats }, levels });
}

/** Promotion is available from level 10 in the first tier and level 20 in the second. */
export function canPromote(member: ForceMember, catalogue: Catalogue): Result<ClassDefinition> {
  const cls = catalogue.classes[member.class];
  if (cls === undefined)
    return err('campaign/unknown-class', `there is no class '${member.class}'`);
  if (cls.promotesTo === undefined)
    return err('campaign/no-promotion', `${cls.name} has no class to promote to`);
  const next = catalogue.classes[cls.promotesTo];
  if (next === undefined)
    return err('campaign/unknown-class', `there is no class '${cls.promotesTo}'`);
  const from = cls.tier === 1 ? FIRST_TIER_PROMOTION : SECOND_TIER_PROMOTION;
  if (member.level < from)
    return err(
      'campaign/too-low',
      `${member.name} can be promoted from level ${from} (is level ${member.level})`,
    );
  return ok(next);
}

function withMember(roster: Roster, member: ForceMember, gold = roster.gold): Roster {
  return { gold, members: roster.members.map((m) => (m.id === member.id ? member : m)) };
}

function memberOf(roster: Roster, id: string): Result<ForceMember> {
  const m = roster.members.find((x) => x.id === id);
  return m === undefined ? err('campaign/unknown-member', `no Force member '${id}'`) : ok(m);
}

function pay(roster: Roster, cost: number, what: string): Result<number> {
  return roster.gold < cost
    ? err('campaign/not-enough-gold', `${what} costs ${cost} gold; the Force has ${roster.gold}`)
    : ok(roster.gold - cost);
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
 * After a battle: the gold won; each Force member's EXP, items as the battle left them, Poison
 * carried, and the defeated marked to be raised. HP and MP need no entry: a survivor starts the
 * next battle full ("all their hit points are restored").
 */
export function afterBattle(
  roster: Roster,
  state: ShiningForceState,
  catalogue: Catalogue,
  dice: DiceRoller,
): Result<{
  readonly roster: Roster;
  readonly levels: Readonly<Record<string, readonly LevelUp[]>>;
}> {
  let members = roster.members;
  const levels: Record<string, readonly LevelUp[]> = {};
  for (const id of state.ids) {
    const c = state.combatants[id]!;
    if (!c.force) continue;
    const member = members.find((m) => m.id === id);
    if (member === undefined) continue;
    const gained = gainExp(member, c.exp, catalogue, dice);
    if (!gained.ok) return gained;
    levels[id] = gained.value.levels;
    const next: ForceMember = {
      ...gained.value.member,
      items: c.items,
      poisoned: c.statuses.some((s) => s.status === 'poison'),
      defeated: c.defeated,
    };
    members = members.map((m) => (m.id === id ? next : m));
  }
  return ok({ roster: { gold: roster.gold + state.gold, members }, levels });
}
