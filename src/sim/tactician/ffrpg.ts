import type { FfrpgCommand } from '../../rulesets/ffrpg/commands.js';
import { type CombatantState, type FfrpgState, isActive } from '../../rulesets/ffrpg/state.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';
import { curedOf, type Estimate, estimateOf, type Field, poolPrice } from './core.js';
import { cachedOdds, conditionOf, keepOdds, keptOdds, NOT_KEPT } from './odds-cache.js';
import { byId, type Estimator, type Tactics } from './tactics.js';

/**
 * A Slow ability lands only when its Charge Time runs out, and the target may be down or healed
 * by then: its effect counts this much of one that lands at once.
 */
const SLOW_DISCOUNT = 0.8;

function statusNames(statuses: readonly { readonly status: string }[]): string {
  let name = '';
  for (const s of statuses) name += `${s.status},`;
  return name;
}

function condition(c: CombatantState | undefined): string {
  return c === undefined ? '' : conditionOf(c.statuses, c.statuses.length === 0, statusNames);
}

function combatant(state: FfrpgState, id: string | undefined): CombatantState | undefined {
  return byId(state.combatants, id);
}

/**
 * The odds of an attack or ability depend on the sheets (fixed in a battle) and the Status
 * Conditions of both sides; the knock-out chance also on the target's HP, which the scoring
 * works out itself, so it is left out of the key.
 */
function oddsOf(system: AnySystem, state: FfrpgState, command: FfrpgCommand) {
  const target = 'target' in command ? (command.target ?? '') : '';
  const actor = 'actor' in command ? command.actor : '';
  const ability = command.type === 'use-ability' ? command.ability : '';
  return cachedOdds(
    system,
    state.setup,
    state,
    command,
    command.type,
    actor,
    ability,
    target,
    condition(combatant(state, actor)),
    condition(combatant(state, target)),
  );
}

/**
 * The odds of `attacker`'s attack on `defender`, as oddsOf finds them, kept by the two sheets in
 * front of the tree (odds-cache.ts, keptOdds): the tree's key is fixed by the ids and both
 * statuses lists. Every decision weighs the blows of both sides against each other.
 */
function attackOdds(
  system: AnySystem,
  state: FfrpgState,
  attacker: CombatantState,
  defender: CombatantState,
): ActionOdds | undefined {
  const { setup } = state;
  const kept = keptOdds(
    setup,
    attacker.sheet,
    defender.sheet,
    attacker.statuses,
    defender.statuses,
    undefined,
    attacker.id,
    defender.id,
  );
  if (kept !== NOT_KEPT) return kept;
  const odds = oddsOf(system, state, { type: 'attack', actor: attacker.id, target: defender.id });
  keepOdds(
    setup,
    attacker.sheet,
    defender.sheet,
    attacker.statuses,
    defender.statuses,
    undefined,
    attacker.id,
    defender.id,
    odds,
  );
  return odds;
}
function estimate(
  system: AnySystem,
  state: FfrpgState,
  command: FfrpgCommand,
  field: Field,
): Estimate | undefined {
  if (command.type === 'attack') {
    const a = combatant(state, command.actor);
    const d = combatant(state, command.target);
    const odds =
      a === undefined || d === undefined
        ? oddsOf(system, state, command)
        : attackOdds(system, state, a, d);
    if (odds?.damage === undefined) return undefined;
    return estimateOf({
      target: command.target,
      chance: odds.chance ?? 0,
      harm: odds.damage,
      status: odds.status,
      price: 0,
      time: 1,
    });
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
  const spread = odds.damage;
  return estimateOf({
    target: target.id,
    chance: (odds.chance ?? 0) * slow,
    heal: spread !== undefined && ability.heal !== undefined ? spread : undefined,
    harm:
      spread !== undefined && ability.heal === undefined && ability.damage !== undefined
        ? spread
        : undefined,
    status: odds.status !== undefined && fresh ? odds.status * slow : undefined,
    cures: curedOf(ability.cures, target.statuses),
    price: poolPrice(ability.mpCost, actor.mp, actor.sheet.stats.hp) + hpPrice,
    time: 1,
  });
}

export const ffrpgTactics: Tactics = {
  ids: (raw) => (raw as FfrpgState).order,

  fighter(raw, id) {
    const c = combatant(raw as FfrpgState, id);
    if (c === undefined) return undefined;
    return { id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: !isActive(c) };
  },

  estimator(system, raw, field): Estimator {
    const state = raw as FfrpgState;
    return (cmd) => estimate(system, state, cmd as FfrpgCommand, field);
  },

  threat(system, raw, attacker, defender) {
    const state = raw as FfrpgState;
    const a = combatant(state, attacker);
    const d = combatant(state, defender);
    const odds =
      a === undefined || d === undefined
        ? oddsOf(system, state, { type: 'attack', actor: attacker, target: defender })
        : attackOdds(system, state, a, d);
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
