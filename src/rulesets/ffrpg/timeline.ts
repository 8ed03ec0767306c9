import { applyAbilityEffects } from './actions.js';
import { applyPercent } from './damage.js';
import type { InitiativeRoll } from './events.js';
import { knockOut } from './knock-out.js';
import { hasEffect, NO_TRIGGERS, passives, type Resolution } from './resolution.js';
import {
  type CombatantState,
  type FfrpgState,
  isActive,
  type RewardShare,
  type TimelineEntry,
} from './state.js';

/**
 * The Initiative Phase: every combatant still in the fight rolls d10 and adds SPD; the
 * countdown runs from the highest Initiative down. Fixed-Initiative events join it on their
 * count. Ties: docs/rulings.md.
 */
export function beginRound(r: Resolution): void {
  const state = r.state;
  const round = state.round + 1;
  const rolls: InitiativeRoll[] = [];
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (!isActive(c)) continue;
    rolls.push(rollInitiative(r, c));
  }
  r.emit({
    type: 'round-began',
    round,
    initiative: rolls,
    timeline: buildTimeline(state, round, rolls),
  });
  advance(r);
}

/** d10 + SPD, with Haste's and Slow's percentages: one combatant's Initiative for the round. */
export function rollInitiative(r: Resolution, c: CombatantState): InitiativeRoll {
  const roll = r.dice.roll(`initiative:${c.id}`, '1d10+SPD', { SPD: c.sheet.attributes.SPD });
  const percent = passives(r.state, c).reduce(
    (sum, p) => (p.effect.kind === 'initiative-percent' ? sum + p.effect.percent : sum),
    0,
  );
  return {
    id: c.id,
    roll,
    initiative: percent === 0 ? roll.total : applyPercent(roll.total, percent),
  };
}

/**
 * Each combatant's place when Initiatives tie: by the setup's tie rule (SPD, then the players'
 * side, or the reverse), then listing order. It depends only on the setup, so it is worked out
 * once per setup, not every round.
 */
const TIE_RANKS = new WeakMap<object, ReadonlyMap<string, number>>();

// Keyed by the order of combatants, which changes only when the GM adds one.
function tieRanks(state: FfrpgState): ReadonlyMap<string, number> {
  let ranks = TIE_RANKS.get(state.order);
  if (ranks === undefined) {
    const { options, sides } = state.setup;
    const party = new Set(sides.filter((s) => s.party).map((s) => s.id));
    const keys = state.order.map((id, listed) => {
      const c = state.combatants[id]!;
      const speed = -c.sheet.attributes.SPD;
      const side = party.has(c.side) ? 0 : 1;
      return {
        id,
        key:
          options.initiativeTies === 'speed-then-party'
            ? [speed, side, listed]
            : [side, speed, listed],
      };
    });
    keys.sort((a, b) => a.key[0]! - b.key[0]! || a.key[1]! - b.key[1]! || a.key[2]! - b.key[2]!);
    ranks = new Map(keys.map((k, i) => [k.id, i]));
    TIE_RANKS.set(state.order, ranks);
  }
  return ranks;
}

function buildTimeline(
  state: FfrpgState,
  round: number,
  rolls: readonly InitiativeRoll[],
): TimelineEntry[] {
  const tieRank = tieRanks(state);
  const combatants = [...rolls]
    .sort((a, b) => b.initiative - a.initiative || tieRank.get(a.id)! - tieRank.get(b.id)!)
    .map((roll): TimelineEntry => ({ kind: 'combatant', id: roll.id, count: roll.initiative }));
  const events = state.setup.events
    .filter((e) => (e.round ?? 1) === round)
    .map((e): TimelineEntry => ({ kind: 'event', id: e.id, count: e.initiative }));
  const timeline = [...combatants];
  for (const event of events) {
    // After entries above its count and events already on it (listing order), before
    // combatants on it unless the option puts the world after them.
    const at = timeline.findIndex(
      (entry) =>
        entry.count < event.count ||
        (state.setup.options.eventsBeforeTies &&
          entry.count === event.count &&
          entry.kind === 'combatant'),
    );
    timeline.splice(at === -1 ? timeline.length : at, 0, event);
  }
  return timeline;
}

/**
 * Runs the countdown forward from the current entry: events and Charge Times resolve on their
 * own, combatants who cannot act are skipped, and it stops at the next combatant who can act,
 * or ends the round.
 */
export function advance(r: Resolution): void {
  for (;;) {
    if (battleOver(r)) return;
    const cursor = r.state.cursor + 1;
    const entry = r.state.timeline[cursor];
    if (entry === undefined) {
      endRound(r);
      return;
    }
    if (entry.kind === 'event') {
      const event = r.state.setup.events.find((e) => e.id === entry.id);
      r.emit({ type: 'fixed-event', cursor, event: entry.id, name: event?.name ?? entry.id });
      continue;
    }
    if (entry.kind === 'charge') {
      resolveCharge(r, entry.id, cursor);
      continue;
    }
    const c = r.combatant(entry.id);
    if (!isActive(c)) {
      r.emit({
        type: 'turn-skipped',
        cursor,
        actor: c.id,
        reason: c.fled ? 'fled' : 'knocked out',
      });
      continue;
    }
    const stopped = hasEffect(r.state, c, 'cannot-act');
    if (stopped !== undefined) {
      r.emit({ type: 'turn-skipped', cursor, actor: c.id, reason: stopped });
      continue;
    }
    r.emit({ type: 'turn-began', cursor, actor: c.id });
    return;
  }
}

