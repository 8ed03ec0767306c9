/**
 * The tactician's scoring, shared by the four systems: every option is reduced to what it is
 * expected to do (HP taken off an enemy, HP given back to an ally, a status landing) and what it
 * costs (a price in HP, time on the system's clock), and the option worth the most per unit of
 * time wins. Only the per-system files know what a command means.
 */

/** One combatant as the scoring sees it. */
export interface Fighter {
  readonly id: string;
  readonly side: string;
  readonly hp: number;
  readonly maxHp: number;
  readonly out: boolean;
}

/** HP the action changes on its target when it succeeds: the exact odds' min, mean and max. */
export interface Spread {
  readonly min: number;
  readonly mean: number;
  readonly max: number;
}

/** What one option is expected to do, in the terms the scoring weighs. */
export interface Estimate {
  readonly target?: string;
  /** Chance the action succeeds (0 to 1). */
  readonly chance: number;
  /** HP taken off an enemy on success. */
  readonly harm?: Spread;
  /** HP given back to an ally on success. */
  readonly heal?: Spread;
  /** Chance a status lands: a hindrance on an enemy, a help on an ally. */
  readonly status?: number;
  /** How many of the statuses that hinder an ally the action takes off it, on success. */
  readonly cures?: number;
  /** HP a fallen ally wakes with, on success (a Phoenix Down): it is back in the fight. */
  readonly revives?: number;
  /** What it spends, as HP the side would give up for it (MP, items, HP, stock). */
  readonly price: number;
  /** Time it takes on the clock, in the system's units (shots, Speed Points); 1 where all take one turn. */
  readonly time: number;
  /** A value in HP added as is: what only one system knows how to reckon (a draw, a position). */
  readonly extra?: number;
}

/**
 * Every estimate is made through this, so all have one shape, fields in one order: the scoring
 * reads thousands a battle, and reading objects of many shapes is several times slower.
 */
export function estimateOf(e: Estimate): Estimate {
  return {
    target: e.target,
    chance: e.chance,
    harm: e.harm,
    heal: e.heal,
    status: e.status,
    cures: e.cures,
    revives: e.revives,
    price: e.price,
    time: e.time,
    extra: e.extra,
  };
}

/** Who is fighting, and what each side can expect to lose to one blow. */
export interface Field {
  readonly actor: Fighter;
  /** A combatant as the state has it now; undefined for an id not in the fight's roster. */
  fighter(id: string): Fighter | undefined;
  /** Mean HP one blow from the other side takes off this combatant (its danger). */
  threatOn(id: string): number;
  /** Mean HP one blow of this combatant takes off the other side (what disabling it saves). */
  threatOf(id: string): number;
}

/**
 * Taking an enemy out of the fight is worth this share of its maximum HP on top of the HP
 * removed: it stops acting at once, so the last blow is worth more than the first.
 */
export const KNOCK_OUT_VALUE = 0.5;
/** An ally kept from falling to the next blow is worth this share of its maximum HP. */
export const RESCUE_VALUE = 0.75;
/** Damage toward an enemy already hurt counts up to this much more: finish what was started. */
export const FOCUS = 0.5;
/** A status landing on an enemy: this many of its blows prevented (Sleep, Stop, Poison's HP). */
export const STATUS_ENEMY_BLOWS = 1;
/** A status landing on an ally (Protect, Haste): this many enemy blows softened. */
export const STATUS_ALLY_BLOWS = 0.25;

/**
 * The damage on success as a distribution known only by its min, mean and max: two uniform
 * pieces meeting at the mean, weighted so the mean is right. Exact where min = max.
 */
function pieces(d: Spread): { q: number; lo: number; mid: number; hi: number } {
  const lo = d.min;
  const hi = Math.max(d.max, lo);
  const mid = Math.min(Math.max(d.mean, lo), hi);
  const q = hi > lo ? (hi - mid) / (hi - lo) : 1;
  return { q, lo, mid, hi };
}

/** Chance the amount is at least `h`. */
export function atLeast(d: Spread, h: number): number {
  const { q, lo, mid, hi } = pieces(d);
  if (h <= lo) return 1;
  if (h > hi) return 0;
  if (h <= mid) return mid > lo ? 1 - (q * (h - lo)) / (mid - lo) : 1 - q;
  return hi > mid ? ((1 - q) * (hi - h)) / (hi - mid) : 0;
}

