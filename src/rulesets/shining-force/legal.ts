import type { LegalAction } from '../../engine/index.js';
import type { ShiningForceCommand } from './commands.js';
import { BAG_SLOTS } from './decide.js';
import { ADJACENT, armament, canCastAny, derived } from './derived.js';
import {
  coversCell,
  distanceMaps,
  distanceTo,
  inReach,
  type Moves,
  movesOf,
  patternTable,
  terrainOf,
} from './field.js';
import { nameOfIndex } from './grid/cells.js';
import type { Terrain } from './grid/paths.js';
import type { Offsets } from './grid/patterns.js';
import type { Effect, ShiningForceSetup } from './model.js';
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

/** A spell or an item the actor may use now, and whom it may be aimed at, in the listed order. */
export interface EffectOption {
  readonly kind: 'cast' | 'use';
  readonly id: string;
  readonly name: string;
  readonly targets: readonly CombatantState[];
}

/**
 * What the combatant whose turn it is may do, before any of it is written out as a command: the
 * legal actions list it, and a simulator's policy scores it as it stands (every cell of the move
 * as one group, not an action each). In the order the actions are listed.
 */
export interface Options {
  readonly actor: CombatantState;
  /** Everyone else still in the battle, in the setup's order. */
  readonly living: readonly CombatantState[];
  /** Those of them it fights against, in the same order. */
  readonly enemies: readonly CombatantState[];
  /** Enemies its weapon reaches from where it stands. */
  readonly attacks: readonly CombatantState[];
  /** Before moving: where it may end its move; undefined once it has moved (or is Frozen). */
  readonly moves: Moves | undefined;
  /** Per enemy out of reach, the cell an advance on it ends on (`advanceTargets[i]`). */
  readonly advanceTargets: readonly CombatantState[];
  readonly advanceCells: readonly number[];
  readonly effects: readonly EffectOption[];
}

/**
 * An advance on `target`: the cell that puts it in reach at the least movement cost (the first
 * in reading order among equals; an archer keeps its distance); -1 when no cell does. Found
 * from the target's side, one cell per offset of the weapon's range, not by trying every cell.
 */
