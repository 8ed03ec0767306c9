import type { CommandBase } from '../../engine/index.js';
import type { ShiningForceCommand } from '../../rulesets/shining-force/commands.js';
import { armament, derived, keptBySheetAndItems } from '../../rulesets/shining-force/derived.js';
import { othersInBattle, terrainOf } from '../../rulesets/shining-force/field.js';
import { indexOf, parseCellName } from '../../rulesets/shining-force/grid/cells.js';
import type { Terrain } from '../../rulesets/shining-force/grid/paths.js';
import {
  type Offsets,
  patternTable,
  SPAN,
  SPAN_ROW,
} from '../../rulesets/shining-force/grid/patterns.js';
import {
  advanceAction,
  attackAction,
  effectAction,
  moveAction,
  type Options,
  options,
  stayAction,
} from '../../rulesets/shining-force/legal.js';
import type { Effect } from '../../rulesets/shining-force/model.js';
import {
  areEnemies,
  type CombatantState,
  combatantOf,
  type ShiningForceState,
} from '../../rulesets/shining-force/state.js';
import type { ActionOdds, AnySystem } from '../../rulesets/system.js';
import {
  curedOf,
  type Estimate,
  estimateOf,
  type Field,
  poolPrice,
  RESCUE_VALUE,
  type Spread,
  score,
  worth,
} from './core.js';
import { cachedOdds, conditionOf, keepOdds, keptOdds, NOT_KEPT } from './odds-cache.js';
import type { Estimator, Tactics } from './tactics.js';

/** HP-equivalent of each square closer to the nearest enemy, when none is in reach yet. */
export const APPROACH = 0.5;
/** A cell a second (third...) enemy can reach counts this share of that enemy's blow. */
export const EXPOSURE = 0.5;

function combatant(state: ShiningForceState, id: string | undefined): CombatantState | undefined {
  return id === undefined ? undefined : combatantOf(state, id);
}

/**
 * The last roster's ids: a decision asks for them once for each combatant whose threat it
 * weighs, all of one state. One entry, as field.ts keeps its moves: rosters are never changed.
 */
let lastIds: { combatants: readonly CombatantState[]; ids: readonly string[] } | undefined;

function idsOf(state: ShiningForceState): readonly string[] {
  if (lastIds?.combatants !== state.combatants)
    lastIds = { combatants: state.combatants, ids: state.combatants.map((c) => c.id) };
  return lastIds.ids;
}

function statusNames(statuses: readonly { readonly status: string }[]): string {
  let name = '';
  for (const s of statuses) name += `${s.status},`;
  return name;
}

/** A combatant's statuses as the odds tree names them ('' for none). */
export function condition(c: CombatantState | undefined): string {
  return c === undefined ? '' : conditionOf(c.statuses, c.statuses.length === 0, statusNames);
}

/** What the combatant strikes with, by name: it changes only with its sheet and its items. */
export const weaponName = keptBySheetAndItems((setup, c) => armament(setup, c)?.name ?? '');

/** Whether the combatant's blow carries a status (a monster's bite, a special critical's rider). */
export const blowRides = keptBySheetAndItems((setup, c): boolean => {
  const arms = armament(setup, c);
  if (arms === undefined) return false;
  return (
    (arms.item === null ? c.sheet.attack?.inflicts : arms.item.specialCritical?.inflicts) !==
    undefined
  );
});

/**
 * The target's HP where the odds' numbers depend on it, else undefined: a status lands only on a
 * target left standing, so its chance after a blow or a damaging spell depends on the HP the
 * target has (odds.ts, riderLands and survive). Kept by it, not by the first HP asked about.
 */
export function hpKeyOf(
  setup: ShiningForceState['setup'],
  command: ShiningForceCommand,
  actor: CombatantState | undefined,
  target: CombatantState | undefined,
): number | undefined {
  if (target === undefined) return undefined;
  if (command.type === 'attack')
    return actor !== undefined && blowRides(setup, actor) ? target.hp : undefined;
  if (command.type === 'cast')
    return Object.hasOwn(setup.spells, command.spell) &&
      setup.spells[command.spell]?.inflicts !== undefined
      ? target.hp
      : undefined;
  if (command.type === 'use')
    return Object.hasOwn(setup.items, command.item) &&
      setup.items[command.item]?.use?.inflicts !== undefined
      ? target.hp
      : undefined;
  return undefined;
}

