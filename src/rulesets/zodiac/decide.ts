import {
  combatantById,
  type DiceRoller,
  decideByResolving,
  err,
  ok,
  type Result,
} from '../../engine/index.js';
import { cure, gainHp, magicEffects, revive, weaponAttack } from './combat.js';
import { isZodiacGmCommand, type ZodiacCommand } from './commands.js';
import { levelFactor } from './evolve.js';
import { gmCommand } from './gm.js';
import type { Tech } from './model.js';
import { Resolution, type Resolved } from './resolution.js';
import {
  type CombatantState,
  currentActor,
  hasStatus,
  isBeyondRevival,
  isStanding,
  type ZodiacState,
} from './state.js';
import { advance, beginRound, endTurn } from './timeline.js';

/** Checks a command against the battle and resolves it into events; see Ruleset.decide. */
export const decide = decideByResolving(resolve);

export type { Resolved };

/** decide, with the state the events lead to (the Resolution has it already). */
export function resolve(
  state: ZodiacState,
  command: ZodiacCommand,
  dice: DiceRoller,
): Result<Resolved> {
  if (isZodiacGmCommand(command)) return gmCommand(state, command, dice);
  if (state.phase === 'ended') return err('battle/over', 'the battle is over');
  const r = new Resolution(state, dice);
  if (command.type === 'begin-battle') {
    if (state.phase !== 'start') return err('battle/begun', 'the battle has begun already');
    beginRound(r);
    advance(r);
    return ok(r.resolved());
  }
  if (state.phase === 'start')
    return err('battle/not-begun', 'begin the battle first: everyone rolls 1d8 Speed Points');
  const actor = combatantById(state.combatants, command.actor);
  if (actor === undefined)
    return err('action/unknown-combatant', `there is no combatant '${command.actor}'`);
  const current = currentActor(state);
  if (current?.id !== actor.id) {
    const whose =
      current === undefined ? 'nobody is waiting to act' : `it is ${current.sheet.name}'s turn`;
    return err('action/not-your-turn', `${actor.sheet.name} cannot act now: ${whose}`);
  }
  const berserk = hasStatus(actor, 'berserk');
  if (
    berserk &&
    command.type !== 'attack' &&
    !(command.type === 'defend' && !enemyStands(state, actor))
  )
    return err(
      'action/berserk',
      `${actor.sheet.name} is Berserk and "can do nothing on your turn but attack the nearest enemy"`,
    );
  switch (command.type) {
    case 'free-action':
      if (state.freeActionUsed)
        return err(
          'action/free-action-used',
          `${actor.sheet.name} has taken this turn's Free Action`,
        );
      r.emit({ type: 'free-action', actor: actor.id, action: command.action });
      return ok(r.resolved());
    case 'attack': {
      const target = standingTarget(state, command.target);
      if (!target.ok) return target;
      if (target.value.id === actor.id)
        return err('action/bad-target', `${actor.sheet.name} cannot attack itself`);
      if (target.value.side === actor.side && !underGmControl(actor))
        return err(
          'action/friendly-target',
          `${actor.sheet.name} will not attack an ally, ${target.value.sheet.name}, unless Charmed or Confused`,
        );
      weaponAttack(r, actor.id, target.value.id, undefined);
      break;
    }
    case 'tech': {
      const used = useTech(r, actor, command.tech, command.target);
      if (!used.ok) return used;
      break;
    }
    case 'item': {
      const used = useItem(r, actor, command.item, command.target);
      if (!used.ok) return used;
      break;
    }
    case 'defend':
      r.emit({ type: 'defended', actor: actor.id });
      break;
  }
  endTurn(r, actor.id);
  return ok(r.resolved());
}

/** Charm and Confusion put a combatant's actions in the GM's hands: any target will do. */
export function underGmControl(c: CombatantState): boolean {
  return hasStatus(c, 'charm') || hasStatus(c, 'confusion');
}

/**
 * Someone `c` would attack stands: an enemy, or under Charm one of its own side, or under
 * Confusion anyone else. A Berserk combatant with nobody to attack may only Defend.
 */
export function enemyStands(state: ZodiacState, c: CombatantState): boolean {
  const confused = hasStatus(c, 'confusion');
  const charmed = hasStatus(c, 'charm');
  for (const id of state.order) {
    const o = state.combatants[id]!;
    if (o.id === c.id || !isStanding(o)) continue;
    if (confused || (charmed ? o.side === c.side : o.side !== c.side)) return true;
  }
  return false;
}

function standingTarget(state: ZodiacState, id: string): Result<CombatantState> {
  const target = combatantById(state.combatants, id);
  if (target === undefined) return err('action/unknown-target', `there is no combatant '${id}'`);
  if (!isStanding(target))
    return err('action/target-down', `${target.sheet.name} ${downReason(target)}`);
  return ok(target);
}

/** Why a combatant cannot be acted on: dead, gone, or unconscious. */
function downReason(c: CombatantState): string {
  if (c.gone !== null) return `has left the fight (${c.gone})`;
  return c.dead ? 'is dead' : 'is unconscious';
}

