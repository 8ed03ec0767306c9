import type { DiceRoller } from '../../engine/index.js';
import { sideVerb } from '../grammar.js';
import type { InitiativeRoll } from './events.js';
import type { FfviiiResolution } from './resolution.js';
import { type CarriedAction, type CombatantState, inFight } from './state.js';

/** "Normal combat actions ... take 4 shots": the longest action that never carries over. */
export const REGULAR_ACTION_SHOTS = 4;
export const INITIATIVE_DIE = '1d10';

/**
 * Initiative: "each player rolls a 10 sided dice and adds the resultant number to their Speed
 * stat. The initiative dice does not explode", less shot debt carried over ("he rolls ... a 13.
 * However, he's 6 shots in debt from the last round, and so he has to reduce his initiative to
 * 7"). The highest sets the round's number of shots.
 */
export function beginRound(out: FfviiiResolution, dice: DiceRoller): void {
  const initiative: InitiativeRoll[] = [];
  for (const id of out.state.order) {
    const c = out.get(id);
    if (!inFight(c)) continue;
    const roll = dice.roll(`initiative:${id}`, INITIATIVE_DIE);
    const speed = c.sheet.attributes.speed;
    const total = roll.total + speed + c.initiativeBonus - c.debt;
    initiative.push({
      id,
      roll,
      speed,
      bonus: c.initiativeBonus,
      debt: c.debt,
      initiative: total,
      debtLeft: Math.max(0, -total),
    });
  }
  const shots = initiative.reduce((most, r) => Math.max(most, r.initiative), 0);
  out.emit({ type: 'round-began', round: out.state.round + 1, initiative, shots });
}

/**
 * Pays an action's shots. "If the action is a regular 4 Shot combat action, or shorter, the
 * character can take the action normally, and ignore the lack of extra shots"; a longer one
 * without the shots for it starts now and carries the missing shots into the next round as
 * debt. Returns whether the action happens now (false: it was carried over).
 */
export function spend(
  out: FfviiiResolution,
  actor: CombatantState,
  cost: number,
  action: string,
  target: string | null,
  carry: CarriedAction | null,
): boolean {
  const carries = cost > REGULAR_ACTION_SHOTS && cost > actor.shot && carry !== null;
  out.emit({
    type: 'action-taken',
    actor: actor.id,
    action,
    target,
    cost,
    shot: Math.max(0, actor.shot - cost),
    debt: carries ? cost - actor.shot : 0,
    carrying: carries ? carry : null,
  });
  return !carries;
}

/**
 * After each command: while someone still acts on the called shot, wait for them ("Because the
 * characters are acting on the same shot, the actions take place simultaniously": one brought
 * to 0 HP still takes its action on that shot). When the shot is done, the fallen fall, the
 * battle may end, and the GM calls the next shot anyone acts on, or the round ends ("There is
 * no Shot 0").
 */
export function settle(out: FfviiiResolution): void {
  if (out.state.phase === 'ended') return;
  // A side with nobody left in the fight (all fled or sent off) is beaten at once; the fallen
  // only fall when the shot is over.
  if (sidesInFight(out).size <= 1) {
    endBattle(out);
    return;
  }
  if (out.state.phase === 'dodge') return;
  const called = out.state.shot;
  if (called > 0) {
    for (const id of out.state.order) {
      const c = out.get(id);
      if (inFight(c) && c.shot === called) return;
    }
  }
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c) && c.hp <= 0) out.emit({ type: 'fell', target: id });
  }
  if (sidesInFight(out).size <= 1) {
    endBattle(out);
    return;
  }
  if (out.state.phase !== 'shots') return;
  let next = 0;
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c) && c.shot > next && (called === 0 || c.shot < called)) next = c.shot;
  }
  if (next > 0) {
    out.emit({ type: 'shot-called', shot: next });
    return;
  }
  // Status timers count rounds: those on their last round end with it.
  for (const id of out.state.order)
    for (const [status, rounds] of Object.entries(out.get(id).statuses))
      if (rounds === 1) out.emit({ type: 'status-ended', target: id, status, reason: 'expired' });
  out.emit({ type: 'round-ended', round: out.state.round });
}

function sidesInFight(out: FfviiiResolution): Set<string> {
  const sides = new Set<string>();
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c)) sides.add(c.side);
  }
  return sides;
}

function endBattle(out: FfviiiResolution): void {
  const sides = sidesInFight(out);
  const winner = sides.size === 1 ? [...sides][0]! : null;
  const name = out.state.setup.sides.find((s) => s.id === winner)?.name;
  // "The Iron Giant stands alone", "Ehlric and his pet stand alone".
  const members = out.state.order.filter((id) => out.get(id).side === winner).length;
  out.emit({
    type: 'battle-ended',
    winner,
    reason:
      winner === null
        ? 'nobody is left standing'
        : `${name} ${sideVerb(members, 'stands', 'stand')} alone`,
  });
}
