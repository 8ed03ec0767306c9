import {
  type DiceRoller,
  decideByResolving,
  type Resolved as EngineResolved,
  err,
  ok,
  type Result,
} from '../../engine/index.js';
import { applyEffect, attack, cellName, effectTargets, wear } from './combat.js';
import type { ShiningForceCommand } from './commands.js';
import { ADJACENT, armament, BAG_SLOTS, canCastAny, derived } from './derived.js';
import type { ShiningForceEvent } from './events.js';
import { cellIndex } from './evolve.js';
import { inReach, movesOf, standingAt } from './field.js';
import { isShiningForceGm, resolveGm } from './gm.js';
import type { Effect } from './model.js';
import { Resolution } from './resolution.js';
import {
  areEnemies,
  type CombatantState,
  combatantOf,
  currentActor,
  type ShiningForceState,
} from './state.js';
import { beginRound, checkEnd, endTurn, nextTurn } from './turns.js';

export { BAG_SLOTS } from './derived.js';

/** Checks a command against the battle and resolves it into events; see Ruleset.decide. */
export const decide = decideByResolving(resolve);

export type Resolved = EngineResolved<ShiningForceState, ShiningForceEvent>;

export function resolve(
  state: ShiningForceState,
  command: ShiningForceCommand,
  dice: DiceRoller,
): Result<Resolved> {
  return resolveCommand(state, command, dice, true);
}

/**
 * resolve for a command the legal actions offer in this state (Ruleset.resolveOffered): a
 * simulation's policy only ever picks one of those, so the checks that catch a user's mistake
 * (whose turn it is, the target's reach, the MP) are skipped; the events are resolve's.
 */
export function resolveOffered(
  state: ShiningForceState,
  command: ShiningForceCommand,
  dice: DiceRoller,
): Result<Resolved> {
  return resolveCommand(state, command, dice, false);
}

function resolveCommand(
  state: ShiningForceState,
  command: ShiningForceCommand,
  dice: DiceRoller,
  check: boolean,
): Result<Resolved> {
  if (state.result !== null) return err('battle/over', 'the battle is over');
  const r = new Resolution(state, dice);
  if (command.type === 'begin-battle') {
    if (state.round !== 0) return err('battle/begun', 'the battle has begun already');
    // A side that comes to the field already beaten (every HP set to 0) loses at once.
    if (checkEnd(r)) return ok(r.resolved());
    beginRound(r);
    nextTurn(r);
    return ok(r.resolved());
  }
  if (isShiningForceGm(command)) {
    const done = resolveGm(r, command);
    return done.ok ? ok(r.resolved()) : done;
  }
  if (state.round === 0) return err('battle/not-begun', 'begin the battle first (begin-battle)');
  const actor = combatantOf(state, command.actor);
  if (actor === undefined)
    return err('action/unknown-combatant', `there is no combatant '${command.actor}'`);
  if (check) {
    const current = currentActor(state);
    if (current?.id !== actor.id) {
      const whose =
        current === undefined ? 'nobody is waiting to act' : `it is ${current.sheet.name}'s turn`;
      return err('action/not-your-turn', `${actor.sheet.name} cannot act now: ${whose}`);
    }
  }
  let done: Result<true>;
  switch (command.type) {
    case 'move':
      done = check ? move(r, actor, command.to, command.target) : moveOffered(r, actor, command.to);
      return done.ok ? ok(r.resolved()) : done;
    case 'equip':
    case 'unequip':
    case 'drop':
      // "Changing your equipped items or dropping an item do not count as an action."
      done = freeItemCommand(r, actor, command.type, command.item);
      return done.ok ? ok(r.resolved()) : done;
    case 'attack':
      if (check) done = attackCommand(r, actor, command.target);
      else {
        attack(r, actor.id, command.target);
        done = OFFERED;
      }
      break;
    case 'stay':
      done = ok(true);
      break;
    case 'cast':
      done = cast(r, actor, command.spell, command.target);
      break;
    case 'use':
      done = useItem(r, actor, command.item, command.target);
      break;
    case 'give':
      done = give(r, actor, command.item, command.to);
      break;
  }
  if (!done.ok) return done;
  endTurn(r, actor.id);
  nextTurn(r);
  return ok(r.resolved());
}

