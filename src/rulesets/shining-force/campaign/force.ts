import { err, ok, type Result } from '../../../engine/index.js';
import type { ClassDefinition, HeldItem, Item, Stats } from '../model.js';

/**
 * The Force between battles as plain data: its members with their full stats, and its gold.
 * The priest's and the store's services and the level table work on it.
 */

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

export function withMember(roster: Roster, member: ForceMember, gold = roster.gold): Roster {
  return { gold, members: roster.members.map((m) => (m.id === member.id ? member : m)) };
}

export function memberOf(roster: Roster, id: string): Result<ForceMember> {
  const m = roster.members.find((x) => x.id === id);
  return m === undefined ? err('campaign/unknown-member', `no Force member '${id}'`) : ok(m);
}

export function pay(roster: Roster, cost: number, what: string): Result<number> {
  return roster.gold < cost
    ? err('campaign/not-enough-gold', `${what} costs ${cost} gold; the Force has ${roster.gold}`)
    : ok(roster.gold - cost);
}
