import { gainHp, knockOut, loseHp, tenPercent } from './combat.js';
import type { SpGain } from './events.js';
import type { Resolution } from './resolution.js';
import {
  type CombatantState,
  currentActor,
  effectiveSpeed,
  hasStatus,
  isFighting,
  isStanding,
  type QueueEntry,
  type ZodiacState,
} from './state.js';
import { clearedByBattleEnd } from './statuses.js';

/** "Taking an action requires a character to spend 8 Speed Points." */
export const ACTION_COST = 8;

/**
 * Steps (turns passed over, ticks, rounds) one command may run through before someone must act.
 * Only a battle where nobody can ever act again comes near it; it then ends as a draw.
 */
const MAX_STEPS = 100_000;

/**
 * Who takes a turn this tick: standing combatants with 8 SP or more, not Stopped ("you can take no
 * actions"). The asleep, the stunned and statues are in it: their turns pass and cost SP.
 */
export function hasTurn(c: CombatantState): boolean {
  return isStanding(c) && c.sp >= ACTION_COST && !hasStatus(c, 'stop');
}

/** Why a turn passes without an action and costs its 8 SP, if it does. */
export function lostTurn(state: ZodiacState, c: CombatantState, stun = true): string | undefined {
  if (stun && hasStatus(c, 'stun')) return 'stunned';
  if (hasStatus(c, 'stone')) return 'a statue';
  if (hasStatus(c, 'sleep')) return 'asleep';
  if (c.defending && state.setup.options.defendLasts === 'rest-of-round') return 'defending';
  if (state.skips.includes(c.id)) return 'skipped by the GM';
  return undefined;
}

/**
 * "During a single tick, combatants take their turns in order of the number of Speed Points
 * remaining. If two combatants have the same amount of SP, the one with the highest Speed stat goes
 * first. If the two have the same Speed, their actions are considered simultaneous."
 */
export function buildQueue(state: ZodiacState): QueueEntry[] {
  const ready: { id: string; sp: number; speed: number; index: number }[] = [];
  state.order.forEach((id, index) => {
    const c = state.combatants[id]!;
    if (hasTurn(c)) ready.push({ id, sp: c.sp, speed: effectiveSpeed(c), index });
  });
  ready.sort((a, b) => b.sp - a.sp || b.speed - a.speed || a.index - b.index);
  const queue: QueueEntry[] = [];
  let group = -1;
  ready.forEach((entry, i) => {
    const before = ready[i - 1];
    if (before === undefined || before.sp !== entry.sp || before.speed !== entry.speed) group++;
    queue.push({ id: entry.id, sp: entry.sp, group });
  });
  return queue;
}

/** Round 1: "each combatant receives an additional 1d8 Speed Points". */
export function beginRound(r: Resolution): void {
  const state = r.state;
  const round = state.round + 1;
  const gains: SpGain[] = [];
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (!isStanding(c)) continue;
    const speed = effectiveSpeed(c);
    const roll = round === 1 ? r.dice.roll(`sp:${id}`, '1d8') : null;
    gains.push({ id, speed, roll, spAfter: c.sp + speed + (roll?.total ?? 0) });
  }
  r.emit({ type: 'round-began', round, gains });
  // Every round has at least its first tick, so timed effects run out even when nobody can act.
  r.emit({ type: 'tick-began', tick: 1, queue: buildQueue(r.state) });
}

/**
 * Sides still fighting. One left: it wins; none: a draw. "All 'Temporary' effects vanish when
 * the battle is over."
 */
export function battleOver(r: Resolution): boolean {
  const state = r.state;
  if (state.phase === 'ended') return true;
  const fighting: string[] = [];
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (isFighting(c) && !fighting.includes(c.side)) fighting.push(c.side);
  }
  if (fighting.length > 1) return false;
  endBattle(
    r,
    fighting[0] ?? null,
    fighting.length === 1 ? 'every opponent is down' : 'nobody is left standing',
  );
  return true;
}

export function endBattle(r: Resolution, winner: string | null, reason: string): void {
  for (const id of r.state.order) {
    const c = r.state.combatants[id]!;
    for (const s of c.statuses)
      if (clearedByBattleEnd(s.status))
        r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'battle-over' });
    if (c.defending) r.emit({ type: 'defend-ended', actor: id });
  }
  r.emit({ type: 'battle-ended', winner, reason });
}