function move(
  r: Resolution,
  actor: CombatantState,
  to: string,
  target: string | undefined,
): Result<true> {
  const { state } = r;
  if (state.step !== 'move') {
    return err(
      'action/cannot-move',
      actor.statuses.some((s) => s.status === 'frozen')
        ? `${actor.sheet.name} is frozen in place`
        : `${actor.sheet.name} has moved already: only one move, before the action`,
    );
  }
  if (target !== undefined && combatantOf(state, target) === undefined)
    return err('action/unknown-target', `there is no combatant '${target}'`);
  const cell = cellIndex(state.setup, to);
  if (cell < 0) return err('action/off-the-field', `${to} is not on the battlefield`);
  const reach = movesOf(state, actor, derived(state.setup, actor).movement);
  const cost = reach.costs[cell] ?? -1;
  if (cost < 0) {
    const there = standingAt(state, cell);
    const why =
      there !== undefined && there.id !== actor.id
        ? `${there.sheet.name} stands there`
        : 'out of reach';
    return err(
      'action/cannot-reach',
      `${actor.sheet.name} cannot move to ${to.toUpperCase()}: ${why}`,
    );
  }
  r.emit({
    type: 'moved',
    actor: actor.id,
    from: cellName(r, actor.cell),
    to: cellName(r, cell),
    cost,
  });
  return ok(true);
}

const OFFERED: Result<true> = ok(true);

/** A move the legal actions offered: the cell is in reach; only its cost is looked up. */
function moveOffered(r: Resolution, actor: CombatantState, to: string): Result<true> {
  const cell = cellIndex(r.state.setup, to);
  const cost = movesOf(r.state, actor, derived(r.state.setup, actor).movement).costs[cell]!;
  r.emit({
    type: 'moved',
    actor: actor.id,
    from: cellName(r, actor.cell),
    to: cellName(r, cell),
    cost,
  });
  return OFFERED;
}

function liveTarget(state: ShiningForceState, id: string): Result<CombatantState> {
  const target = combatantOf(state, id);
  if (target === undefined) return err('action/unknown-target', `there is no combatant '${id}'`);
  if (target.defeated) return err('action/target-defeated', `${target.sheet.name} is defeated`);
  return ok(target);
}

function attackCommand(r: Resolution, actor: CombatantState, targetId: string): Result<true> {
  const target = liveTarget(r.state, targetId);
  if (!target.ok) return target;
  const arms = armament(r.state.setup, actor);
  if (arms === undefined)
    return err(
      'action/unarmed',
      `${actor.sheet.name} has no weapon equipped: Force members may not attack unarmed`,
    );
  if (!areEnemies(actor, target.value))
    return err(
      'action/friendly-target',
      `${actor.sheet.name} will not attack an ally, ${target.value.sheet.name}`,
    );
  if (!inReach(r.state.setup, arms.range, actor.cell, target.value.cell))
    return err('action/out-of-range', `${target.value.sheet.name} is out of ${arms.name}'s range`);
  attack(r, actor.id, target.value.id);
  return ok(true);
}

/** Checks an effect's aim and range, and returns whom it touches. */
function aimEffect(
  r: Resolution,
  actor: CombatantState,
  effect: Effect,
  name: string,
  targetId: string,
): Result<string[]> {
  const target = liveTarget(r.state, targetId);
  if (!target.ok) return target;
  if (areEnemies(actor, target.value) !== (effect.aim === 'enemy'))
    return err(
      'action/bad-target',
      `${name} is for ${effect.aim === 'enemy' ? 'enemies' : 'allies'}`,
    );
  const range = r.state.setup.patterns[effect.range] ?? ADJACENT;
  if (!inReach(r.state.setup, range, actor.cell, target.value.cell))
    return err('action/out-of-range', `${target.value.sheet.name} is out of ${name}'s range`);
  return ok(effectTargets(r.state, actor, effect, target.value.cell));
}

function cast(
  r: Resolution,
  actor: CombatantState,
  spellId: string,
  targetId: string,
): Result<true> {
  const spell = Object.hasOwn(r.state.setup.spells, spellId)
    ? r.state.setup.spells[spellId]
    : undefined;
  if (spell === undefined || !actor.sheet.spells.includes(spellId))
    return err(
      'action/unknown-spell',
      `${actor.sheet.name} knows no spell '${spellId}' (knows: ${actor.sheet.spells.join(', ') || 'none'})`,
    );
  if (!canCastAny(r.state.setup, actor) || actor.mp < spell.mpCost)
    return err(
      'action/not-enough-mp',
      `${spell.name} costs ${spell.mpCost} MP; ${actor.sheet.name} has ${actor.mp}`,
    );
  const targets = aimEffect(r, actor, spell, spell.name, targetId);
  if (!targets.ok) return targets;
  r.emit({
    type: 'spell-cast',
    actor: actor.id,
    spell: spellId,
    at: cellName(r, combatantOf(r.state, targetId)!.cell),
    targets: targets.value,
    mpAfter: actor.mp - spell.mpCost,
  });
  applyEffect(r, actor.id, spell, targets.value);
  return ok(true);
}

/**
 * The slot an item is given or used from: a copy in the bag before the equipped one, so a
 * Force member who carries two of a weapon keeps the one in hand (and can still attack).
 */
export function slotOf(actor: CombatantState, itemId: string): number {
  const inBag = actor.items.findIndex((h) => h.item === itemId && !h.equipped);
  return inBag >= 0 ? inBag : actor.items.findIndex((h) => h.item === itemId);
}

