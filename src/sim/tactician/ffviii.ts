import type { CommandBase, LegalAction } from '../../engine/index.js';
import { REGULAR_ACTION_SHOTS } from '../../rulesets/ffviii/clock.js';
import type { FfviiiCommand } from '../../rulesets/ffviii/commands.js';
import {
  type CombatantState,
  type FfviiiState,
  inFight,
  type PendingAttack,
} from '../../rulesets/ffviii/state.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';
import {
  atLeast,
  cappedMean,
  type Estimate,
  estimateOf,
  type Field,
  poolPrice,
  RESCUE_VALUE,
  worth,
} from './core.js';
import { cachedOdds, conditionOf } from './odds-cache.js';
import { byId, type Estimator, type Tactics } from './tactics.js';

/**
 * Spellshards in stock can be drawn again: one cast costs this share of what spending a pool
 * that never comes back would.
 */
const STOCK_PRICE = 0.25;

function combatant(state: FfviiiState, id: string | undefined): CombatantState | undefined {
  return byId(state.combatants, id);
}

function statusNames(statuses: Readonly<Record<string, unknown>>): string {
  let name = '';
  for (const s in statuses) name += `${s},`;
  return name;
}

function hasNone(statuses: Readonly<Record<string, unknown>>): boolean {
  for (const _ in statuses) return false;
  return true;
}

function condition(c: CombatantState | undefined): string {
  return c === undefined ? '' : conditionOf(c.statuses, hasNone(c.statuses), statusNames);
}

/**
 * Chance and damage on a hit depend on the sheets and statuses of both; a summon's cost also on
 * the clock and the summoner's debt. The HP-dependent parts are worked out by the scoring, but
 * for a heal, whose odds give the HP it restores (at most what the target lacks): that answer
 * is kept by the target's HP too.
 */
function oddsOf(system: AnySystem, state: FfviiiState, command: FfviiiCommand) {
  const actorId = 'actor' in command ? command.actor : '';
  const targetId = 'target' in command ? (command.target ?? '') : '';
  const actor = combatant(state, actorId);
  const target = combatant(state, targetId);
  const heal =
    (command.type === 'cast' && state.setup.spells[command.spell]?.effect === 'heal') ||
    (command.type === 'use-item' && state.setup.items[command.item]?.effect.kind === 'heal');
  let what = '';
  if (command.type === 'attack') what = command.weapon ?? '';
  else if (command.type === 'cast' || command.type === 'draw') what = command.spell;
  else if (command.type === 'use-item') what = command.item;
  else if (command.type === 'summon')
    what = `${command.gf}@${state.shot}/${actor?.shot}/${actor?.debt}`;
  return cachedOdds(
    system,
    state.setup,
    state,
    command,
    command.type,
    actorId,
    what,
    targetId,
    condition(actor),
    condition(target),
    heal ? target?.hp : undefined,
  );
}

/**
 * The odds of dodging or taking the pending attack: chance and damage on a hit depend on what
 * it is, who made it and the statuses of both, not on the clock or the target's HP.
 */
function answerOdds(
  system: AnySystem,
  state: FfviiiState,
  pending: PendingAttack,
  command: CommandBase,
) {
  let what: string;
  if (pending.type === 'attack') what = pending.weapon;
  else if (pending.type === 'cast') what = pending.spell;
  else if (pending.type === 'use-item') what = `${pending.item}/${pending.skill}`;
  else what = pending.gf;
  return cachedOdds(
    system,
    state.setup,
    state,
    command,
    `${command.type}/${pending.type}`,
    pending.actor,
    what,
    pending.target,
    condition(combatant(state, pending.actor)),
    condition(combatant(state, pending.target)),
  );
}

/** Whether the pending attack heals its target: nothing to dodge. */
function heals(state: FfviiiState, pending: PendingAttack): boolean {
  if (pending.type === 'cast') return state.setup.spells[pending.spell]?.effect === 'heal';
  if (pending.type === 'use-item') return state.setup.items[pending.item]?.effect.kind === 'heal';
  return false;
}

const SHOTS = new WeakMap<ActionOdds, number>();

/** Shots the action takes, as its odds state them (`4 shots`, `8 shots, 2 of them as debt`). */
function shotsOf(odds: ActionOdds | undefined): number {
  if (odds === undefined) return REGULAR_ACTION_SHOTS;
  let shots = SHOTS.get(odds);
  if (shots === undefined) {
    const m = odds.cost === undefined ? null : /^(\d+) shots?/.exec(odds.cost);
    shots = m === null ? REGULAR_ACTION_SHOTS : Math.max(Number(m[1]), 1);
    SHOTS.set(odds, shots);
  }
  return shots;
}

function onHit(odds: ActionOdds | undefined): { chance: number; spread: ActionOdds['damage'] } {
  return { chance: odds?.chance ?? 0, spread: odds?.damage };
}