/**
 * Chance and damage depend on the sheets, the equipment and the statuses of both (Shining Force
 * has no land effect here); not on where the attacker stands, so one answer serves every cell.
 * A status's chance depends on the target's HP too (hpKeyOf).
 */
function oddsOf(system: AnySystem, state: ShiningForceState, command: ShiningForceCommand) {
  const actorId = 'actor' in command ? command.actor : '';
  const targetId = 'target' in command ? (command.target ?? '') : '';
  const actor = combatant(state, actorId);
  const target = combatant(state, targetId);
  let what = '';
  if (command.type === 'cast') what = command.spell;
  else if (command.type === 'use') what = command.item;
  else if (command.type === 'attack' && actor !== undefined) what = weaponName(state.setup, actor);
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
    hpKeyOf(state.setup, command, actor, target),
  );
}

/**
 * The odds of `attacker`'s blow on `defender`, as oddsOf finds them, kept by the two sheets in
 * front of the tree (odds-cache.ts, keptOdds): the tree's key (the ids, the weapon, the
 * statuses, the HP where it counts) is fixed by the sheets (each combatant has its own), the
 * attacker's items, both statuses lists and that HP. A decision asks this of every enemy twice.
 */
export function attackOdds(
  system: AnySystem,
  state: ShiningForceState,
  attacker: CombatantState,
  defender: CombatantState,
): ActionOdds | undefined {
  const { setup } = state;
  const hp = blowRides(setup, attacker) ? defender.hp : undefined;
  const kept = keptOdds(
    setup,
    attacker.sheet,
    defender.sheet,
    attacker.items,
    attacker.statuses,
    defender.statuses,
    attacker.id,
    hp,
  );
  if (kept !== NOT_KEPT) return kept;
  const odds = oddsOf(system, state, { type: 'attack', actor: attacker.id, target: defender.id });
  keepOdds(
    setup,
    attacker.sheet,
    defender.sheet,
    attacker.items,
    attacker.statuses,
    defender.statuses,
    attacker.id,
    hp,
    odds,
  );
  return odds;
}

/**
 * The odds of a spell or an item `actor` uses, as oddsOf finds them, kept in front of the tree
 * by the command and the actor's sheet: the options hand out one command object per sheet,
 * spell or item and target, never changed, so it stands for the kind, the ids and what is used;
 * the rest of the tree's key is the two statuses lists.
 */
export function effectOdds(
  system: AnySystem,
  state: ShiningForceState,
  actor: CombatantState,
  command: Extract<ShiningForceCommand, { type: 'cast' | 'use' }>,
): ActionOdds | undefined {
  const { setup } = state;
  const target = combatant(state, command.target);
  const targetStatuses = target?.statuses;
  const hp = hpKeyOf(setup, command, actor, target);
  const kept = keptOdds(
    setup,
    command,
    actor.sheet,
    actor.statuses,
    targetStatuses,
    actor.id,
    hp,
    undefined,
  );
  if (kept !== NOT_KEPT) return kept;
  const odds = oddsOf(system, state, command);
  keepOdds(
    setup,
    command,
    actor.sheet,
    actor.statuses,
    targetStatuses,
    actor.id,
    hp,
    undefined,
    odds,
  );
  return odds;
}

const REACH = new WeakMap<Offsets, number>();

/** How far a pattern reaches, as the crow walks. */
export function reachOf(offsets: Offsets): number {
  let r = REACH.get(offsets);
  if (r === undefined) {
    r = 0;
    for (const [dx, dy] of offsets) r = Math.max(r, Math.abs(dx) + Math.abs(dy));
    REACH.set(offsets, r);
  }
  return r;
}

function attackEstimate(
  system: AnySystem,
  state: ShiningForceState,
  actor: CombatantState,
  target: string,
): Estimate | undefined {
  const defender = combatant(state, target);
  const odds =
    defender === undefined
      ? oddsOf(system, state, { type: 'attack', actor: actor.id, target })
      : attackOdds(system, state, actor, defender);
  if (odds?.damage === undefined) return undefined;
  return estimateOf({
    target,
    chance: odds.chance ?? 0,
    harm: odds.damage,
    status: odds.status,
    price: 0,
    time: 1,
  });
}

/**
 * A cell's index from its name, as a move names it (`C4`: a capital and a row number, as the
 * legal actions write it, read without a pattern); any other spelling the slow way.
 */
