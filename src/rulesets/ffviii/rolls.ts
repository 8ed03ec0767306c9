/**
 * Every roll a command may ask for, by purpose: what an interface asks a GM to enter, and what
 * entered dice are checked against before the command is decided.
 */
import { rollSlot } from '../roll-slot.js';
import type { OrderRolls, RollSlot } from '../system.js';
import { ACTION_DICE } from './action-dice.js';
import { INITIATIVE_DIE, REGULAR_ACTION_SHOTS } from './clock.js';
import type { FfviiiCommand } from './commands.js';
import { newcomerId } from './gm.js';
import { type FfviiiState, inFight, type PendingAttack, weaponOf } from './state.js';
import { summonShots } from './validate.js';

const PREFIX: Readonly<Record<PendingAttack['type'], string>> = {
  attack: 'attack',
  cast: 'cast',
  'use-item': 'item',
  summon: 'summon',
};

/** The acting character's check: "the player rolls the dice and adds it to" an Action Value. */
function check(prefix: string, target: string, roller: string): RollSlot[] {
  return [rollSlot(`${prefix}:${target}`, ACTION_DICE, roller)];
}

/**
 * A hostile action's check rolls when its target answers, unless the target cannot dodge (no
 * shot left, or no HP), when it rolls at once.
 */
function hostile(state: FfviiiState, prefix: string, target: string, roller: string): RollSlot[] {
  const t = state.combatants[target];
  if (t === undefined) return [];
  return t.hp > 0 && t.shot >= 1 ? [] : check(prefix, target, roller);
}

/** Each fighter's initiative die, the next round's: its own when `own`. */
function initiativeSlots(state: FfviiiState, own: boolean): RollSlot[] {
  return state.order
    .filter((id) => inFight(state.combatants[id]!))
    .map((id) => rollSlot(`initiative:${id}`, INITIATIVE_DIE, own ? id : undefined));
}

/**
 * "At the beginning of each combat round, each player rolls a 10 sided dice and adds the
 * resultant number to their Speed stat": its own character's, when the option is on (by default).
 */
export function ffviiiOrderRolls(state: FfviiiState): OrderRolls {
  const on = state.setup.options.playersRollInitiative;
  return {
    option: 'playersRollInitiative',
    on,
    name: 'initiative',
    slots: on && state.phase !== 'ended' ? initiativeSlots(state, true) : [],
  };
}

export function ffviiiRolls(state: FfviiiState, command: FfviiiCommand): readonly RollSlot[] {
  switch (command.type) {
    case 'begin-round':
      return initiativeSlots(state, state.setup.options.playersRollInitiative);
    case 'attack': {
      const actor = state.combatants[command.actor];
      const weapon = actor === undefined ? undefined : weaponOf(actor, command.weapon);
      if (actor === undefined || weapon === undefined) return [];
      if (weapon.shots > REGULAR_ACTION_SHOTS && weapon.shots > actor.shot) return [];
      return hostile(state, 'attack', command.target, command.actor);
    }
    case 'cast': {
      const spell = state.setup.spells[command.spell];
      if (spell === undefined) return [];
      return spell.willing
        ? check('cast', command.target, command.actor)
        : hostile(state, 'cast', command.target, command.actor);
    }
    case 'use-item': {
      const item = state.setup.items[command.item];
      return item === undefined || item.willing
        ? []
        : hostile(state, 'item', command.target, command.actor);
    }
    case 'summon': {
      const actor = state.combatants[command.actor];
      if (actor === undefined) return [];
      const shots = summonShots(state, actor, command.gf);
      if (shots > REGULAR_ACTION_SHOTS && shots > actor.shot) return [];
      return hostile(state, 'summon', command.target, command.actor);
    }
    case 'complete': {
      const carrying = state.combatants[command.actor]?.carrying;
      if (carrying === undefined || carrying === null || carrying.type === 'reload') return [];
      return hostile(state, carrying.type, command.target ?? carrying.target, command.actor);
    }
    // The attacker's check, rolled once its target has answered: not the answer's roll.
    case 'dodge':
    case 'take-it':
      return state.pending === null
        ? []
        : check(PREFIX[state.pending.type], state.pending.target, state.pending.actor);
    case 'draw':
      return check('draw', command.target, command.actor);
    case 'sense':
      return check('sense', command.target, command.actor);
    case 'gm-add':
      return state.phase === 'initiative' || state.phase === 'ended'
        ? []
        : [
            rollSlot(
              `initiative:${newcomerId(state, command.newcomer, command.name).id}`,
              INITIATIVE_DIE,
            ),
          ];
    case 'gm-damage':
    case 'gm-heal':
      return typeof command.amount === 'string'
        ? [rollSlot(`gm:${command.target}`, command.amount)]
        : [];
    default:
      return [];
  }
}