function resolveCharge(r: Resolution, id: string, cursor: number): void {
  const charging = r.state.charging.find((c) => c.id === id);
  if (charging === undefined) {
    r.emit({ type: 'charge-fizzled', id, cursor, reason: 'no longer charging' });
    return;
  }
  const actor = r.combatant(charging.actor);
  const stopped = isActive(actor)
    ? hasEffect(r.state, actor, 'cannot-act')
    : actor.fled
      ? 'fled'
      : 'knocked out';
  if (stopped !== undefined) {
    r.emit({
      type: 'charge-fizzled',
      id,
      cursor,
      reason: `${actor.sheet.name} is ${stopped.toLowerCase()}`,
    });
    return;
  }
  r.emit({ type: 'charge-resolved', id, cursor });
  applyAbilityEffects(r, actor.id, charging.ability, charging.targets, NO_TRIGGERS);
}

/**
 * The Status Phase: Poison and Regen act, Timers count down one Round, and Status Conditions
 * whose Timer runs out end.
 */
export function endRound(r: Resolution): void {
  const round = r.state.round;
  for (const id of r.state.order) {
    const c = r.combatant(id);
    if (!isActive(c)) continue;
    for (const { source, effect } of passives(r.state, c)) {
      const current = r.combatant(id);
      if (!isActive(current)) break;
      if (effect.kind === 'status-phase-damage') {
        // Damage from a share of HP is capped like any other ("would still only remove 999 HP").
        const share = Math.floor((current.sheet.stats.hp * effect.percentOfMaxHp) / 100);
        const amount = Math.min(Math.max(1, share), r.state.setup.options.damageCap);
        const hpAfter = Math.max(0, current.hp - amount);
        r.emit({
          type: 'damage-dealt',
          source,
          target: id,
          roll: null,
          amount,
          absorbed: false,
          hpAfter,
          breakdown: `${source}: ${effect.percentOfMaxHp}% of ${current.sheet.stats.hp} max HP = ${amount}`,
        });
        if (hpAfter === 0) knockOut(r, id);
      } else if (effect.kind === 'status-phase-heal') {
        const amount = Math.max(
          1,
          Math.floor((current.sheet.stats.hp * effect.percentOfMaxHp) / 100),
        );
        const hpAfter = Math.min(current.sheet.stats.hp, current.hp + amount);
        r.emit({
          type: 'healed',
          source,
          target: id,
          roll: null,
          amount: hpAfter - current.hp,
          hpAfter,
        });
      }
    }
  }
  r.emit({ type: 'status-timers-counted', round });
  for (const id of r.state.order) {
    for (const s of r.combatant(id).statuses) {
      if (s.timer === 0)
        r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'expired' });
    }
  }
  r.emit({ type: 'round-ended', round });
  battleOver(r);
}

function standing(state: FfrpgState, c: CombatantState): boolean {
  return isActive(c) && hasEffect(state, c, 'incapacitated') === undefined;
}

/**
 * "When all combatants on one side have been reduced to 0 or fewer Hit Points, otherwise
 * incapacitated or forced to flee, the battle is considered over." Ends it (once) and hands
 * out the rewards; true when the battle is over.
 */
export function battleOver(r: Resolution): boolean {
  const state = r.state;
  if (state.phase === 'ended') return true;
  if (state.setup.mode === 'scene') return false;
  // Asked after every step of the countdown: count without building arrays. Combatants are
  // read from the state, not the setup, so a newcomer the GM added counts with its side.
  let standingSides = 0;
  let winner: (typeof state.setup.sides)[number] | undefined;
  for (const side of state.setup.sides) {
    for (const id of state.order) {
      const c = state.combatants[id]!;
      if (c.side === side.id && standing(state, c)) {
        standingSides++;
        winner = side;
        break;
      }
    }
    if (standingSides > 1) return false;
  }
  const beaten = state.setup.sides.filter((s) => s !== winner).map((s) => s.name);
  r.emit({
    type: 'battle-ended',
    winner: winner?.id ?? null,
    reason:
      winner === undefined
        ? 'no side is left standing'
        : `${winner.name} stand; ${beaten.join(' and ')} cannot fight on`,
  });
  if (winner?.party) awardRewards(r, winner.id);
  return true;
}

/**
 * XP and Gil from the beaten sides' combatants who did not flee (XP is what characters gain "by
 * overcoming obstacles": one that ran off was not overcome, docs/rulings.md), split evenly among the winners' characters who are still
 * standing ("that comes out to 1560 XP and 820 Gil. You each get 520 XP"); what does not divide
 * evenly is reported, not lost. Levels follow the level table.
 */
function awardRewards(r: Resolution, side: string): void {
  const state = r.state;
  const { options, levelTable } = state.setup;
  let xp = 0;
  let gil = 0;
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (c.side === side || c.fled) continue;
    xp += c.sheet.rewards.xp;
    gil += c.sheet.rewards.gil;
  }
  const sharers = state.order
    .map((id) => state.combatants[id]!)
    .filter(
      (c) =>
        c.side === side &&
        c.sheet.kind === 'character' &&
        !c.fled &&
        (!c.down || options.xpToKnockedOut),
    );
  const n = Math.max(1, sharers.length);
  const xpEach = sharers.length === 0 ? 0 : Math.floor(xp / n);
  const gilEach = sharers.length === 0 ? 0 : Math.floor(gil / n);
  const shares: RewardShare[] = sharers.map((c) => {
    const total = c.xp + xpEach;
    let level = c.level;
    if (levelTable !== undefined) {
      for (const row of levelTable) if (row.xp <= total && row.level > level) level = row.level;
    }
    return { id: c.id, xp: xpEach, gil: gilEach, levelBefore: c.level, levelAfter: level };
  });
  r.emit({
    type: 'rewards-awarded',
    rewards: {
      xp,
      gil,
      shares,
      unsplitXp: xp - xpEach * sharers.length,
      unsplitGil: gil - gilEach * sharers.length,
    },
  });
}