/** The mean of the amount capped at `h`: HP actually removed (or healed) from what is there. */
export function cappedMean(d: Spread, h: number): number {
  if (h <= 0) return 0;
  const { q, lo, mid, hi } = pieces(d);
  if (h <= lo) return h;
  // E[min(D, h)] = the integral of P(D >= x) from 0 to h.
  let sum = lo;
  const upToMid = Math.min(h, mid);
  if (mid > lo) {
    const w = upToMid - lo;
    sum += w - (q * w * w) / (2 * (mid - lo));
  }
  if (h > mid && hi > mid) {
    const top = Math.min(h, hi);
    const a = hi - mid;
    const b = hi - top;
    sum += ((1 - q) * (a * a - b * b)) / (2 * a);
  }
  return sum;
}

/** HP-equivalent worth of an option before its price, on the field as it stands. */
export function worth(estimate: Estimate, field: Field): number {
  let value = estimate.extra ?? 0;
  const target = estimate.target === undefined ? undefined : field.fighter(estimate.target);
  if (target === undefined) return value;
  const enemy = target.side !== field.actor.side;
  // An ally brought back into the fight is worth what taking an enemy out is, on top of the HP
  // it wakes with: its blows come back with it.
  if (target.out) {
    if (!enemy && estimate.revives !== undefined && estimate.revives > 0)
      value += estimate.chance * (estimate.revives + KNOCK_OUT_VALUE * target.maxHp);
    return value;
  }
  const p = estimate.chance;
  let knockOut = 0;
  if (estimate.harm !== undefined && enemy) {
    const hurt = target.maxHp > 0 ? 1 - target.hp / target.maxHp : 0;
    knockOut = p * atLeast(estimate.harm, target.hp);
    value += p * cappedMean(estimate.harm, target.hp) * (1 + FOCUS * hurt);
    value += knockOut * KNOCK_OUT_VALUE * target.maxHp;
  }
  const missing = target.maxHp - target.hp;
  // Healing an ally at full HP restores nothing, whatever the danger it is in.
  if (estimate.heal !== undefined && !enemy && missing > 0) {
    const danger = field.threatOn(target.id);
    const healed = p * cappedMean(estimate.heal, missing);
    // Healing the unthreatened is mostly waste next to hurting the enemy; the more one blow
    // would take of what is left, the more the HP are worth.
    const urgency = target.hp <= danger ? 1 : target.hp <= 2 * danger ? 0.5 : 0.15;
    value += healed * urgency;
    if (target.hp <= danger) {
      const needed = danger - target.hp + 1;
      value += p * atLeast(estimate.heal, needed) * RESCUE_VALUE * target.maxHp;
    }
  }
  // A hindrance taken off an ally gives it back what one on an enemy takes away: one of its
  // blows, a status each.
  if (estimate.cures !== undefined && estimate.cures > 0 && !enemy)
    value += p * estimate.cures * STATUS_ENEMY_BLOWS * field.threatOf(target.id);
  if (estimate.status !== undefined && estimate.status > 0) {
    // A status on an enemy the same blow knocks out prevents nothing more.
    value += enemy
      ? estimate.status * (1 - knockOut) * STATUS_ENEMY_BLOWS * field.threatOf(target.id)
      : estimate.status * STATUS_ALLY_BLOWS * field.threatOn(target.id);
  }
  return value;
}

/**
 * How many of the statuses in `cures` the target has (`statuses`: its instances), for
 * Estimate.cures; undefined for none, so an action that cures nothing here counts as one that
 * cures nothing at all.
 */
export function curedOf(
  cures: readonly string[],
  statuses: readonly { readonly status: string }[],
): number | undefined {
  if (cures.length === 0 || statuses.length === 0) return undefined;
  let cured = 0;
  for (const s of statuses) if (cures.includes(s.status)) cured++;
  return cured === 0 ? undefined : cured;
}

/** Worth less price, per unit of time: what the tactician maximises. */
export function score(estimate: Estimate, field: Field): number {
  return (worth(estimate, field) - estimate.price) / Math.max(estimate.time, 1e-9);
}

/**
 * The price of spending part of a pool (MP, stock, items): the share of what is left, as a share
 * of half the spender's maximum HP, so the last MP costs more than the first.
 */
export function poolPrice(spent: number, left: number, spenderMaxHp: number): number {
  if (spent <= 0) return 0;
  return (Math.min(spent, Math.max(left, spent)) / Math.max(left, spent)) * 0.5 * spenderMaxHp;
}