/** A Tech's targets from this user: Single, Self, Allies, Enemies or All (rulings). */
export function techTargets(
  state: ZodiacState,
  user: CombatantState,
  tech: Tech,
  target: string | undefined,
): Result<string[]> {
  // Revive Techs reach the Unconscious; everything else, those still standing.
  const reaches = (c: CombatantState): boolean =>
    tech.revive !== undefined ? !isBeyondRevival(c) : isStanding(c);
  // Charm: "You fight on your enemy's side": its Allies are the other side, its Enemies its own.
  const charmed = hasStatus(user, 'charm');
  const out: string[] = [];
  switch (tech.target) {
    case 'self':
      return ok([user.id]);
    case 'single': {
      if (target === undefined) return err('action/bad-target', `${tech.name} needs a target`);
      const one = combatantById(state.combatants, target);
      if (one === undefined)
        return err('action/unknown-target', `there is no combatant '${target}'`);
      if (!reaches(one))
        return err(
          'action/target-down',
          `${one.sheet.name} ${isBeyondRevival(one) || tech.revive === undefined ? downReason(one) : 'is not unconscious'}`,
        );
      return ok([one.id]);
    }
    case 'allies':
    case 'enemies':
      for (const id of state.order) {
        const c = state.combatants[id]!;
        const ally = (c.side === user.side) !== charmed;
        if (reaches(c) && ally === (tech.target === 'allies') && !(charmed && c.id === user.id))
          out.push(id);
      }
      return ok(out);
    case 'all':
      for (const id of state.order) if (reaches(state.combatants[id]!)) out.push(id);
      return ok(out);
  }
}

function useTech(
  r: Resolution,
  actor: CombatantState,
  techId: string,
  target: string | undefined,
): Result<true> {
  const state = r.state;
  const tech = combatantById(state.setup.techs, techId);
  if (tech === undefined || !actor.sheet.techs.includes(techId)) {
    const known = actor.sheet.techs.join(', ') || 'none';
    return err(
      'action/unknown-tech',
      `${actor.sheet.name} has no Tech '${techId}' (has: ${known})`,
    );
  }
  if (hasStatus(actor, 'seal'))
    return err('action/sealed', `${actor.sheet.name} is Sealed: "You cannot use Techs"`);
  if (hasStatus(actor, 'frog'))
    return err('action/frog', `${actor.sheet.name} is a Frog: "You cannot use Techs"`);
  if (tech.mpCost > actor.mp)
    return err(
      'action/not-enough-mp',
      `${tech.name} costs ${tech.mpCost} MP; ${actor.sheet.name} has ${actor.mp}`,
    );
  if (tech.type === 'weapon' && tech.target !== 'single' && tech.target !== 'enemies')
    return err('action/bad-target', `${tech.name} is a Weapon Tech: it attacks`);
  const targets = techTargets(state, actor, tech, target);
  if (!targets.ok) return targets;
  r.emit({
    type: 'tech-used',
    actor: actor.id,
    tech: techId,
    targets: targets.value,
    mpAfter: actor.mp - tech.mpCost,
  });
  for (const id of targets.value) {
    if (tech.type === 'weapon') {
      if (isStanding(r.combatant(id))) weaponAttack(r, actor.id, id, tech);
      continue;
    }
    const to = wallTurns(r, actor, id, techId);
    if (to !== null) magicEffects(r, actor.id, to, tech);
  }
  return ok(true);
}

/**
 * Wall: "ALL magic that would otherwise effect you is instead reflected back at the caster", or
 * with the optional rule bounced "towards a random target on the opposite side of combat". A
 * spell turned once is not turned again (rulings).
 */
function wallTurns(
  r: Resolution,
  actor: CombatantState,
  targetId: string,
  techId: string,
): string | null {
  const target = r.combatant(targetId);
  if (!hasStatus(target, 'wall') || !isStanding(target)) return targetId;
  if (!r.state.setup.options.wallBounce) {
    r.emit({ type: 'reflected', from: targetId, to: actor.id, tech: techId, roll: null });
    return actor.id;
  }
  const opposite: string[] = [];
  for (const id of r.state.order) {
    const c = r.state.combatants[id]!;
    if (c.side !== actor.side && isStanding(c)) opposite.push(id);
  }
  if (opposite.length === 0) {
    r.emit({ type: 'reflected', from: targetId, to: null, tech: techId, roll: null });
    return null;
  }
  const roll = opposite.length > 1 ? r.dice.roll('bounce', `1d${opposite.length}`) : null;
  const to = opposite[(roll?.total ?? 1) - 1]!;
  r.emit({ type: 'reflected', from: targetId, to, tech: techId, roll });
  return to;
}

/** "Potions take one round to use, and may be used on any target. They take effect immediately." */
function useItem(
  r: Resolution,
  actor: CombatantState,
  itemId: string,
  targetId: string,
): Result<true> {
  const item = combatantById(r.state.setup.items, itemId);
  const count = combatantById(actor.items, itemId) ?? 0;
  if (item === undefined || count <= 0)
    return err(
      'action/no-item',
      `${actor.sheet.name} has no ${item?.name ?? `item '${itemId}'`} left`,
    );
  const target = combatantById(r.state.combatants, targetId);
  if (target === undefined)
    return err('action/unknown-target', `there is no combatant '${targetId}'`);
  if (target.gone !== null)
    return err('action/target-down', `${target.sheet.name} ${downReason(target)}`);
  r.emit({ type: 'item-used', actor: actor.id, item: itemId, target: targetId, left: count - 1 });
  if (item.revive !== undefined) revive(r, targetId, item.revive.hpPercent, item.name);
  if (item.restoreHp > 0)
    gainHp(r, actor.id, targetId, item.restoreHp * levelFactor(r.state.setup), null, item.name);
  if (item.restoreMp > 0) {
    const t = r.combatant(targetId);
    if (isStanding(t)) {
      const mpAfter = Math.min(t.sheet.stats.mp, t.mp + item.restoreMp);
      r.emit({
        type: 'mp-changed',
        target: targetId,
        amount: mpAfter - t.mp,
        mpAfter,
        cause: item.name,
      });
    }
  }
  if (item.cures.length > 0) cure(r, targetId, item.cures);
  return ok(true);
}
