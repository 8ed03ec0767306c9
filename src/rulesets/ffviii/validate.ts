import type { gm } from '../../engine/index.js';
import type { FfviiiCommand } from './commands.js';

import {
  type CombatantState,
  distance,
  type FfviiiState,
  gunToReload,
  inFight,
  spellRange,
  standing,
  weaponOf,
} from './state.js';

export interface Refusal {
  readonly code: string;
  readonly message: string;
}

/** "Reloading a Pistol takes 1 shot, ... an automatic rifle or SMG takes 3 shots, and ... a Shotgun, Rifle, or Revolver takes 5 shots." */
export function reloadShots(kind: string): number {
  if (kind === 'pistol') return 1;
  if (kind === 'automatic-rifle' || kind === 'smg') return 3;
  return 5;
}

/**
 * "Each Guardian Force has a shot cost of up to 10 just to summon it, and then the actual
 * Guardian Force ability has a Shot Cost as well ... The compatability of a character with his
 * GF is always subtracted from the shot cost to summon, but not from the shot cost to use the
 * actual ability."
 */
export function summonShots(state: FfviiiState, c: CombatantState, gfId: string): number {
  const gf = state.setup.guardianForces[gfId];
  const link = c.sheet.guardianForces.find((g) => g.gf === gfId);
  if (gf === undefined || link === undefined) return 0;
  return Math.max(0, gf.summonShots - link.compatibility) + gf.ability.shots;
}

const refuse = (code: string, message: string): Refusal => ({ code, message });

/** Why a command cannot be taken now, or undefined when it can. decide and legalActions share it. */
export function validate(state: FfviiiState, command: FfviiiCommand): Refusal | undefined {
  if (state.phase === 'ended') return refuse('battle/over', 'the battle is over');
  switch (command.type) {
    case 'begin-round':
      if (state.phase === 'dodge')
        return refuse('action/awaiting-dodge', 'an attack waits on its target to dodge or not');
      return state.phase === 'initiative'
        ? undefined
        : refuse('round/in-progress', `round ${state.round} is still being played`);
    case 'dodge':
    case 'take-it': {
      if (state.phase !== 'dodge' || state.pending === null)
        return refuse('action/no-attack', 'nobody is being attacked');
      if (state.pending.target !== command.actor)
        return refuse(
          'action/not-your-turn',
          `it is ${state.combatants[state.pending.target]?.sheet.name ?? state.pending.target} who chooses whether to dodge`,
        );
      // "as soon as the character hits 0 shots, no further actions can be taken, not even dodging"
      if (command.type === 'dodge' && state.combatants[command.actor]!.shot < 1)
        return refuse(
          'action/no-shots-to-dodge',
          `${state.combatants[command.actor]!.sheet.name} has no shot left to dodge with`,
        );
      return undefined;
    }
    case 'use-power': {
      if (state.phase !== 'initiative')
        return refuse(
          'power/too-late',
          'powers like this are used before anyone rolls initiative, between rounds',
        );
      const actor = state.combatants[command.actor];
      if (actor === undefined) return unknownActor(command.actor);
      if (!inFight(actor)) return refuse('actor/out', `${actor.sheet.name} is out of the fight`);
      if (
        !actor.sheet.powers.includes(command.power) ||
        state.setup.powers[command.power] === undefined
      )
        return refuse('power/unknown', `${actor.sheet.name} has no power '${command.power}'`);
      if ((actor.powerUses[command.power] ?? 0) <= 0)
        return refuse('power/used', `${actor.sheet.name} has no uses of that power left`);
      return undefined;
    }
    case 'gm-set':
    case 'gm-status':
    case 'gm-add':
    case 'gm-remove':
    case 'gm-clock':
    case 'gm-skip':
    case 'gm-damage':
    case 'gm-heal':
    case 'gm-note':
      // Checked where they are decided (gm.ts), against the GM's own vocabulary.
      return undefined;
    default:
      return validateAction(state, command);
  }
}

