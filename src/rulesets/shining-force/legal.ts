import type { LegalAction } from '../../engine/index.js';
import type { ShiningForceCommand } from './commands.js';
import { BAG_SLOTS } from './decide.js';
import { ADJACENT, armament, canCastAny, derived } from './derived.js';
import {
  coversCell,
  distanceMaps,
  distanceTo,
  inReach,
  movesOf,
  patternTable,
  terrainOf,
} from './field.js';
import { nameOfIndex } from './grid/cells.js';
import type { Effect } from './model.js';
import { areEnemies, type CombatantState, currentActor, type ShiningForceState } from './state.js';

type Action = LegalAction<ShiningForceCommand>;

/**
 * A legal action names only sheets, items, spells and cells, which never change in a battle:
 * each is made once per sheet and shared (commands are plain data nobody changes), as
 * simulations ask for the legal actions before every command. Kept by the ids it names, never
 * by a key built of them: building and hashing a new string for every action offered was the
 * costliest part of listing them.
 */
interface Cache {
  /** By weapon name, then target id. */
  readonly attacks: Map<string, Map<string, Action>>;
  /** By cell. */
  readonly moves: (Action | undefined)[];
  /** By target id, then cell. */
  readonly advances: Map<string, (Action | undefined)[]>;
  /** By spell or item id, then target id. */
  readonly casts: Map<string, Map<string, Action>>;
  readonly uses: Map<string, Map<string, Action>>;
  /** By item id, then the receiver's id. */
  readonly gives: Map<string, Map<string, Action>>;
  /** By item id. */
  readonly equips: Map<string, Action>;
  stay: Action | undefined;
}
const CACHES = new WeakMap<object, Cache>();

function cacheOf(sheet: object): Cache {
  let cache = CACHES.get(sheet);
  if (cache === undefined) {
    cache = {
      attacks: new Map(),
      moves: [],
      advances: new Map(),
      casts: new Map(),
      uses: new Map(),
      gives: new Map(),
      equips: new Map(),
      stay: undefined,
    };
    CACHES.set(sheet, cache);
  }
  return cache;
}

function once(map: Map<string, Action>, key: string, make: () => Action): Action {
  let action = map.get(key);
  if (action === undefined) {
    action = make();
    map.set(key, action);
  }
  return action;
}

function inner(map: Map<string, Map<string, Action>>, key: string): Map<string, Action> {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}

const BEGIN: LegalAction<ShiningForceCommand> = {
  label: 'Begin the battle (roll turn order)',
  command: { type: 'begin-battle' },
};

/**
 * What the combatant whose turn it is can do: attacks on enemies in reach first, then (before
 * moving) an advance on each enemy out of reach, spells, items, equipment, Stay, and every other
 * cell it can move to. Stay is always there, so a battle never stalls.
 */