function estimate(
  system: AnySystem,
  state: FfviiiState,
  command: FfviiiCommand,
  field: Field,
): Estimate | undefined {
  const actor = combatant(state, 'actor' in command ? command.actor : undefined);
  if (actor === undefined) return undefined;
  switch (command.type) {
    case 'attack':
    case 'summon': {
      // The damage lands when the target answers (dodge or take it): the odds' meanDamage of
      // the declaration is 0, so the hit chance and the damage on a hit are what count.
      const odds = oddsOf(system, state, command);
      const { chance, spread } = onHit(odds);
      if (spread === undefined) return undefined;
      return estimateOf({
        target: command.target,
        chance,
        harm: spread,
        price: 0,
        time: shotsOf(odds),
      });
    }
    case 'cast': {
      const spell = state.setup.spells[command.spell];
      const odds = oddsOf(system, state, command);
      const { chance, spread } = onHit(odds);
      if (spell === undefined || spread === undefined) return undefined;
      const price = STOCK_PRICE * poolPrice(1, actor.matrix[command.spell] ?? 0, actor.sheet.hp);
      return estimateOf({
        target: command.target,
        chance,
        heal: spell.effect === 'heal' ? spread : undefined,
        harm: spell.effect === 'heal' ? undefined : spread,
        price,
        time: shotsOf(odds),
      });
    }
    case 'use-item': {
      const item = state.setup.items[command.item];
      const odds = oddsOf(system, state, command);
      const { chance, spread } = onHit(odds);
      if (item === undefined || spread === undefined) return undefined;
      return estimateOf({
        target: command.target,
        chance,
        heal: item.effect.kind === 'heal' ? spread : undefined,
        harm: item.effect.kind === 'heal' ? undefined : spread,
        price: poolPrice(1, actor.items[command.item] ?? 0, actor.sheet.hp),
        time: shotsOf(odds),
      });
    }
    case 'draw': {
      // A draw is worth the casts it brings, spread over the shots of drawing and casting
      // them: drawing one shard to cast it is a slower blow, and scores as one.
      const spell = state.setup.spells[command.spell];
      const odds = oddsOf(system, state, command);
      if (spell === undefined || odds === undefined) return undefined;
      const on = spell.effect === 'heal' ? actor.id : command.target;
      const cast: FfviiiCommand = {
        type: 'cast',
        actor: actor.id,
        spell: command.spell,
        target: on,
      };
      const castOdds = oddsOf(system, state, cast);
      const { chance, spread } = onHit(castOdds);
      if (spread === undefined) return undefined;
      const shards = state.setup.options.shardsPerDraw;
      const castWorth = worth(
        estimateOf({
          target: on,
          chance,
          heal: spell.effect === 'heal' ? spread : undefined,
          harm: spell.effect === 'heal' ? undefined : spread,
          price: 0,
          time: 1,
        }),
        field,
      );
      return estimateOf({
        chance: 0,
        extra: (odds.chance ?? 0) * shards * castWorth,
        price: 0,
        time: shotsOf(odds) + shards * shotsOf(castOdds),
      });
    }
    default:
      return undefined;
  }
}

export const ffviiiTactics: Tactics = {
  ids: (raw) => (raw as FfviiiState).order,

  fighter(raw, id) {
    const c = combatant(raw as FfviiiState, id);
    if (c === undefined) return undefined;
    return { id, side: c.side, hp: c.hp, maxHp: c.sheet.hp, out: !inFight(c) };
  },

  estimator(system, raw, field): Estimator {
    const state = raw as FfviiiState;
    return (cmd) => estimate(system, state, cmd as FfviiiCommand, field);
  },

  threat(system, raw, attacker, defender) {
    const state = raw as FfviiiState;
    const odds = oddsOf(system, state, { type: 'attack', actor: attacker, target: defender });
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },

  /**
   * Dodge or take it: a dodge costs the defender a shot, worth what its own blows bring in a
   * shot; it is worth the HP it saves on average, and more when the blow could knock it out.
   */
  choose(system, raw, actions, field): LegalAction<CommandBase> | undefined {
    const state = raw as FfviiiState;
    let dodge: LegalAction<CommandBase> | undefined;
    let take: LegalAction<CommandBase> | undefined;
    for (const a of actions) {
      if (a.command.type === 'dodge') dodge = a;
      else if (a.command.type === 'take-it') take = a;
    }
    if (dodge === undefined || take === undefined) return undefined;
    const pending = state.pending;
    if (pending === null || heals(state, pending)) return take;
    const dodged = answerOdds(system, state, pending, dodge.command);
    const taken = answerOdds(system, state, pending, take.command);
    if (dodged === undefined || taken === undefined) return take;
    // What the blow takes, each way: HP lost on average and the chance it leaves the defender
    // at 0 HP (down once the shot is over).
    const me = field.actor;
    const loss = (o: ActionOdds): number => {
      const chance = o.chance ?? 0;
      const d = o.damage;
      if (d === undefined || chance === 0) return 0;
      return chance * (cappedMean(d, me.hp) + atLeast(d, me.hp) * RESCUE_VALUE * me.maxHp);
    };
    const saved = loss(taken) - loss(dodged);
    const shot = field.threatOf(me.id) / REGULAR_ACTION_SHOTS;
    return saved > shot ? dodge : take;
  },
};