function cellIndex(name: string, width: number): number | undefined {
  const x = name.charCodeAt(0) - 65;
  let y = 0;
  for (let i = 1; i < name.length; i++) {
    const digit = name.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9 || x < 0 || x >= 26 || name.length > 3) {
      const point = parseCellName(name);
      return point === undefined ? undefined : indexOf(width, point);
    }
    y = y * 10 + digit;
  }
  return y < 1 || name.length < 2 ? undefined : (y - 1) * width + x;
}

/** Each cell's column and row by index, kept per terrain (it never changes in a battle). */
interface Coordinates {
  readonly column: Int32Array;
  readonly row: Int32Array;
}

const COORDINATES = new WeakMap<Terrain, Coordinates>();

function coordinatesOf(terrain: Terrain): Coordinates {
  let found = COORDINATES.get(terrain);
  if (found === undefined) {
    const size = terrain.width * terrain.height;
    const column = new Int32Array(size);
    const row = new Int32Array(size);
    for (let cell = 0; cell < size; cell++) {
      column[cell] = cell % terrain.width;
      row[cell] = (cell - column[cell]!) / terrain.width;
    }
    found = { column, row };
    COORDINATES.set(terrain, found);
  }
  return found;
}

/**
 * How far the combatant can strike by its next turn (its movement and its weapon's reach, as
 * the crow walks), -1 with nothing to strike with: it changes only with its sheet and items.
 */
export const strikesOf = keptBySheetAndItems((setup, c): number => {
  const arms = armament(setup, c);
  return arms === undefined ? -1 : derived(setup, c).movement + reachOf(arms.range);
});

/**
 * The enemies of the deciding unit as every cell of one decision needs them: where each stands
 * and how far it can strike next turn, and the mean HP its blow takes off the unit; what the
 * unit's own attack on it is worth is looked up only for an enemy some cell puts in reach,
 * once.
 */
class Enemies {
  readonly count: number;
  readonly fighters: CombatantState[] = [];
  readonly x: number[] = [];
  readonly y: number[] = [];
  /** -1: it has nothing to strike with. */
  readonly strikes: number[] = [];
  /** Mean HP each one's blow takes off the unit, a miss counted as 0. */
  readonly blows: number[] = [];
  /** NaN until asked for. */
  private readonly attacks: number[] = [];

  constructor(
    private readonly system: AnySystem,
    private readonly state: ShiningForceState,
    private readonly actor: CombatantState,
    private readonly field: Field,
    coordinates: Coordinates,
    enemies: readonly CombatantState[],
  ) {
    for (const c of enemies) {
      this.fighters.push(c);
      this.x.push(coordinates.column[c.cell]!);
      this.y.push(coordinates.row[c.cell]!);
      const strikes = strikesOf(state.setup, c);
      this.strikes.push(strikes);
      // Looked up now, not when a cell first needs it: nearly every enemy reaches some cell,
      // and the loop over cells stays small enough to be inlined.
      const odds = strikes >= 0 ? attackOdds(system, state, c, actor) : undefined;
      this.blows.push((odds?.chance ?? 0) * (odds?.damage?.mean ?? 0));
      this.attacks.push(Number.NaN);
    }
    this.count = this.fighters.length;
  }

  /** What the unit's attack on enemy i is worth; -1 when it cannot hurt it. */
  attack(i: number): number {
    let worthOf = this.attacks[i]!;
    if (Number.isNaN(worthOf)) {
      const estimate = attackEstimate(this.system, this.state, this.actor, this.fighters[i]!.id);
      worthOf = estimate === undefined ? -1 : worth(estimate, this.field);
      this.attacks[i] = worthOf;
    }
    return worthOf;
  }
}

/** Array.prototype.includes as a loop the compiler inlines: asked of every cell, of a few. */
function isAmong(list: readonly number[], value: number): boolean {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
  return false;
}

/** patterns.ts's coversOffset with the pattern's table at hand: asked of every enemy and cell. */
function inPattern(table: Uint8Array, dx: number, dy: number): boolean {
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return table[(dy + SPAN) * SPAN_ROW + dx + SPAN] === 1;
}

/**
 * What ending the turn on `cell` is worth, in HP: the best attack it puts in reach (`arms`,
 * undefined for none), or else the squares it closes on the nearest enemy; less
 * what standing there risks until the actor's next turn: the blows of the enemies that can
 * reach it, one enemy taken as a given and every further one counted, and the actor's fall
 * (`fall`) when together they can take all its `hp`. One pass over the enemies: a decision
 * asks it of every cell.
 */
