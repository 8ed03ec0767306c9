import {
  type DiceRoller,
  decideByResolving,
  err,
  ok,
  type Resolved,
  type Result,
} from '../../engine/index.js';
import { declare, resolvePending } from './attacks.js';
import { beginRound, REGULAR_ACTION_SHOTS, settle, spend } from './clock.js';
import type { FfviiiCommand } from './commands.js';
import type { FfviiiEvent } from './events.js';
import { isFfviiiGm, resolveGm } from './gm.js';
import { carriedName } from './names.js';
import { FfviiiResolution } from './resolution.js';
import { resolveDraw, resolveSense } from './spellshards.js';
import {
  type FfviiiState,
  gunToReload,
  itemUse,
  type PendingAttack,
  USE_ITEM_SHOTS,
  weaponOf,
} from './state.js';
import { reloadShots, summonShots, validate } from './validate.js';

export const decide = decideByResolving(resolve);

/** decide, and the state its events lead to. */
export function resolve(
  state: FfviiiState,
  command: FfviiiCommand,
  dice: DiceRoller,
): Result<Resolved<FfviiiState, FfviiiEvent>> {
  if (isFfviiiGm(command)) return resolveGm(state, command, dice);
  const refused = validate(state, command);
  if (refused !== undefined) return err(refused.code, refused.message);
  const out = new FfviiiResolution(state, dice);
  switch (command.type) {
    case 'begin-round':
      beginRound(out, dice);
      break;
    case 'use-power':
      out.emit({ type: 'power-used', actor: command.actor, power: command.power });
      return ok(out.resolved());
    case 'attack': {
      const actor = out.get(command.actor);
      const weapon = weaponOf(actor, command.weapon)!;
      // A weapon slower than a regular action can carry over like any longer action.
      const carry = { type: 'attack', weapon: weapon.id, target: command.target } as const;
      if (spend(out, actor, weapon.shots, `Attack with ${weapon.name}`, command.target, carry))
        declare(out, dice, {
          type: 'attack',
          actor: actor.id,
          target: command.target,
          shots: weapon.shots,
          weapon: weapon.id,
        });
      break;
    }
    case 'cast': {
      const actor = out.get(command.actor);
      const spell = state.setup.spells[command.spell]!;
      spend(out, actor, REGULAR_ACTION_SHOTS, `Cast ${spell.name}`, command.target, null);
      const pending: PendingAttack = {
        type: 'cast',
        actor: actor.id,
        target: command.target,
        shots: REGULAR_ACTION_SHOTS,
        spell: command.spell,
      };
      if (spell.willing) resolvePending(out, dice, pending, false);
      else declare(out, dice, pending);
      break;
    }
    case 'draw':
      spend(out, out.get(command.actor), REGULAR_ACTION_SHOTS, 'Draw', command.target, null);
      resolveDraw(out, dice, command.actor, command.target, command.spell);
      break;
    case 'sense':
      spend(out, out.get(command.actor), 2, 'Sense Spellshards', command.target, null);
      resolveSense(out, dice, command.actor, command.target);
      break;
    case 'reload': {
      const actor = out.get(command.actor);
      const weapon = gunToReload(actor, command.weapon)!;
      const shots = reloadShots(weapon.gun!.kind);
      if (
        spend(out, actor, shots, `Reload ${weapon.name}`, null, {
          type: 'reload',
          weapon: weapon.id,
        })
      )
        out.emit({
          type: 'reloaded',
          actor: actor.id,
          weapon: weapon.id,
          ammo: weapon.gun!.capacity,
        });
      break;
    }
    case 'use-item': {
      const actor = out.get(command.actor);
      const item = state.setup.items[command.item]!;
      spend(out, actor, USE_ITEM_SHOTS, `Use ${item.name}`, command.target, null);
      const pending = itemUse(actor, command);
      if (item.willing) resolvePending(out, dice, pending, false);
      else declare(out, dice, pending);
      break;
    }
    case 'summon': {
      const actor = out.get(command.actor);
      const gf = state.setup.guardianForces[command.gf]!;
      const shots = summonShots(state, actor, command.gf);
      const now = spend(out, actor, shots, `Summon ${gf.name}`, command.target, {
        type: 'summon',
        gf: command.gf,
        target: command.target,
      });
      if (now)
        declare(out, dice, {
          type: 'summon',
          actor: actor.id,
          target: command.target,
          shots,
          gf: command.gf,
          carried: false,
        });
      break;
    }
    case 'complete': {
      const actor = out.get(command.actor);
      const carried = actor.carrying!;
      out.emit({
        type: 'action-completed',
        actor: actor.id,
        action: carriedName(state, actor, carried),
      });
      if (carried.type === 'summon') {
        const target = command.target ?? carried.target;
        declare(out, dice, {
          type: 'summon',
          actor: actor.id,
          target,
          shots: 0,
          gf: carried.gf,
          carried: true,
        });
      } else if (carried.type === 'attack') {
        declare(out, dice, {
          type: 'attack',
          actor: actor.id,
          target: command.target ?? carried.target,
          shots: 0,
          weapon: carried.weapon,
        });
      } else {
        const weapon = weaponOf(actor, carried.weapon);
        if (weapon?.gun !== undefined)
          out.emit({
            type: 'reloaded',
            actor: actor.id,
            weapon: weapon.id,
            ammo: weapon.gun.capacity,
          });
      }
      break;
    }
    case 'wait':
      spend(out, out.get(command.actor), command.shots, 'Wait', null, null);
      break;
    case 'pass': {
      const actor = out.get(command.actor);
      spend(out, actor, actor.shot, 'Pass', null, null);
      break;
    }
    case 'dodge':
    case 'take-it': {
      const pending = state.pending!;
      const target = out.get(pending.target);
      const dodge = command.type === 'dodge';
      out.emit({
        type: 'dodge-chosen',
        actor: target.id,
        dodge,
        shot: dodge ? Math.max(0, target.shot - 1) : target.shot,
      });
      resolvePending(out, dice, pending, dodge);
      break;
    }
    case 'flee':
      out.emit({ type: 'fled', actor: command.actor });
      break;
  }
  settle(out);
  return ok(out.resolved());
}