/**
 * Venom "drains 20% of your HP and 10% of your MP at the end of your turn each round": at the end
 * of each of the victim's turns, or with `venomTiming: once-per-round` its first (rulings).
 */
function venom(r: Resolution, id: string): void {
  const c = r.combatant(id);
  if (!isStanding(c) || !hasStatus(c, 'venom')) return;
  if (r.state.setup.options.venomTiming === 'once-per-round' && r.state.venomed.includes(id))
    return;
  const hpLoss = hasStatus(c, 'stone') ? 0 : Math.floor(c.maxHp / 5);
  const mpLoss = hasStatus(c, 'stone') ? 0 : Math.min(c.mp, tenPercent(c.sheet.stats.mp));
  // Poison and Venom "deal their normal damage" to a defender: no Defend, no Barrier.
  loseHp(r, null, id, hpLoss, null, r.explain ? `20% of ${c.maxHp}` : '', 'Venom');
  if (mpLoss > 0 && isStanding(r.combatant(id)))
    r.emit({
      type: 'mp-changed',
      target: id,
      amount: -mpLoss,
      mpAfter: c.mp - mpLoss,
      cause: 'Venom',
    });
}

/** Ends the current combatant's turn, spending its 8 SP, and runs on to the next decision. */
export function endTurn(r: Resolution, id: string): void {
  const c = r.combatant(id);
  r.emit({ type: 'turn-ended', actor: id, spAfter: Math.max(0, c.sp - ACTION_COST) });
  venom(r, id);
  advance(r);
}

/**
 * "After everyone has taken their turn, one tick has passed. At this time, status effects like
 * Poison and Regen take effect, and any special effects with timed durations count down by one."
 */
function endTick(r: Resolution): void {
  for (const id of r.state.order) {
    const c = r.state.combatants[id]!;
    if (!isStanding(c)) continue;
    if (hasStatus(c, 'poison')) {
      const amount = hasStatus(c, 'stone') ? 0 : tenPercent(c.maxHp);
      loseHp(r, null, id, amount, null, r.explain ? `10% of ${c.maxHp}` : '', 'Poison');
    }
    const now = r.state.combatants[id]!;
    if (isStanding(now) && hasStatus(now, 'regen'))
      gainHp(r, null, id, tenPercent(now.maxHp), null, 'Regen');
  }
  r.emit({ type: 'tick-ended', round: r.state.round, tick: r.state.tick });
  for (const id of r.state.order) {
    for (const s of r.state.combatants[id]!.statuses)
      if (s.ticks === 0)
        r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'expired' });
  }
}

/**
 * The end of a round: Death Sentence falls ("If you fail, your HP will immediately drop to zero"),
 * and a Defend meant for the rest of the round ends.
 */
function endRound(r: Resolution): void {
  const round = r.state.round;
  for (const id of r.state.order) {
    const c = r.state.combatants[id]!;
    if (!isStanding(c)) continue;
    const sentence = c.statuses.find((s) => s.status === 'death-sentence');
    // Stone: "nothing can harm you"; the sentence waits until the statue is flesh again.
    const petrified = c.statuses.some((s) => s.status === 'stone');
    if (
      sentence !== undefined &&
      !petrified &&
      sentence.untilRound !== null &&
      sentence.untilRound <= round
    ) {
      r.emit({ type: 'status-ended', target: id, status: 'death-sentence', reason: 'expired' });
      r.emit({
        type: 'damage-dealt',
        source: null,
        target: id,
        roll: null,
        amount: c.hp,
        absorbed: false,
        hpAfter: 0,
        breakdown: r.explain ? 'HP drops to zero' : '',
        cause: 'Death Sentence',
      });
      knockOut(r, id);
    }
    if (r.state.combatants[id]!.defending && r.state.setup.options.defendLasts === 'rest-of-round')
      r.emit({ type: 'defend-ended', actor: id });
  }
  r.emit({ type: 'round-ended', round });
}