function cellWorth(
  enemies: Enemies,
  hp: number,
  fall: number,
  arms: Uint8Array | undefined,
  armsReach: number,
  nearHere: number,
  x: number,
  y: number,
): number {
  let best = 0;
  let reaches = false;
  let nearest = Number.POSITIVE_INFINITY;
  let sum = 0;
  let strongest = 0;
  // Read once, not after every lookup of an attack's worth in the loop.
  const { count, x: xs, y: ys, strikes, blows } = enemies;
  for (let i = 0; i < count; i++) {
    const dx = xs[i]! - x;
    const dy = ys[i]! - y;
    const d = Math.abs(dx) + Math.abs(dy);
    if (d < nearest) nearest = d;
    if (arms !== undefined && d <= armsReach && inPattern(arms, dx, dy)) {
      reaches = true;
      const attack = enemies.attack(i);
      if (attack > best) best = attack;
    }
    const strikesFrom = strikes[i]!;
    if (strikesFrom >= 0 && d <= strikesFrom) {
      const blow = blows[i]!;
      sum += blow;
      if (blow > strongest) strongest = blow;
    }
  }
  let risk = EXPOSURE * (sum - strongest);
  if (sum >= hp) risk += fall;
  const closer = reaches ? 0 : APPROACH * (nearHere - nearest);
  return best + closer - risk;
}

const BEGIN: CommandBase = { type: 'begin-battle' };

/** Equipment changes and gifts do not end the turn: never chosen, so a turn always ends. */
const NEVER: Estimate = estimateOf({ chance: 0, price: Number.POSITIVE_INFINITY, time: 1 });

/**
 * One decision of the unit whose turn it is: before moving, every option is also a choice of
 * where to end the turn, so the enemies and the risk of staying put are worked out once for
 * every cell of the decision.
 */
class Decision {
  readonly width: number;
  readonly enemies: Enemies | undefined;
  readonly column: Int32Array | undefined;
  readonly row: Int32Array | undefined;
  readonly nearHere: number;
  /** What staying put risks (no attack counted, the action is the attack; no squares closed). */
  readonly here: number;
  readonly arms: Uint8Array | undefined;
  readonly armsReach: number;
  readonly hp: number;
  /** What the unit's fall costs: RESCUE_VALUE of half its maximum HP. */
  readonly fall: number;

  /** `foes`: the unit's enemies still in the battle, in the state's order. */
  constructor(
    system: AnySystem,
    state: ShiningForceState,
    readonly actor: CombatantState,
    field: Field,
    foes: readonly CombatantState[],
  ) {
    const terrain = terrainOf(state.setup);
    this.width = terrain.width;
    this.hp = actor.hp;
    this.fall = RESCUE_VALUE * 0.5 * actor.sheet.stats.hp;
    if (state.step !== 'move') {
      // After the move no cell is scored: the enemies and the weapon's reach are not needed.
      this.enemies = undefined;
      this.column = undefined;
      this.row = undefined;
      this.nearHere = 0;
      this.here = 0;
      this.arms = undefined;
      this.armsReach = 0;
      return;
    }
    const coordinates = coordinatesOf(terrain);
    const enemies = new Enemies(system, state, actor, field, coordinates, foes);
    this.enemies = enemies;
    this.column = coordinates.column;
    this.row = coordinates.row;
    const x = coordinates.column[actor.cell]!;
    const y = coordinates.row[actor.cell]!;
    let nearHere = Number.POSITIVE_INFINITY;
    for (let i = 0; i < enemies.count; i++)
      nearHere = Math.min(nearHere, Math.abs(enemies.x[i]! - x) + Math.abs(enemies.y[i]! - y));
    this.nearHere = nearHere;
    this.here = -cellWorth(enemies, this.hp, this.fall, undefined, 0, nearHere, x, y);
    const range = armament(state.setup, actor)?.range;
    this.arms = range === undefined ? undefined : patternTable(range);
    this.armsReach = range === undefined ? 0 : reachOf(range);
  }

  /** What the last bestOf found scores. */
  bestScore = Number.NEGATIVE_INFINITY;

