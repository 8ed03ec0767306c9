/**
 * Every roll a command may ask for, whatever the dice say: the action's own dice, and those of
 * the turns that follow it in the same command (a new round's turn order, a status rolled at
 * the start of a turn, a confused unit's attack on a friend).
 */

import { gm } from '../../engine/index.js';
import { rollSlot } from '../roll-slot.js';
import type { OrderRolls, RollSlot } from '../system.js';
import { effectTargets } from './combat.js';
import type { ShiningForceCommand } from './commands.js';
import { armament } from './derived.js';
import { gmTarget, statusNamed } from './gm.js';
import type { Effect, StatusName } from './model.js';
import {
  type CombatantState,
  combatantOf,
  hasStatus,
  type ShiningForceState,
  sideOf,
} from './state.js';

const D100 = 'd100';
const D15 = 'd15';

/**
 * Each purpose once, the first met naming the roller: the engine asks the first for the bare
 * purpose and numbers the later ones.
 */
class Slots {
  readonly list: RollSlot[] = [];
  /** Whom the command may defeat or change: their turns may not come after all. */
  readonly reached = new Set<string>();
  private readonly seen = new Set<string>();
  /** `roller` undefined: the table's roll (turn order, a GM's amount, a status's turn check). */
  add(purpose: string, notation: string, roller?: string): void {
    if (this.seen.has(purpose)) return;
    this.seen.add(purpose);
    this.list.push(rollSlot(purpose, notation, roller));
  }
}

/** The five d100s (the third one to four), the d15s of the variances, and what may follow. */
function attackSlots(
  state: ShiningForceState,
  slots: Slots,
  attacker: CombatantState,
  defender: CombatantState,
  inflicted: Map<string, Set<StatusName>>,
): void {
  const id = defender.id;
  slots.reached.add(id);
  // The attacker's hit, variance and critical; the fourth and fifth d100s (and the counter's
  // variance) are the defender's counter-attack.
  for (const kind of ['hit', 'variance', 'critical']) slots.add(`${kind}:${id}`, D100, attacker.id);
  for (const kind of ['counter', 'counter-variance']) slots.add(`${kind}:${id}`, D100, id);
  slots.add(`variance-amount:${id}`, D15, attacker.id);
  slots.add(`counter-variance-amount:${id}`, D15, id);
  const arms = armament(state.setup, attacker);
  const rider =
    arms?.item === null ? attacker.sheet.attack?.inflicts : arms?.item?.specialCritical?.inflicts;
  if (rider !== undefined) {
    slots.add(`status:${id}`, D100, attacker.id);
    mark(inflicted, id, rider.status);
  }
  if (state.setup.options.crackOnAttack) {
    for (const c of [attacker, defender]) {
      const weapon = armament(state.setup, c);
      const held = weapon?.slot == null ? undefined : c.items[weapon.slot];
      if (held !== undefined) slots.add(`crack:${held.item}`, D100, c.id);
    }
  }
}

function mark(inflicted: Map<string, Set<StatusName>>, id: string, status: StatusName): void {
  let set = inflicted.get(id);
  if (set === undefined) {
    set = new Set();
    inflicted.set(id, set);
  }
  set.add(status);
}

function effectSlots(
  state: ShiningForceState,
  slots: Slots,
  user: CombatantState,
  effect: Effect,
  target: CombatantState,
  inflicted: Map<string, Set<StatusName>>,
): void {
  for (const id of effectTargets(state, user, effect, target.cell)) {
    slots.reached.add(id);
    if (effect.damage !== undefined) {
      slots.add(`variance:${id}`, D100, user.id);
      slots.add(`variance-amount:${id}`, D15, user.id);
    }
    if (effect.defeats !== undefined) slots.add(`defeat:${id}`, D100, user.id);
    if (effect.inflicts !== undefined) {
      slots.add(`status:${id}`, D100, user.id);
      mark(inflicted, id, effect.inflicts.status);
    }
  }
}

/**
 * Whether the turns after this one may all pass without a command, so that the round ends and
 * the next one's turn order is rolled: each combatant still to act this round is out, or may
 * lose its turn (a status, the GM's skip) or be struck down by this command first. One who
 * surely takes a turn stops the command there, and no turn order is rolled in it.
 */
function roundMayEnd(state: ShiningForceState, slots: Slots): boolean {
  // A confused unit may strike any friend down before that friend's turn.
  const confused = state.combatants.filter((c) => !c.defeated && hasStatus(c, 'confused'));
  for (let i = state.cursor + 1; i < state.order.length; i++) {
    const c = combatantOf(state, state.order[i]!);
    if (c === undefined || c.defeated) continue;
    const mayLoseTurn =
      c.statuses.length > 0 ||
      state.skipping.includes(c.id) ||
      slots.reached.has(c.id) ||
      confused.some((other) => other.id !== c.id && sideOf(other) === sideOf(c));
    if (!mayLoseTurn) return false;
  }
  return true;
}