export function legalActions(state: ShiningForceState): LegalAction<ShiningForceCommand>[] {
  if (state.result !== null) return [];
  if (state.round === 0) return [BEGIN];
  const actor = currentActor(state);
  if (actor === undefined) return [];
  const { setup } = state;
  const width = terrainOf(setup).width;
  const cell = (index: number) => nameOfIndex(width, index);
  const actions: LegalAction<ShiningForceCommand>[] = [];
  const living: CombatantState[] = [];
  for (const id of state.ids) {
    const c = state.combatants[id]!;
    if (!c.defeated && c.id !== actor.id) living.push(c);
  }
  const sheet = actor.sheet;
  const cache = cacheOf(sheet);
  const arms = armament(setup, actor);
  if (arms !== undefined) {
    for (const target of living) {
      if (!areEnemies(actor, target) || !inReach(setup, arms.range, actor.cell, target.cell))
        continue;
      actions.push(
        once(inner(cache.attacks, arms.name), target.id, () => ({
          label: `Attack ${target.sheet.name} with ${arms.name}`,
          command: { type: 'attack', actor: actor.id, target: target.id },
        })),
      );
    }
  }
  const moves =
    state.step === 'move' ? movesOf(state, actor, derived(setup, actor).movement) : undefined;
  const advances: number[] = [];
  if (moves !== undefined) {
    const reach = arms === undefined ? undefined : patternTable(arms.range);
    const distances = distanceMaps(setup);
    for (const target of living) {
      if (!areEnemies(actor, target)) continue;
      if (reach !== undefined && coversCell(reach, width, actor.cell, target.cell)) continue;
      // The nearest cell that puts the target in reach (the cheapest to get to, for an
      // archer that keeps its distance); failing that, the one that closes in the most.
      const distance = distanceTo(setup, distances, target.cell);
      let best = actor.cell;
      let bestDistance = distance[actor.cell]!;
      let bestCost = Number.POSITIVE_INFINITY;
      for (const to of moves.cells) {
        const cost = moves.costs[to]!;
        if (reach !== undefined && coversCell(reach, width, to, target.cell)) {
          if (bestCost === Number.POSITIVE_INFINITY || cost < bestCost) {
            best = to;
            bestCost = cost;
          }
          continue;
        }
        if (bestCost !== Number.POSITIVE_INFINITY) continue;
        const d = distance[to]!;
        if (d >= 0 && (bestDistance < 0 || d < bestDistance)) {
          best = to;
          bestDistance = d;
        }
      }
      if (best === actor.cell) continue;
      advances.push(best);
      let byCell = cache.advances.get(target.id);
      if (byCell === undefined) {
        byCell = [];
        cache.advances.set(target.id, byCell);
      }
      let advance = byCell[best];
      if (advance === undefined) {
        advance = {
          label: `Move ${sheet.name} to ${cell(best)} (toward ${target.sheet.name})`,
          command: { type: 'move', actor: actor.id, to: cell(best), target: target.id },
          group: 'move',
        };
        byCell[best] = advance;
      }
      actions.push(advance);
    }
  }
  const offer = (kind: 'cast' | 'use', id: string, name: string, effect: Effect): void => {
    const range = setup.patterns[effect.range] ?? ADJACENT;
    // The actor first when it may aim at its own side, then everyone else: no new list.
    for (let i = effect.aim === 'ally' ? -1 : 0; i < living.length; i++) {
      const target = i < 0 ? actor : living[i]!;
      if (target.defeated || areEnemies(actor, target) !== (effect.aim === 'enemy')) continue;
      if (!inReach(setup, range, actor.cell, target.cell)) continue;
      actions.push(
        once(inner(kind === 'cast' ? cache.casts : cache.uses, id), target.id, () => ({
          label: `${kind === 'cast' ? 'Cast' : 'Use'} ${name} on ${target.sheet.name}`,
          command:
            kind === 'cast'
              ? { type: 'cast', actor: actor.id, spell: id, target: target.id }
              : { type: 'use', actor: actor.id, item: id, target: target.id },
        })),
      );
    }
  };
  if (canCastAny(setup, actor)) {
    for (const id of sheet.spells) {
      const spell = setup.spells[id];
      if (spell !== undefined && spell.mpCost <= actor.mp) offer('cast', id, spell.name, spell);
    }
  }
  const seen = new Set<string>();
  for (const held of actor.items) {
    if (seen.has(held.item)) continue;
    seen.add(held.item);
    const item = setup.items[held.item];
    if (item?.use !== undefined) offer('use', held.item, item.name, item.use);
  }
  if (actor.force) {
    for (const to of living) {
      if (!to.force || areEnemies(actor, to) || !inReach(setup, ADJACENT, actor.cell, to.cell))
        continue;
      if (to.items.filter((h) => !h.equipped).length >= BAG_SLOTS) continue;
      for (const held of actor.items) {
        if (held.equipped) continue;
        const item = setup.items[held.item];
        actions.push(
          once(inner(cache.gives, held.item), to.id, () => ({
            label: `Give ${item?.name ?? held.item} to ${to.sheet.name}`,
            command: { type: 'give', actor: actor.id, item: held.item, to: to.id },
          })),
        );
      }
    }
  }
  cache.stay ??= { label: 'Stay', command: { type: 'stay', actor: actor.id } };
  actions.push(cache.stay);
  // Changing equipment is free and does not end the turn: listed after Stay, so a policy that
  // takes the first thing offered ends its turn instead of swapping weapons forever.
  if (actor.force) {
    for (const held of actor.items) {
      const item = setup.items[held.item];
      if (item === undefined || held.equipped || item.type === 'item') continue;
      const cursed = actor.items.some(
        (h) =>
          h.equipped &&
          setup.items[h.item]?.type === item.type &&
          setup.items[h.item]?.curse !== undefined,
      );
      if (cursed) continue;
      actions.push(
        once(cache.equips, held.item, () => ({
          label: `Equip ${item.name}`,
          command: { type: 'equip', actor: actor.id, item: held.item },
        })),
      );
    }
  }
  if (moves !== undefined) {
    for (const to of moves.cells) {
      if (to === actor.cell || (advances.length > 0 && advances.includes(to))) continue;
      let action = cache.moves[to];
      if (action === undefined) {
        action = {
          label: `Move ${sheet.name} to ${cell(to)}`,
          command: { type: 'move', actor: actor.id, to: cell(to) },
          group: 'move',
        };
        cache.moves[to] = action;
      }
      actions.push(action);
    }
  }
  return actions;
}