/**
 * The turn at `cursor` passes without an action: skipped without SP spent when the combatant has
 * no turn (knocked out, Stopped, under 8 SP), or lost with its 8 SP (asleep, stunned, a statue,
 * defending, skipped by the GM).
 */
export function passTurn(r: Resolution, cursor: number, id: string, stun = true): void {
  const c = r.combatant(id);
  if (!hasTurn(c)) {
    const reason =
      c.gone !== null
        ? c.gone === 'fled'
          ? 'fled'
          : 'dismissed'
        : !isStanding(c)
          ? c.dead
            ? 'dead'
            : 'unconscious'
          : hasStatus(c, 'stop')
            ? 'stopped'
            : 'fewer than 8 SP left';
    r.emit({ type: 'turn-skipped', cursor, actor: id, reason });
    return;
  }
  const lost = lostTurn(r.state, c, stun) ?? 'unable to act';
  // Stun: "During your next turn ONLY, you lose 8 Speed Points and can take no action."
  r.emit({ type: 'turn-lost', cursor, actor: id, reason: lost, spAfter: c.sp - ACTION_COST });
  if (lost === 'stunned')
    r.emit({ type: 'status-ended', target: id, status: 'stun', reason: 'expired' });
  venom(r, id);
}

/**
 * After the GM's hand: the combatant whose turn it is, if it can no longer act, passes its turn
 * as it would have had its state been so when the turn came, and the battle runs on. One knocked
 * out inside its simultaneous group still acts ("both actions will take effect"), unless dead or
 * gone.
 */
export function settleAfterGm(r: Resolution): void {
  if (r.state.phase !== 'ticks' || battleOver(r)) return;
  const actor = currentActor(r.state);
  if (actor === undefined) return;
  const committed = r.state.committed.includes(actor.id);
  const out = actor.dead || actor.gone !== null || (actor.unconscious && !committed);
  // Stunned in its own turn, it loses its next one: "During your next turn ONLY".
  const acts =
    actor.unconscious || (hasTurn(actor) && lostTurn(r.state, actor, false) === undefined);
  if (!out && acts) return;
  passTurn(r, r.state.cursor, actor.id, false);
  advance(r);
}

/**
 * Runs the battle forward to the next decision: the next turn in the tick (passing over those who
 * have none or lose theirs), then the tick's end, the next tick "if anyone has enough Speed Points
 * remaining", or the next round. The battle is checked between simultaneous groups, never inside
 * one: "both actions will take effect".
 */
export function advance(r: Resolution): void {
  // The combatants as a round ended: a round that changes nothing (no SP gained, no timer left to
  // run out, as at Speed 0 all round) would repeat for ever, so the battle ends there.
  let lastRound: string | undefined;
  for (let step = 0; step < MAX_STEPS; step++) {
    const state = r.state;
    if (state.phase !== 'ticks') return;
    const next = state.cursor + 1;
    const entry = state.queue[next];
    const boundary = entry === undefined || state.queue[state.cursor]?.group !== entry.group;
    if (boundary && battleOver(r)) return;
    if (entry !== undefined) {
      if (boundary) {
        const committed: string[] = [];
        for (const e of state.queue)
          if (e.group === entry.group) {
            const c = state.combatants[e.id]!;
            if (hasTurn(c) && lostTurn(state, c) === undefined) committed.push(e.id);
          }
        r.emit({ type: 'group-began', cursor: next, committed });
      }
      const c = r.state.combatants[entry.id]!;
      if (r.state.committed.includes(entry.id)) {
        r.emit({ type: 'turn-began', cursor: next, actor: entry.id });
        if (c.defending) r.emit({ type: 'defend-ended', actor: entry.id });
        return;
      }
      passTurn(r, next, entry.id);
      continue;
    }
    endTick(r);
    if (battleOver(r)) return;
    const queue = buildQueue(r.state);
    if (queue.length > 0) {
      r.emit({ type: 'tick-began', tick: r.state.tick + 1, queue });
      continue;
    }
    endRound(r);
    if (battleOver(r)) return;
    const now = JSON.stringify(r.state.combatants);
    if (now === lastRound) break;
    lastRound = now;
    beginRound(r);
  }
  endBattle(r, null, 'nobody can act any more');
}