/** Each standing combatant's turn-order die, the next round's: its own when `own`. */
function turnOrderDice(
  state: ShiningForceState,
  own: boolean,
): { purpose: string; notation: string; roller: string | undefined }[] {
  const notation = `d${2 * state.setup.options.turnOrderSpread + 1}`;
  return state.combatants
    .filter((c) => !c.defeated)
    .map((c) => ({ purpose: `turn-order:${c.id}`, notation, roller: own ? c.id : undefined }));
}

/**
 * The text has "the Game Master rolling" every die and no turn order of its own (docs/rulings.md):
 * the players enter their characters' turn-order dice only when the option is on (off by default).
 */
export function shiningForceOrderRolls(state: ShiningForceState): OrderRolls {
  const on = state.setup.options.playersRollTurnOrder;
  return {
    option: 'playersRollTurnOrder',
    on,
    name: 'turn order',
    slots:
      on && state.result === null
        ? turnOrderDice(state, true).map((d) => rollSlot(d.purpose, d.notation, d.roller))
        : [],
  };
}

/**
 * The turns that may follow in the same command: a new round's turn order for everyone
 * standing when the round may end, and what a status rolls at the start of its victim's turn (Paralysis, a curse,
 * Confusion, and a confused unit's attack on a friend in reach).
 */
function turnSlots(
  state: ShiningForceState,
  slots: Slots,
  inflicted: Map<string, Set<StatusName>>,
): void {
  if (state.round === 0 || roundMayEnd(state, slots)) {
    for (const die of turnOrderDice(state, state.setup.options.playersRollTurnOrder))
      slots.add(die.purpose, die.notation, die.roller);
  }
  for (const c of state.combatants) {
    if (c.defeated) continue;
    const { id } = c;
    const has = (s: StatusName) => hasStatus(c, s) !== undefined || inflicted.get(id)?.has(s);
    if (has('paralysed')) slots.add(`paralysis:${id}`, D100);
    if (hasStatus(c, 'curse')?.curse?.effect === 'paralysis') slots.add(`curse:${id}`, D100);
    if (has('confused')) {
      slots.add(`confusion:${id}`, D100);
      const friends = state.combatants.filter(
        (other) => other.id !== id && !other.defeated && sideOf(other) === sideOf(c),
      );
      if (friends.length > 1) slots.add(`confusion-target:${id}`, `d${friends.length}`);
      for (const f of friends) attackSlots(state, slots, c, f, new Map());
    }
  }
}

export function rolls(state: ShiningForceState, command: ShiningForceCommand): readonly RollSlot[] {
  const slots = new Slots();
  const inflicted = new Map<string, Set<StatusName>>();
  // Whom a GM command names may be struck down, skipped or given a status before its turn.
  if ('target' in command && command.target !== undefined && command.type.startsWith('gm-')) {
    const target = gmTarget(state, command.target);
    if (target.ok) slots.reached.add(target.value.id);
  }
  switch (command.type) {
    case 'begin-battle':
      turnSlots(state, slots, inflicted);
      return slots.list;
    // "Changing your equipped items or dropping an item do not count as an action", and a
    // move is followed by the action: the turn goes on, and nothing after it is rolled.
    case 'move':
    case 'equip':
    case 'unequip':
    case 'drop':
      return slots.list;
    case 'gm-move':
    case 'gm-note':
    case 'gm-set':
    case 'gm-remove':
      break;
    case 'gm-status': {
      const target = gmTarget(state, command.target);
      const status = statusNamed(command.status);
      if (target.ok && status !== undefined && !command.remove)
        mark(inflicted, target.value.id, status);
      break;
    }
    case 'attack': {
      const actor = combatantOf(state, command.actor);
      const target = combatantOf(state, command.target);
      if (actor !== undefined && target !== undefined)
        attackSlots(state, slots, actor, target, inflicted);
      break;
    }
    case 'cast':
    case 'use': {
      const actor = combatantOf(state, command.actor);
      const target = combatantOf(state, command.target);
      const effect =
        command.type === 'cast'
          ? Object.hasOwn(state.setup.spells, command.spell)
            ? state.setup.spells[command.spell]
            : undefined
          : Object.hasOwn(state.setup.items, command.item)
            ? state.setup.items[command.item]?.use
            : undefined;
      if (actor !== undefined && target !== undefined && effect !== undefined)
        effectSlots(state, slots, actor, effect, target, inflicted);
      if (command.type === 'use') slots.add(`crack:${command.item}`, D100, command.actor);
      break;
    }
    case 'gm-add': {
      const roster = state.combatants.map((c) => ({ id: c.id, name: c.sheet.name }));
      const { newcomer } = command;
      const { id } = gm.newcomerIdentity(roster, newcomer, command.name);
      slots.add(`turn-order:${id}`, `d${2 * state.setup.options.turnOrderSpread + 1}`);
      break;
    }
    case 'gm-damage':
    case 'gm-heal': {
      const target = gmTarget(state, command.target);
      if (typeof command.amount === 'string' && target.ok)
        slots.add(`gm:${target.value.id}`, command.amount);
      break;
    }
    default:
      break;
  }
  // Whatever ends a turn (or may, after a GM change) may run the turns after it.
  turnSlots(state, slots, inflicted);
  return slots.list;
}
