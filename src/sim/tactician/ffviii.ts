import type { CommandBase, LegalAction } from '../../engine/index.js';
import { REGULAR_ACTION_SHOTS } from '../../rulesets/ffviii/clock.js';
import type { FfviiiCommand } from '../../rulesets/ffviii/commands.js';
import { type CombatantState, type FfviiiState, inFight } from '../../rulesets/ffviii/state.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';
import { type Estimate, type Fighter, poolPrice, RESCUE_VALUE, worth } from './core.js';
import { cachedOdds } from './odds-cache.js';
import type { Tactics } from './tactics.js';

/**
 * Spellshards in stock can be drawn again: one cast costs this share of what spending a pool
 * that never comes back would.
 */
const STOCK_PRICE = 0.25;

function combatant(state: FfviiiState, id: string | undefined): CombatantState | undefined {
  return id !== undefined && Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

function statusKey(c: CombatantState | undefined): string {
  if (c === undefined) return '';
  let key = '';
  for (const s in c.statuses) key += `${s},`;
  return key;
}

/**
 * Chance and damage on a hit depend on the sheets and statuses of both; a summon's cost also on
 * the clock and the summoner's debt. The HP-dependent parts are worked out by the scoring.
 */
function oddsOf(system: AnySystem, state: FfviiiState, command: FfviiiCommand) {
  const actorId = 'actor' in command ? command.actor : undefined;
  const targetId = 'target' in command ? command.target : undefined;
  const actor = combatant(state, actorId);
  let what = '';
  if (command.type === 'attack') what = command.weapon ?? '';
  else if (command.type === 'cast' || command.type === 'draw') what = command.spell;
  else if (command.type === 'use-item') what = command.item;
  else if (command.type === 'summon')
    what = `${command.gf}@${state.shot}/${actor?.shot}/${actor?.debt}`;
  const key = `${command.type}|${actorId}|${what}|${targetId}|${statusKey(actor)}|${statusKey(combatant(state, targetId))}`;
  return cachedOdds(system, state.setup, state, command, key);
}

/** Shots the action takes, as its odds state them (`4 shots`, `8 shots, 2 of them as debt`). */
function shotsOf(odds: ActionOdds | undefined): number {
  const m = odds?.cost === undefined ? null : /^(\d+) shots?/.exec(odds.cost);
  return m === null ? REGULAR_ACTION_SHOTS : Math.max(Number(m[1]), 1);
}

function onHit(odds: ActionOdds | undefined): { chance: number; spread: ActionOdds['damage'] } {
  return { chance: odds?.chance ?? 0, spread: odds?.damage };
}

export const ffviiiTactics: Tactics = {
  fighters(raw) {
    const state = raw as FfviiiState;
    const out: Fighter[] = [];
    for (const id of state.order) {
      const c = state.combatants[id]!;
      out.push({ id, side: c.side, hp: c.hp, maxHp: c.sheet.hp, out: !inFight(c) });
    }
    return out;
  },

  estimate(system, raw, cmd: CommandBase, field): Estimate | undefined {
    const state = raw as FfviiiState;
    const command = cmd as FfviiiCommand;
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
        return { target: command.target, chance, harm: spread, price: 0, time: shotsOf(odds) };
      }
      case 'cast': {
        const spell = state.setup.spells[command.spell];
        const odds = oddsOf(system, state, command);
        const { chance, spread } = onHit(odds);
        if (spell === undefined || spread === undefined) return undefined;
        const price = STOCK_PRICE * poolPrice(1, actor.matrix[command.spell] ?? 0, actor.sheet.hp);
        return {
          target: command.target,
          chance,
          ...(spell.effect === 'heal' ? { heal: spread } : { harm: spread }),
          price,
          time: shotsOf(odds),
        };
      }
      case 'use-item': {
        const item = state.setup.items[command.item];
        const odds = oddsOf(system, state, command);
        const { chance, spread } = onHit(odds);
        if (item === undefined || spread === undefined) return undefined;
        return {
          target: command.target,
          chance,
          ...(item.effect.kind === 'heal' ? { heal: spread } : { harm: spread }),
          price: poolPrice(1, actor.items[command.item] ?? 0, actor.sheet.hp),
          time: shotsOf(odds),
        };
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
          {
            target: on,
            chance,
            ...(spell.effect === 'heal' ? { heal: spread } : { harm: spread }),
            price: 0,
            time: 1,
          },
          field,
        );
        return {
          chance: 0,
          extra: (odds.chance ?? 0) * shards * castWorth,
          price: 0,
          time: shotsOf(odds) + shards * shotsOf(castOdds),
        };
      }
      default:
        return undefined;
    }
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
    const dodged = system.odds(state, dodge.command);
    const taken = system.odds(state, take.command);
    if (dodged === undefined || taken === undefined) return take;
    const me = field.actor;
    const saved =
      (taken.meanDamage ?? 0) -
      (dodged.meanDamage ?? 0) +
      ((taken.knockOut ?? 0) - (dodged.knockOut ?? 0)) * RESCUE_VALUE * me.maxHp;
    const shot = field.threatOf(me.id) / REGULAR_ACTION_SHOTS;
    return saved > shot ? dodge : take;
  },
};