  /**
   * Where in `cells` (in their order) the first cell scoring above `floor` the most is, its
   * score in bestScore; -1 when none does. With `passOver`, those cells and the unit's own are
   * left out. Only while the unit is moving. One loop with the enemies at hand and no score
   * returned per cell: a decision scores every cell the unit can move to.
   */
  bestOf(cells: readonly number[], floor: number, passOver: readonly number[] | undefined): number {
    const enemies = this.enemies!;
    const column = this.column!;
    const row = this.row!;
    const own = this.actor.cell;
    let found = -1;
    let top = floor;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i]!;
      if (passOver !== undefined && (cell === own || isAmong(passOver, cell))) continue;
      const s = cellWorth(
        enemies,
        this.hp,
        this.fall,
        this.arms,
        this.armsReach,
        this.nearHere,
        column[cell]!,
        row[cell]!,
      );
      if (s > top) {
        found = i;
        top = s;
      }
    }
    this.bestScore = top;
    return found;
  }

  /** What ending the move on `cell` scores; undefined when the unit is not moving now. */
  cell(cell: number): number | undefined {
    if (this.enemies === undefined) return undefined;
    return cellWorth(
      this.enemies,
      this.hp,
      this.fall,
      this.arms,
      this.armsReach,
      this.nearHere,
      this.column![cell]!,
      this.row![cell]!,
    );
  }
}

function estimator(system: AnySystem, state: ShiningForceState, decision: Decision): Estimator {
  const { actor } = decision;
  const here = decision.here;
  return (cmd) => {
    const command = cmd as ShiningForceCommand;
    if (!('actor' in command) || command.actor !== actor.id) return undefined;
    switch (command.type) {
      case 'equip':
      case 'unequip':
      case 'drop':
      case 'give':
        return NEVER;
      case 'move': {
        const to = cellIndex(command.to, decision.width);
        const worth = to === undefined ? undefined : decision.cell(to);
        if (worth === undefined) return undefined;
        return estimateOf({ chance: 0, extra: worth, price: 0, time: 1 });
      }
      case 'attack': {
        const e = attackEstimate(system, state, actor, command.target);
        if (e === undefined) return undefined;
        // Every field written out: a spread here cost more than the rest of the estimate.
        return estimateOf({
          target: e.target,
          chance: e.chance,
          harm: e.harm,
          heal: e.heal,
          status: e.status,
          price: e.price,
          time: e.time,
          extra: -here,
        });
      }
      case 'stay':
        return estimateOf({ chance: 0, extra: -here, price: 0, time: 1 });
      case 'cast':
      case 'use':
        return effectEstimate(system, state, actor, command, -here);
      default:
        return undefined;
    }
  };
}

/**
 * The tactician's choice scored straight from the options (legal.ts), as the list would be
 * scored, in the list's order so that ties go the same way: attacks, advances, spells and
 * items, Stay, then the other cells of the move, each cell scored as a number and written out
 * as a command only if chosen. Gifts and equipment are left out: they are never chosen.
 */
function directChoice(
  system: AnySystem,
  state: ShiningForceState,
  o: Options,
  field: Field,
): CommandBase {
  const { actor } = o;
  const decision = new Decision(system, state, actor, field, o.enemies);
  const estimate = estimator(system, state, decision);
  const scoreOf = (command: CommandBase): number => {
    const expected = estimate(command);
    return expected === undefined ? 0 : score(expected, field);
  };
  let best: CommandBase | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  // A cell chosen, written out only at the end: an advance (with its target) or a plain move.
  let bestCell = -1;
  let bestAdvance = -1;
  if (o.attacks.length > 0) {
    const weapon = armament(state.setup, actor)!.name;
    for (const target of o.attacks) {
      const command = attackAction(actor, weapon, target).command;
      const s = scoreOf(command);
      if (s > bestScore) {
        best = command;
        bestScore = s;
      }
    }
  }
  const advances = o.advanceCells;
  if (advances.length > 0) {
    const i = decision.bestOf(advances, bestScore, undefined);
    if (i >= 0) {
      best = undefined;
      bestCell = advances[i]!;
      bestAdvance = i;
      bestScore = decision.bestScore;
    }
  }
  for (const effect of o.effects) {
    for (const target of effect.targets) {
      const command = effectAction(actor, effect, target).command;
      const s = scoreOf(command);
      if (s > bestScore) {
        best = command;
        bestCell = -1;
        bestScore = s;
      }
    }
  }
  const stay = stayAction(actor).command;
  const stayScore = scoreOf(stay);
  if (stayScore > bestScore) {
    best = stay;
    bestCell = -1;
    bestScore = stayScore;
  }
  if (o.moves !== undefined) {
    const cells = o.moves.cells;
    const i = decision.bestOf(cells, bestScore, advances);
    if (i >= 0) {
      best = undefined;
      bestCell = cells[i]!;
      bestAdvance = -1;
    }
  }
  if (bestCell >= 0) {
    return bestAdvance >= 0
      ? advanceAction(decision.width, actor, o.advanceTargets[bestAdvance]!, bestCell).command
      : moveAction(decision.width, actor, bestCell).command;
  }
  return best ?? stay;
}

