import type { CommandBase } from '../../engine/index.js';
import type { ShiningForceCommand } from '../../rulesets/shining-force/commands.js';
import { armament, derived } from '../../rulesets/shining-force/derived.js';
import { inReach, terrainOf } from '../../rulesets/shining-force/field.js';
import { indexOf, parseCellName } from '../../rulesets/shining-force/grid/cells.js';
import type { Offsets } from '../../rulesets/shining-force/grid/patterns.js';
import {
  areEnemies,
  type CombatantState,
  type ShiningForceState,
} from '../../rulesets/shining-force/state.js';
import type { AnySystem } from '../../rulesets/system.js';
import { type Estimate, type Field, type Fighter, poolPrice, RESCUE_VALUE, worth } from './core.js';
import { cachedOdds } from './odds-cache.js';
import type { Tactics } from './tactics.js';

/** HP-equivalent of each square closer to the nearest enemy, when none is in reach yet. */
const APPROACH = 0.5;
/** A cell a second (third...) enemy can reach counts this share of that enemy's blow. */
const EXPOSURE = 0.5;

function combatant(state: ShiningForceState, id: string | undefined): CombatantState | undefined {
  return id !== undefined && Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

function statusKey(c: CombatantState | undefined): string {
  if (c === undefined) return '';
  let key = '';
  for (const s of c.statuses) key += `${s.status},`;
  return key;
}

/**
 * Chance and damage depend on the sheets, the equipment and the statuses of both (Shining Force
 * has no land effect here); not on where the attacker stands, so one answer serves every cell.
 */
function oddsOf(system: AnySystem, state: ShiningForceState, command: ShiningForceCommand) {
  const actorId = 'actor' in command ? command.actor : undefined;
  const targetId = 'target' in command ? command.target : undefined;
  const actor = combatant(state, actorId);
  let what = '';
  if (command.type === 'cast') what = command.spell;
  else if (command.type === 'use') what = command.item;
  else if (command.type === 'attack') what = armament(state.setup, actor!)?.name ?? '';
  const key = `${command.type}|${actorId}|${what}|${targetId}|${statusKey(actor)}|${statusKey(combatant(state, targetId))}`;
  return cachedOdds(system, state.setup, state, command, key);
}

function reachOf(offsets: Offsets): number {
  let r = 0;
  for (const [dx, dy] of offsets) r = Math.max(r, Math.abs(dx) + Math.abs(dy));
  return r;
}

function attackEstimate(
  system: AnySystem,
  state: ShiningForceState,
  actor: CombatantState,
  target: string,
): Estimate | undefined {
  const odds = oddsOf(system, state, { type: 'attack', actor: actor.id, target });
  if (odds?.damage === undefined) return undefined;
  return {
    target,
    chance: odds.chance ?? 0,
    harm: odds.damage,
    ...(odds.status === undefined ? {} : { status: odds.status }),
    price: 0,
    time: 1,
  };
}

/**
 * What standing on `cell` risks until the actor's next turn: the blows of the enemies that can
 * reach it (by their movement and reach, as the crow walks), one enemy taken as a given and
 * every further one counted, and the actor's fall when together they can take all its HP.
 */
function exposure(
  system: AnySystem,
  state: ShiningForceState,
  actor: CombatantState,
  cell: number,
): number {
  const width = terrainOf(state.setup).width;
  const x = cell % width;
  const y = (cell - x) / width;
  let sum = 0;
  let strongest = 0;
  for (const id of state.ids) {
    const e = state.combatants[id]!;
    if (e.defeated || !areEnemies(actor, e)) continue;
    const arms = armament(state.setup, e);
    if (arms === undefined) continue;
    const ex = e.cell % width;
    const ey = (e.cell - ex) / width;
    const d = Math.abs(ex - x) + Math.abs(ey - y);
    if (d > derived(state.setup, e).movement + reachOf(arms.range)) continue;
    const odds = oddsOf(system, state, { type: 'attack', actor: e.id, target: actor.id });
    const blow = (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
    sum += blow;
    strongest = Math.max(strongest, blow);
  }
  let risk = EXPOSURE * (sum - strongest);
  if (sum >= actor.hp) risk += RESCUE_VALUE * 0.5 * actor.sheet.stats.hp;
  return risk;
}

function nearestEnemy(state: ShiningForceState, actor: CombatantState, cell: number): number {
  const width = terrainOf(state.setup).width;
  const x = cell % width;
  const y = (cell - x) / width;
  let best = Number.POSITIVE_INFINITY;
  for (const id of state.ids) {
    const e = state.combatants[id]!;
    if (e.defeated || !areEnemies(actor, e)) continue;
    const ex = e.cell % width;
    best = Math.min(best, Math.abs(ex - x) + Math.abs((e.cell - ex) / width - y));
  }
  return best;
}

/** Where the actor would stand: a move's cell, else where it is. */
function cellIndex(state: ShiningForceState, name: string): number | undefined {
  const point = parseCellName(name);
  return point === undefined ? undefined : indexOf(terrainOf(state.setup).width, point);
}

export const shiningForceTactics: Tactics = {
  fighters(raw) {
    const state = raw as ShiningForceState;
    const out: Fighter[] = [];
    for (const id of state.ids) {
      const c = state.combatants[id]!;
      out.push({ id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: c.defeated });
    }
    return out;
  },

  estimate(system, raw, cmd: CommandBase, field: Field): Estimate | undefined {
    const state = raw as ShiningForceState;
    const command = cmd as ShiningForceCommand;
    if (!('actor' in command)) return undefined;
    const actor = combatant(state, command.actor);
    if (actor === undefined) return undefined;
    // Equipment changes and gifts do not end the turn: never chosen, so a turn always ends.
    if (
      command.type === 'equip' ||
      command.type === 'unequip' ||
      command.type === 'drop' ||
      command.type === 'give'
    )
      return { chance: 0, price: Number.POSITIVE_INFINITY, time: 1 };
    // Before moving, every option is also a choice of where to end the turn.
    const moving = state.step === 'move';
    if (command.type === 'move') {
      const to = cellIndex(state, command.to);
      if (to === undefined) return undefined;
      const arms = armament(state.setup, actor);
      let best = 0;
      let reaches = false;
      if (arms !== undefined) {
        for (const id of state.ids) {
          const t = state.combatants[id]!;
          if (t.defeated || !areEnemies(actor, t) || !inReach(state.setup, arms.range, to, t.cell))
            continue;
          reaches = true;
          const e = attackEstimate(system, state, actor, t.id);
          if (e !== undefined) best = Math.max(best, worth(e, field));
        }
      }
      const closer = reaches
        ? 0
        : APPROACH * (nearestEnemy(state, actor, actor.cell) - nearestEnemy(state, actor, to));
      return {
        chance: 0,
        extra: best + closer - exposure(system, state, actor, to),
        price: 0,
        time: 1,
      };
    }
    const here = moving ? exposure(system, state, actor, actor.cell) : 0;
    if (command.type === 'attack') {
      const e = attackEstimate(system, state, actor, command.target);
      return e === undefined ? undefined : { ...e, extra: -here };
    }
    if (command.type === 'stay') return { chance: 0, extra: -here, price: 0, time: 1 };
    if (command.type !== 'cast' && command.type !== 'use') return undefined;
    const odds = oddsOf(system, state, command);
    const effect =
      command.type === 'cast'
        ? state.setup.spells[command.spell]
        : state.setup.items[command.item]?.use;
    if (odds === undefined || effect === undefined) return undefined;
    const price =
      command.type === 'cast'
        ? poolPrice(state.setup.spells[command.spell]?.mpCost ?? 0, actor.mp, actor.sheet.stats.hp)
        : poolPrice(
            1,
            actor.items.filter((h) => h.item === command.item).length,
            actor.sheet.stats.hp,
          );
    const spread = odds.damage;
    return {
      target: command.target,
      chance: odds.chance ?? 0,
      ...(spread === undefined
        ? {}
        : effect.heal !== undefined
          ? { heal: spread }
          : effect.damage !== undefined
            ? { harm: spread }
            : {}),
      ...(odds.status === undefined ? {} : { status: odds.status }),
      extra: -here,
      price,
      time: 1,
    };
  },

  threat(system, raw, attacker, defender) {
    const state = raw as ShiningForceState;
    const odds = oddsOf(system, state, { type: 'attack', actor: attacker, target: defender });
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