function unknownActor(id: string): Refusal {
  return refuse('actor/unknown', `nobody called '${id}' is in this fight`);
}

type ActionCommand = Exclude<
  FfviiiCommand,
  { type: 'begin-round' | 'dodge' | 'take-it' | 'use-power' | gm.GmCommandType }
>;

function validateAction(state: FfviiiState, command: ActionCommand): Refusal | undefined {
  if (state.phase === 'dodge')
    return refuse('action/awaiting-dodge', 'an attack waits on its target to dodge or not');
  if (state.phase === 'initiative')
    return refuse('round/not-begun', 'roll initiative first (begin-round)');
  const actor = state.combatants[command.actor];
  if (actor === undefined) return unknownActor(command.actor);
  if (!inFight(actor)) return refuse('actor/out', `${actor.sheet.name} is out of the fight`);
  if (actor.shot !== state.shot)
    return refuse(
      'action/not-your-shot',
      actor.shot === 0
        ? `${actor.sheet.name} has no shots left this round`
        : `it is shot ${state.shot}; ${actor.sheet.name} acts on shot ${actor.shot}`,
    );
  if (command.type === 'complete') {
    if (actor.carrying === null)
      return refuse('action/nothing-carried', `${actor.sheet.name} carries no action over`);
    if (actor.carrying.type === 'reload') return undefined;
    // The target may have fallen while the action was under way: name another.
    const targetId = command.target ?? actor.carrying.target;
    const target = state.combatants[targetId];
    if (target === undefined)
      return refuse('target/unknown', `nobody called '${targetId}' is in this fight`);
    if (!standing(target) || target.id === actor.id)
      return refuse('target/out', `${target.sheet.name} cannot be targeted: name another target`);
    return undefined;
  }
  // Passing or fleeing abandons a carried action; anything else waits for it.
  if (command.type === 'pass' || command.type === 'flee') return undefined;
  if (actor.carrying !== null)
    return refuse(
      'action/carried-action-first',
      `${actor.sheet.name} first completes the action carried over from last round (complete)`,
    );
  switch (command.type) {
    case 'wait':
      return command.shots < actor.shot
        ? undefined
        : refuse(
            'action/wait-too-long',
            `${actor.sheet.name} can wait at most ${actor.shot - 1} shots this round (there is no Shot 0)`,
          );
    case 'attack': {
      const weapon = weaponOf(actor, command.weapon);
      if (weapon === undefined)
        return refuse(
          'weapon/unknown',
          command.weapon === undefined
            ? `${actor.sheet.name} has no weapon`
            : `${actor.sheet.name} has no weapon '${command.weapon}'`,
        );
      if (weapon.gun !== undefined && (actor.ammo[weapon.id] ?? 0) <= 0)
        return refuse('weapon/empty', `${weapon.name} is empty: reload it`);
      return hostileTarget(state, actor, command.target);
    }
    case 'cast': {
      const spell = state.setup.spells[command.spell];
      if (spell === undefined)
        return refuse('spell/unknown', `there is no spell '${command.spell}'`);
      if ((actor.matrix[command.spell] ?? 0) <= 0)
        return refuse('spell/none-in-stock', `${actor.sheet.name} has no ${spell.name} in stock`);
      const targetRefusal = spell.willing
        ? willingTarget(state, command.target)
        : hostileTarget(state, actor, command.target);
      if (targetRefusal !== undefined) return targetRefusal;
      return inSight(state, actor, state.combatants[command.target]!);
    }
    case 'draw': {
      const refusal = hostileTarget(state, actor, command.target);
      if (refusal !== undefined) return refusal;
      const target = state.combatants[command.target]!;
      if (actor.drawBarred.includes(target.id))
        return refuse(
          'draw/barred',
          `${actor.sheet.name} can never draw from ${target.sheet.name} again`,
        );
      if (
        !target.sheet.spellshards.includes(command.spell) ||
        state.setup.spells[command.spell] === undefined
      )
        return refuse(
          'draw/no-such-shard',
          `${target.sheet.name} holds no '${command.spell}' Spellshard`,
        );
      return undefined;
    }
    case 'sense': {
      const refusal = hostileTarget(state, actor, command.target);
      if (refusal !== undefined) return refusal;
      return actor.senseBarred.includes(command.target)
        ? refuse(
            'sense/barred',
            `${actor.sheet.name} cannot sense anything about ${state.combatants[command.target]!.sheet.name} this moon cycle`,
          )
        : undefined;
    }
    case 'reload': {
      const weapon = gunToReload(actor, command.weapon);
      if (weapon?.gun === undefined)
        return actor.sheet.weapons.some((w) => w.gun !== undefined)
          ? refuse('weapon/full', `every gun ${actor.sheet.name} carries is fully loaded`)
          : refuse('weapon/no-gun', `${actor.sheet.name} has no gun to reload`);
      return (actor.ammo[weapon.id] ?? 0) >= weapon.gun.capacity
        ? refuse('weapon/full', `${weapon.name} is fully loaded`)
        : undefined;
    }
    case 'use-item': {
      const item = state.setup.items[command.item];
      if (item === undefined) return refuse('item/unknown', `there is no item '${command.item}'`);
      if ((actor.items[command.item] ?? 0) <= 0)
        return refuse('item/none-left', `${actor.sheet.name} has no ${item.name} left`);
      return item.willing
        ? willingTarget(state, command.target)
        : hostileTarget(state, actor, command.target);
    }
    case 'summon': {
      if (
        state.setup.guardianForces[command.gf] === undefined ||
        !actor.sheet.guardianForces.some((g) => g.gf === command.gf)
      )
        return refuse('gf/unknown', `${actor.sheet.name} has no Guardian Force '${command.gf}'`);
      return hostileTarget(state, actor, command.target);
    }
  }
}