function cheapestInReach(moves: Moves, range: Offsets, terrain: Terrain, target: number): number {
  const { width, height } = terrain;
  const tx = target % width;
  const ty = (target - tx) / width;
  let best = -1;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let i = 0; i < range.length; i++) {
    const offset = range[i]!;
    const x = tx - offset[0];
    const y = ty - offset[1];
    if (x < 0 || x >= width || y < 0 || y >= height) continue;
    const cell = y * width + x;
    const cost = moves.costs[cell]!;
    if (cost < 0) continue;
    if (cost < bestCost || (cost === bestCost && cell < best)) {
      best = cell;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Failing a cell in reach, the one that closes in the most on the target (`distance`, by
 * movement cost; the first in reading order among equals), `from` itself when none is closer.
 */
function closest(moves: Moves, distance: Int32Array, from: number): number {
  let best = from;
  let bestDistance = distance[from]!;
  for (const to of moves.cells) {
    const d = distance[to]!;
    if (d >= 0 && (bestDistance < 0 || d < bestDistance)) {
      best = to;
      bestDistance = d;
    }
  }
  return best;
}

/** Adds `effect` to `effects` when someone in its range may be aimed at. */
function offer(
  effects: EffectOption[],
  setup: ShiningForceSetup,
  width: number,
  actor: CombatantState,
  living: readonly CombatantState[],
  kind: 'cast' | 'use',
  id: string,
  name: string,
  effect: Effect,
): void {
  const range = patternTable(setup.patterns[effect.range] ?? ADJACENT);
  const targets: CombatantState[] = [];
  // The actor first when it may aim at its own side, then everyone else: no new list.
  for (let i = effect.aim === 'ally' ? -1 : 0; i < living.length; i++) {
    const target = i < 0 ? actor : living[i]!;
    if (target.defeated || areEnemies(actor, target) !== (effect.aim === 'enemy')) continue;
    if (coversCell(range, width, actor.cell, target.cell)) targets.push(target);
  }
  if (targets.length > 0) effects.push({ kind, id, name, targets });
}

/** The options of the combatant whose turn it is; undefined when nobody's turn it is. */
export function options(state: ShiningForceState): Options | undefined {
  if (state.result !== null || state.round === 0) return undefined;
  const actor = currentActor(state);
  if (actor === undefined) return undefined;
  const { setup } = state;
  const terrain = terrainOf(setup);
  const width = terrain.width;
  const living: CombatantState[] = [];
  const enemies: CombatantState[] = [];
  for (const c of state.combatants) {
    if (c.defeated || c.id === actor.id) continue;
    living.push(c);
    if (areEnemies(actor, c)) enemies.push(c);
  }
  const sheet = actor.sheet;
  const arms = armament(setup, actor);
  const attacks: CombatantState[] = [];
  // Enemies out of reach, as an advance takes them.
  const outOfReach: CombatantState[] = [];
  // Each pattern's table and the field's width looked up once, not once a target.
  const reach = arms === undefined ? undefined : patternTable(arms.range);
  for (const target of enemies) {
    if (reach !== undefined && coversCell(reach, width, actor.cell, target.cell))
      attacks.push(target);
    else outOfReach.push(target);
  }
  const moves =
    state.step === 'move'
      ? movesOf(state, actor, derived(setup, actor).movement, living)
      : undefined;
  const advanceTargets: CombatantState[] = [];
  const advanceCells: number[] = [];
  if (moves !== undefined) {
    const distances = distanceMaps(setup);
    for (const target of outOfReach) {
      const best =
        arms === undefined ? -1 : cheapestInReach(moves, arms.range, terrain, target.cell);
      const to =
        best >= 0 ? best : closest(moves, distanceTo(setup, distances, target.cell), actor.cell);
      if (to === actor.cell) continue;
      advanceTargets.push(target);
      advanceCells.push(to);
    }
  }
  const effects: EffectOption[] = [];
  if (canCastAny(setup, actor)) {
    for (const id of sheet.spells) {
      const spell = setup.spells[id];
      if (spell !== undefined && spell.mpCost <= actor.mp)
        offer(effects, setup, width, actor, living, 'cast', id, spell.name, spell);
    }
  }
  for (let i = 0; i < actor.items.length; i++) {
    const held = actor.items[i]!;
    let first = true;
    for (let j = 0; j < i; j++) if (actor.items[j]!.item === held.item) first = false;
    if (!first) continue;
    const item = setup.items[held.item];
    if (item?.use !== undefined)
      offer(effects, setup, width, actor, living, 'use', held.item, item.name, item.use);
  }
  return { actor, living, enemies, attacks, moves, advanceTargets, advanceCells, effects };
}

export function attackAction(
  actor: CombatantState,
  weapon: string,
  target: CombatantState,
): Action {
  return once(inner(cacheOf(actor.sheet).attacks, weapon), target.id, () => ({
    label: `Attack ${target.sheet.name} with ${weapon}`,
    command: { type: 'attack', actor: actor.id, target: target.id },
  }));
}

export function advanceAction(
  width: number,
  actor: CombatantState,
  target: CombatantState,
  to: number,
): Action {
  const cache = cacheOf(actor.sheet);
  let byCell = cache.advances.get(target.id);
  if (byCell === undefined) {
    byCell = [];
    cache.advances.set(target.id, byCell);
  }
  let advance = byCell[to];
  if (advance === undefined) {
    const cell = nameOfIndex(width, to);
    advance = {
      label: `Move to ${cell} (toward ${target.sheet.name})`,
      command: { type: 'move', actor: actor.id, to: cell, target: target.id },
      group: 'move',
    };
    byCell[to] = advance;
  }
  return advance;
}

export function effectAction(
  actor: CombatantState,
  effect: EffectOption,
  target: CombatantState,
): Action {
  const cache = cacheOf(actor.sheet);
  return once(
    inner(effect.kind === 'cast' ? cache.casts : cache.uses, effect.id),
    target.id,
    () => ({
      label: `${effect.kind === 'cast' ? 'Cast' : 'Use'} ${effect.name} on ${target.sheet.name}`,
      command:
        effect.kind === 'cast'
          ? { type: 'cast', actor: actor.id, spell: effect.id, target: target.id }
          : { type: 'use', actor: actor.id, item: effect.id, target: target.id },
    }),
  );
}

export function stayAction(actor: CombatantState): Action {
  const cache = cacheOf(actor.sheet);
  cache.stay ??= { label: 'Stay', command: { type: 'stay', actor: actor.id } };
  return cache.stay;
}

export function moveAction(width: number, actor: CombatantState, to: number): Action {
  const cache = cacheOf(actor.sheet);
  let action = cache.moves[to];
  if (action === undefined) {
    const cell = nameOfIndex(width, to);
    action = {
      label: `Move to ${cell}`,
      command: { type: 'move', actor: actor.id, to: cell },
      group: 'move',
    };
    cache.moves[to] = action;
  }
  return action;
}

/**
 * What the combatant whose turn it is can do: attacks on enemies in reach first, then (before
 * moving) an advance on each enemy out of reach, spells, items, gifts, Stay, equipment, and
 * every other cell it can move to. Stay is always there, so a battle never stalls. Every action
 * is the one actor's, so none repeats its name ("Move to E4 (toward Max)", not "Move Dark Mage
 * to E4 ..."): the screen already says whose turn it is, and the command names the actor.
 */
export function legalActions(state: ShiningForceState): LegalAction<ShiningForceCommand>[] {
  if (state.result !== null) return [];
  if (state.round === 0) return [BEGIN];
  const o = options(state);
  if (o === undefined) return [];
  const { actor, living } = o;
  const { setup } = state;
  const width = terrainOf(setup).width;
  const cache = cacheOf(actor.sheet);
  const actions: LegalAction<ShiningForceCommand>[] = [];
  if (o.attacks.length > 0) {
    const weapon = armament(setup, actor)!.name;
    for (const target of o.attacks) actions.push(attackAction(actor, weapon, target));
  }
  for (let i = 0; i < o.advanceCells.length; i++)
    actions.push(advanceAction(width, actor, o.advanceTargets[i]!, o.advanceCells[i]!));
  for (const effect of o.effects)
    for (const target of effect.targets) actions.push(effectAction(actor, effect, target));
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
  actions.push(stayAction(actor));
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
  if (o.moves !== undefined) {
    const advances = o.advanceCells;
    for (const to of o.moves.cells) {
      if (to === actor.cell || (advances.length > 0 && advances.includes(to))) continue;
      actions.push(moveAction(width, actor, to));
    }
  }
  return actions;
}
