import type { CommandBase } from '../../engine/index.js';
import type { FfrpgCommand } from '../../rulesets/ffrpg/commands.js';
import { type CombatantState, type FfrpgState, isActive } from '../../rulesets/ffrpg/state.js';
import type { AnySystem } from '../../rulesets/system.js';
import { type Estimate, type Fighter, poolPrice } from './core.js';
import { cachedOdds } from './odds-cache.js';
import type { Tactics } from './tactics.js';

/**
 * A Slow ability lands only when its Charge Time runs out, and the target may be down or healed
 * by then: its effect counts this much of one that lands at once.
 */
const SLOW_DISCOUNT = 0.8;

function statusKey(c: CombatantState | undefined): string {
  if (c === undefined) return '';
  let key = '';
  for (const s of c.statuses) key += `${s.status},`;
  return key;
}

function combatant(state: FfrpgState, id: string | undefined): CombatantState | undefined {
  return id !== undefined && Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

/**
 * The odds of an attack or ability depend on the sheets (fixed in a battle) and the Status
 * Conditions of both sides; the knock-out chance also on the target's HP, which the scoring
 * works out itself, so it is left out of the key.
 */
function oddsOf(system: AnySystem, state: FfrpgState, command: FfrpgCommand) {
  const target = 'target' in command ? command.target : undefined;
  const actor = 'actor' in command ? command.actor : undefined;
  const ability = command.type === 'use-ability' ? command.ability : '';
  const key = `${command.type}|${actor}|${ability}|${target}|${statusKey(combatant(state, actor))}|${statusKey(combatant(state, target))}`;
  return cachedOdds(system, state.setup, state, command, key);
}

export const ffrpgTactics: Tactics = {
  fighters(raw) {
    const state = raw as FfrpgState;
    const out: Fighter[] = [];
    for (const id of state.order) {
      const c = state.combatants[id]!;
      out.push({ id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: !isActive(c) });
    }
    return out;
  },

  estimate(system, raw, cmd: CommandBase, field): Estimate | undefined {
    const state = raw as FfrpgState;
    const command = cmd as FfrpgCommand;
    if (command.type === 'attack') {
      const odds = oddsOf(system, state, command);
      if (odds?.damage === undefined) return undefined;
      return {
        target: command.target,
        chance: odds.chance ?? 0,
        harm: odds.damage,
        ...(odds.status === undefined ? {} : { status: odds.status }),
        price: 0,
        time: 1,
      };
    }
    if (command.type !== 'use-ability') return undefined;
    const actor = combatant(state, command.actor);
    const ability = Object.hasOwn(state.setup.abilities, command.ability)
      ? state.setup.abilities[command.ability]
      : undefined;
    if (actor === undefined || ability === undefined || command.target === undefined)
      return undefined;
    const target = combatant(state, command.target);
    const odds = oddsOf(system, state, command);
    if (odds === undefined || target === undefined) return undefined;
    const slow = ability.type === 'slow' || ability.slow ? SLOW_DISCOUNT : 1;
    const hpCost = Math.floor((actor.sheet.stats.hp * ability.cost.hpPercent) / 100);
    // HP paid is HP the enemy need not take: half its worth, all of it once it leaves the payer
    // within one blow of falling.
    const hpPrice =
      hpCost === 0 ? 0 : actor.hp - hpCost <= field.threatOn(actor.id) ? hpCost * 2 : hpCost * 0.5;
    // A status the target already has gains nothing by landing again.
    const fresh = ability.inflicts.some((a) => !target.statuses.some((s) => s.status === a.status));
    const chance = (odds.chance ?? 0) * slow;
    const estimate: Estimate = {
      target: target.id,
      chance,
      price: poolPrice(ability.mpCost, actor.mp, actor.sheet.stats.hp) + hpPrice,
      time: 1,
      ...(odds.status !== undefined && fresh ? { status: odds.status * slow } : {}),
    };
    if (odds.damage === undefined) return estimate;
    if (ability.heal !== undefined) return { ...estimate, heal: odds.damage };
    if (ability.damage !== undefined) return { ...estimate, harm: odds.damage };
    return estimate;
  },

  threat(system, raw, attacker, defender) {
    const state = raw as FfrpgState;
    const odds = oddsOf(system, state, { type: 'attack', actor: attacker, target: defender });
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
