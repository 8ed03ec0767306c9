import type { CommandBase } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type { ZodiacCommand } from '../../rulesets/zodiac/commands.js';
import { type CombatantState, isFighting, type ZodiacState } from '../../rulesets/zodiac/state.js';
import { type Estimate, type Fighter, poolPrice } from './core.js';
import { cachedOdds } from './odds-cache.js';
import type { Tactics } from './tactics.js';

function combatant(state: ZodiacState, id: string | undefined): CombatantState | undefined {
  return id !== undefined && Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

function sideKey(c: CombatantState | undefined): string {
  if (c === undefined) return '';
  let key = c.defending ? 'D' : '';
  for (const s of c.statuses) key += `${s.status},`;
  return key;
}

/**
 * Odds depend on the sheets, the statuses of both and whether the target defends (which halves
 * what it takes); the knock-out chance on the target's HP, which the scoring applies itself.
 */
function oddsOf(system: AnySystem, state: ZodiacState, command: ZodiacCommand) {
  const actor = 'actor' in command ? command.actor : undefined;
  const target = 'target' in command ? command.target : undefined;
  const what = command.type === 'tech' ? command.tech : command.type === 'item' ? command.item : '';
  const key = `${command.type}|${actor}|${what}|${target}|${sideKey(combatant(state, actor))}|${sideKey(combatant(state, target))}`;
  return cachedOdds(system, state.setup, state, command, key);
}

/** An item used is gone: priced as a share of those left, like any pool. */
function itemPrice(actor: CombatantState, item: string): number {
  return poolPrice(1, actor.items[item] ?? 0, actor.maxHp);
}

export const zodiacTactics: Tactics = {
  fighters(raw) {
    const state = raw as ZodiacState;
    const out: Fighter[] = [];
    for (const id of state.order) {
      const c = state.combatants[id]!;
      out.push({ id, side: c.side, hp: c.hp, maxHp: c.maxHp, out: !isFighting(c) });
    }
    return out;
  },

  estimate(system, raw, cmd: CommandBase): Estimate | undefined {
    const state = raw as ZodiacState;
    const command = cmd as ZodiacCommand;
    if (command.type !== 'attack' && command.type !== 'tech' && command.type !== 'item')
      return undefined;
    const actor = combatant(state, command.actor);
    if (actor === undefined || command.target === undefined) return undefined;
    const odds = oddsOf(system, state, command);
    if (odds === undefined) return undefined;
    const base = {
      target: command.target,
      chance: odds.chance ?? 0,
      time: 1,
      ...(odds.status === undefined ? {} : { status: odds.status }),
    };
    if (command.type === 'attack') {
      return { ...base, price: 0, ...(odds.damage === undefined ? {} : { harm: odds.damage }) };
    }
    if (command.type === 'item') {
      const item = Object.hasOwn(state.setup.items, command.item)
        ? state.setup.items[command.item]
        : undefined;
      if (item === undefined || odds.damage === undefined || item.restoreHp === 0) return undefined;
      return { ...base, price: itemPrice(actor, command.item), heal: odds.damage };
    }
    const tech = Object.hasOwn(state.setup.techs, command.tech)
      ? state.setup.techs[command.tech]
      : undefined;
    if (tech === undefined) return undefined;
    const price = poolPrice(tech.mpCost, actor.mp, actor.maxHp);
    if (odds.damage === undefined) return { ...base, price };
    if (tech.heal !== undefined) return { ...base, price, heal: odds.damage };
    if (tech.damage !== undefined) return { ...base, price, harm: odds.damage };
    return { ...base, price };
  },

  threat(system, raw, attacker, defender) {
    const state = raw as ZodiacState;
    const odds = oddsOf(system, state, { type: 'attack', actor: attacker, target: defender });
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
