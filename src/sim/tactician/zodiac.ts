import type { AnySystem } from '../../rulesets/system.js';
import type { ZodiacCommand } from '../../rulesets/zodiac/commands.js';
import { type CombatantState, isFighting, type ZodiacState } from '../../rulesets/zodiac/state.js';
import { curedOf, type Estimate, estimateOf, poolPrice } from './core.js';
import { cachedOdds, conditionOf } from './odds-cache.js';
import { byId, type Estimator, type Tactics } from './tactics.js';

function combatant(state: ZodiacState, id: string | undefined): CombatantState | undefined {
  return byId(state.combatants, id);
}

function statusNames(statuses: readonly { readonly status: string }[]): string {
  let name = '';
  for (const s of statuses) name += `${s.status},`;
  return name;
}

/** A defender takes half: defending is part of the target's condition. */
function condition(c: CombatantState | undefined): string {
  if (c === undefined) return '';
  const statuses = conditionOf(c.statuses, c.statuses.length === 0, statusNames);
  return c.defending ? `D${statuses}` : statuses;
}

/**
 * Odds depend on the sheets, the statuses of both and whether the target defends (which halves
 * what it takes); the knock-out chance on the target's HP, which the scoring applies itself.
 */
function oddsOf(system: AnySystem, state: ZodiacState, command: ZodiacCommand) {
  const actor = 'actor' in command ? command.actor : '';
  const target = 'target' in command ? (command.target ?? '') : '';
  const what = command.type === 'tech' ? command.tech : command.type === 'item' ? command.item : '';
  return cachedOdds(
    system,
    state.setup,
    state,
    command,
    command.type,
    actor,
    what,
    target,
    condition(combatant(state, actor)),
    condition(combatant(state, target)),
  );
}

/** An item used is gone: priced as a share of those left, like any pool. */
function itemPrice(actor: CombatantState, item: string): number {
  return poolPrice(1, actor.items[item] ?? 0, actor.maxHp);
}

/** The HP an Unconscious target wakes with (combat.ts revive); undefined for anyone else. */
function wakesWith(
  revive: { readonly hpPercent: number } | undefined,
  target: CombatantState | undefined,
): number | undefined {
  if (revive === undefined || target === undefined || !target.unconscious) return undefined;
  return Math.max(1, Math.floor((target.maxHp * revive.hpPercent) / 100));
}

function estimate(
  system: AnySystem,
  state: ZodiacState,
  command: ZodiacCommand,
): Estimate | undefined {
  if (command.type !== 'attack' && command.type !== 'tech' && command.type !== 'item')
    return undefined;
  const actor = combatant(state, command.actor);
  if (actor === undefined || command.target === undefined) return undefined;
  const odds = oddsOf(system, state, command);
  if (odds === undefined) return undefined;
  const spread = odds.damage;
  let price = 0;
  let harm = command.type === 'attack' ? spread : undefined;
  let heal: typeof spread;
  let cures: number | undefined;
  let revives: number | undefined;
  const target = combatant(state, command.target);
  if (command.type === 'item') {
    const item = Object.hasOwn(state.setup.items, command.item)
      ? state.setup.items[command.item]
      : undefined;
    if (item === undefined) return undefined;
    // An Antidote is worth the Poison it takes off, a Potion the HP it gives back, a Phoenix
    // Down the ally it brings back.
    cures = curedOf(item.cures, target?.statuses ?? []);
    revives = wakesWith(item.revive, target);
    const heals = spread !== undefined && item.restoreHp > 0;
    if (!heals && cures === undefined && revives === undefined) return undefined;
    price = itemPrice(actor, command.item);
    if (heals) heal = spread;
  } else if (command.type === 'tech') {
    const tech = Object.hasOwn(state.setup.techs, command.tech)
      ? state.setup.techs[command.tech]
      : undefined;
    if (tech === undefined) return undefined;
    price = poolPrice(tech.mpCost, actor.mp, actor.maxHp);
    if (tech.heal !== undefined) heal = spread;
    else if (tech.damage !== undefined) harm = spread;
    cures = curedOf(tech.cures, target?.statuses ?? []);
    revives = wakesWith(tech.revive, target);
  }
  return estimateOf({
    target: command.target,
    chance: odds.chance ?? 0,
    harm,
    heal,
    status: odds.status,
    cures,
    revives,
    price,
    time: 1,
  });
}

export const zodiacTactics: Tactics = {
  ids: (raw) => (raw as ZodiacState).order,

  fighter(raw, id) {
    const c = combatant(raw as ZodiacState, id);
    if (c === undefined) return undefined;
    return { id, side: c.side, hp: c.hp, maxHp: c.maxHp, out: !isFighting(c) };
  },

  estimator(system, raw): Estimator {
    const state = raw as ZodiacState;
    return (cmd) => estimate(system, state, cmd as ZodiacCommand);
  },

  threat(system, raw, attacker, defender) {
    const state = raw as ZodiacState;
    const odds = oddsOf(system, state, { type: 'attack', actor: attacker, target: defender });
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
