import { combatantById, gm } from '../../engine/index.js';
import { rollSlot } from '../roll-slot.js';
import type { OrderRolls, RollSlot } from '../system.js';
import { weaponDice } from './combat.js';
import type { ZodiacCommand } from './commands.js';
import { techTargets } from './decide.js';
import { levelFactor } from './evolve.js';
import type { Tech } from './model.js';
import { type CombatantState, isStanding, type ZodiacState } from './state.js';

/** `(1d8*10+25)`, with the Damage Levels' zeroes: as `rollDamage` asks for it. */
function damageNotation(state: ZodiacState, dice: number, die: number, power: number): string {
  const factor = levelFactor(state.setup);
  const inner = `${dice}d${die}*10+${power}`;
  return factor === 1 ? inner : `(${inner})*${factor}`;
}

/** Each standing combatant's first-round 1d8 Speed Points: its own when `own`. */
function speedPointSlots(state: ZodiacState, own: boolean): RollSlot[] {
  return state.order
    .filter((id) => isStanding(state.combatants[id]!))
    .map((id) => rollSlot(`sp:${id}`, '1d8', own ? id : undefined));
}

/**
 * "At the beginning of combat, they each roll 1d8": each player its own character's, when the
 * option is on (by default); only the first round rolls them.
 */
export function zodiacOrderRolls(state: ZodiacState): OrderRolls {
  const on = state.setup.options.playersRollSpeedPoints;
  return {
    option: 'playersRollSpeedPoints',
    on,
    name: 'Speed Points',
    slots: on && state.phase === 'start' ? speedPointSlots(state, true) : [],
  };
}

/**
 * Every roll a command may ask for, whatever the dice say: a weapon blow's hit, damage and the
 * Resist rolls of what it carries; a spell's damage, healing and Resist rolls at each target it
 * may reach (the caster too, should a Wall turn it), and the bounce of the optional rule; the
 * first round's 1d8 Speed Points; a GM amount's dice.
 */
export function zodiacRolls(state: ZodiacState, command: ZodiacCommand): RollSlot[] {
  const slots: RollSlot[] = [];
  // The actor's own dice but for the table's: Speed Points, a GM's amount, a bounce's pick.
  const add = (purpose: string, notation: string, roller?: string): void => {
    if (!slots.some((s) => s.purpose === purpose && s.notation === notation))
      slots.push(rollSlot(purpose, notation, roller));
  };
  switch (command.type) {
    case 'begin-battle':
      slots.push(...speedPointSlots(state, state.setup.options.playersRollSpeedPoints));
      break;
    case 'attack': {
      const actor = combatantById(state.combatants, command.actor);
      if (actor !== undefined) weaponRolls(state, actor, command.target, undefined, add);
      break;
    }
    case 'tech': {
      const actor = combatantById(state.combatants, command.actor);
      const tech = combatantById(state.setup.techs, command.tech);
      if (actor === undefined || tech === undefined) break;
      const targets = techTargets(state, actor, tech, command.target);
      if (!targets.ok) break;
      if (tech.type === 'weapon') {
        for (const id of targets.value) weaponRolls(state, actor, id, tech, add);
        break;
      }
      // A Wall turns the spell back at its caster, or bounces it at any foe of the caster.
      const reached = new Set(targets.value);
      let walled = false;
      for (const id of targets.value)
        if (state.combatants[id]!.statuses.some((s) => s.status === 'wall')) walled = true;
      if (walled) {
        reached.add(actor.id);
        if (state.setup.options.wallBounce) {
          const foes = state.order.filter(
            (id) => state.combatants[id]!.side !== actor.side && isStanding(state.combatants[id]!),
          );
          if (foes.length > 1) add('bounce', `1d${foes.length}`);
          for (const id of foes) reached.add(id);
        }
      }
      for (const id of reached) magicRolls(state, actor, id, tech, add);
      break;
    }
    case 'gm-damage':
    case 'gm-heal':
      if (typeof command.amount === 'string') add(`gm:${command.target}`, command.amount);
      break;
    case 'gm-add':
      if (state.phase === 'ticks' && state.round === 1) {
        const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
        const who = gm.newcomerIdentity(
          roster,
          { id: command.newcomer.id, name: command.newcomer.name },
          command.name,
        );
        add(`sp:${who.id}`, '1d8');
      }
      break;
    default:
      break;
  }
  return slots;
}

function weaponRolls(
  state: ZodiacState,
  actor: CombatantState,
  target: string,
  tech: Tech | undefined,
  add: (purpose: string, notation: string, roller: string) => void,
): void {
  add(`hit:${target}`, 'd100', actor.id);
  const { dice, die, power } = weaponDice(actor, tech);
  add(`damage:${target}`, damageNotation(state, dice, die, power), actor.id);
  const carried = [...(actor.sheet.weapon?.inflicts ?? []), ...(tech?.inflicts ?? [])];
  // "Roll 1d100 and add your Magic Accuracy" against the target's Resist: the attacker's.
  if (carried.some((a) => a.check === 'resist')) add(`status:${target}`, 'd100', actor.id);
}

function magicRolls(
  state: ZodiacState,
  actor: CombatantState,
  target: string,
  tech: Tech,
  add: (purpose: string, notation: string, roller: string) => void,
): void {
  const stats = actor.sheet.stats;
  if (tech.damage !== undefined)
    add(
      `damage:${target}`,
      damageNotation(
        state,
        stats.magicDice + tech.damage.dice,
        tech.damage.die ?? 4,
        stats.map + tech.damage.power,
      ),
      actor.id,
    );
  if (tech.heal !== undefined)
    add(
      `heal:${target}`,
      damageNotation(
        state,
        stats.magicDice + tech.heal.dice,
        tech.heal.die ?? 4,
        stats.map + tech.heal.power,
      ),
      actor.id,
    );
  if (tech.inflicts.some((a) => a.check === 'resist')) add(`status:${target}`, 'd100', actor.id);
}