/** A target that does not want it: someone else still standing. */
function hostileTarget(state: FfviiiState, actor: CombatantState, id: string): Refusal | undefined {
  const target = state.combatants[id];
  if (target === undefined)
    return refuse('target/unknown', `nobody called '${id}' is in this fight`);
  if (target.id === actor.id)
    return refuse('target/self', `${actor.sheet.name} cannot target itself`);
  if (!standing(target)) return refuse('target/out', `${target.sheet.name} is down`);
  return undefined;
}

/** Help may reach anyone still in the fight, even one brought to 0 HP on this very shot. */
function willingTarget(state: FfviiiState, id: string): Refusal | undefined {
  const target = state.combatants[id];
  if (target === undefined)
    return refuse('target/unknown', `nobody called '${id}' is in this fight`);
  return inFight(target)
    ? undefined
    : refuse('target/out', `${target.sheet.name} is out of the fight`);
}

/**
 * "Spells can only be cast on targets that the caster has a line of sight with ... A mage can
 * hit any target within his Sorcery AV x 3, measured in yards." Checked where the encounter
 * gives positions and barriers.
 */
function inSight(
  state: FfviiiState,
  actor: CombatantState,
  target: CombatantState,
): Refusal | undefined {
  if (
    state.setup.blockedSight.some(
      ([a, b]) => (a === actor.id && b === target.id) || (a === target.id && b === actor.id),
    )
  )
    return refuse(
      'spell/no-line-of-sight',
      `a solid, opaque barrier stands between ${actor.sheet.name} and ${target.sheet.name}`,
    );
  const yards = distance(actor, target);
  const range = spellRange(actor);
  if (yards !== undefined && yards > range)
    return refuse(
      'spell/out-of-range',
      `${target.sheet.name} is ${Math.round(yards)} yards away; ${actor.sheet.name} reaches ${range} (Sorcery AV x 3)`,
    );
  return undefined;
}