function useItem(
  r: Resolution,
  actor: CombatantState,
  itemId: string,
  targetId: string,
): Result<true> {
  const slot = slotOf(actor, itemId);
  const item = Object.hasOwn(r.state.setup.items, itemId) ? r.state.setup.items[itemId] : undefined;
  if (slot < 0 || item === undefined)
    return err('action/no-such-item', `${actor.sheet.name} carries no '${itemId}'`);
  if (item.use === undefined) return err('action/not-usable', `${item.name} has no use`);
  const targets = aimEffect(r, actor, item.use, item.name, targetId);
  if (!targets.ok) return targets;
  r.emit({
    type: 'item-used',
    actor: actor.id,
    item: itemId,
    slot,
    at: cellName(r, combatantOf(r.state, targetId)!.cell),
    targets: targets.value,
  });
  applyEffect(r, actor.id, item.use, targets.value);
  if (!r.combatant(actor.id).defeated) wear(r, actor.id, slotOf(r.combatant(actor.id), itemId));
  return ok(true);
}

function give(r: Resolution, actor: CombatantState, itemId: string, toId: string): Result<true> {
  const slot = slotOf(actor, itemId);
  if (slot < 0) return err('action/no-such-item', `${actor.sheet.name} carries no '${itemId}'`);
  const to = liveTarget(r.state, toId);
  if (!to.ok) return to;
  if (to.value.id === actor.id || areEnemies(actor, to.value) || !to.value.force)
    return err('action/bad-target', `${actor.sheet.name} gives items to another Force member`);
  if (!inReach(r.state.setup, ADJACENT, actor.cell, to.value.cell))
    return err('action/out-of-range', `${to.value.sheet.name} is not next to ${actor.sheet.name}`);
  const held = actor.items[slot]!;
  if (held.equipped && r.state.setup.items[itemId]?.curse !== undefined)
    return err(
      'action/cursed',
      `${r.state.setup.items[itemId]!.name} is cursed: it will not leave its wearer's hand`,
    );
  if (to.value.items.filter((h) => !h.equipped).length >= BAG_SLOTS)
    return err(
      'action/no-room',
      `${to.value.sheet.name} has no room: ${BAG_SLOTS} items besides the equipped ones`,
    );
  r.emit({ type: 'item-given', actor: actor.id, item: itemId, slot, to: to.value.id });
  return ok(true);
}

function freeItemCommand(
  r: Resolution,
  actor: CombatantState,
  type: 'equip' | 'unequip' | 'drop',
  itemId: string,
): Result<true> {
  const { setup } = r.state;
  const item = setup.items[itemId];
  const slots = actor.items.map((h, i) => ({ h, i })).filter(({ h }) => h.item === itemId);
  if (item === undefined || slots.length === 0)
    return err('action/no-such-item', `${actor.sheet.name} carries no '${itemId}'`);
  const cursedOn = (type: string) =>
    actor.items.find(
      (h) =>
        h.equipped &&
        setup.items[h.item]?.type === type &&
        setup.items[h.item]?.curse !== undefined,
    );
  if (type === 'equip') {
    const free = slots.find(({ h }) => !h.equipped);
    if (item.type === 'item')
      return err('action/not-equipment', `${item.name} is not a weapon or accessory`);
    if (free === undefined)
      return err('action/equipped-already', `${item.name} is equipped already`);
    if (!actor.force) return err('action/not-equipment', 'monsters fight with what they have');
    const cursed = cursedOn(item.type);
    if (cursed !== undefined)
      return err(
        'action/cursed',
        `${setup.items[cursed.item]!.name} is cursed and cannot be taken off`,
      );
    r.emit({ type: 'item-equipped', actor: actor.id, item: itemId, slot: free.i });
    if (item.curse !== undefined && !actor.statuses.some((s) => s.status === 'curse'))
      r.emit({
        type: 'status-inflicted',
        target: actor.id,
        instance: { status: 'curse', turns: null, curse: item.curse },
        chance: null,
        roll: null,
      });
    return ok(true);
  }
  if (type === 'unequip') {
    const on = slots.find(({ h }) => h.equipped);
    if (on === undefined) return err('action/not-equipped', `${item.name} is not equipped`);
    if (item.curse !== undefined)
      return err('action/cursed', `${item.name} is cursed and cannot be taken off`);
    if (actor.items.filter((h) => !h.equipped).length >= BAG_SLOTS)
      return err('action/no-room', `no room for ${item.name} besides the equipped slots`);
    r.emit({ type: 'item-unequipped', actor: actor.id, item: itemId, slot: on.i });
    return ok(true);
  }
  const pick = slots.find(({ h }) => !h.equipped) ?? slots[0]!;
  if (pick.h.equipped && item.curse !== undefined)
    return err('action/cursed', `${item.name} is cursed and cannot be dropped`);
  r.emit({ type: 'item-dropped', actor: actor.id, item: itemId, slot: pick.i });
  return ok(true);
}