function effectEstimate(
  system: AnySystem,
  state: ShiningForceState,
  actor: CombatantState,
  command: Extract<ShiningForceCommand, { type: 'cast' | 'use' }>,
  extra: number,
): Estimate | undefined {
  const odds = effectOdds(system, state, actor, command);
  const effect =
    command.type === 'cast'
      ? state.setup.spells[command.spell]
      : state.setup.items[command.item]?.use;
  if (odds === undefined || effect === undefined) return undefined;
  let price: number;
  if (command.type === 'cast') {
    price = poolPrice(
      state.setup.spells[command.spell]?.mpCost ?? 0,
      actor.mp,
      actor.sheet.stats.hp,
    );
  } else {
    let held = 0;
    for (const h of actor.items) if (h.item === command.item) held++;
    price = poolPrice(1, held, actor.sheet.stats.hp);
  }
  const spread = odds.damage;
  const target = combatant(state, command.target);
  return estimateOf({
    target: command.target,
    chance: odds.chance ?? 0,
    heal: effect.heal !== undefined ? spread : undefined,
    harm:
      effect.heal === undefined && effect.damage !== undefined
        ? spread
        : defeatAsHarm(effect, target),
    status: odds.status,
    cures: curedBy(effect, target),
    extra,
    price,
    time: 1,
  });
}

/**
 * An instant defeat without damage (Desoul), when it works, as a blow that takes all the HP the
 * target has: worth what a knock-out is. Its odds' chance is the chance it works.
 */
export function defeatAsHarm(
  effect: Effect,
  target: CombatantState | undefined,
): Spread | undefined {
  if (effect.defeats === undefined || effect.damage !== undefined || target === undefined)
    return undefined;
  return { min: target.hp, mean: target.hp, max: target.hp };
}

/** How many of the statuses the effect cures the target has (Detox on a poisoned ally). */
export function curedBy(effect: Effect, target: CombatantState | undefined): number | undefined {
  return target === undefined ? undefined : curedOf(effect.cures, target.statuses);
}

export const shiningForceTactics: Tactics = {
  ids: (raw) => idsOf(raw as ShiningForceState),

  fighter(raw, id) {
    const c = combatant(raw as ShiningForceState, id);
    if (c === undefined) return undefined;
    return { id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: c.defeated };
  },

  estimator(system, raw, field): Estimator {
    const state = raw as ShiningForceState;
    const actor = combatant(state, field.actor.id);
    if (actor === undefined) return () => undefined;
    return estimator(
      system,
      state,
      new Decision(
        system,
        state,
        actor,
        field,
        othersInBattle(state, actor).filter((c) => areEnemies(actor, c)),
      ),
    );
  },

  direct(system, raw, fieldOf) {
    const state = raw as ShiningForceState;
    if (state.result !== null) return undefined;
    if (state.round === 0) return BEGIN;
    const o = options(state);
    if (o === undefined) return undefined;
    // Moved, with nobody in reach and nothing to cast or use: Stay is all the list would offer
    // worth more than -Infinity (nearly three act steps in four), so nothing needs scoring.
    if (o.moves === undefined && o.attacks.length === 0 && o.effects.length === 0)
      return stayAction(o.actor).command;
    const field = fieldOf(o.actor.id);
    return field === undefined ? undefined : directChoice(system, state, o, field);
  },

  threat(system, raw, attacker, defender) {
    const state = raw as ShiningForceState;
    const a = combatant(state, attacker);
    const d = combatant(state, defender);
    const odds =
      a === undefined || d === undefined
        ? oddsOf(system, state, { type: 'attack', actor: attacker, target: defender })
        : attackOdds(system, state, a, d);
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  },
};
