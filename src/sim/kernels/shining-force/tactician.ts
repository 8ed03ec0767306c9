import type { ShiningForceCommand } from '../../../rulesets/shining-force/commands.js';
import { canCastAny } from '../../../rulesets/shining-force/derived.js';
import { distanceMaps, distanceTo, terrainOf } from '../../../rulesets/shining-force/field.js';
import { patternTable, SPAN, SPAN_ROW } from '../../../rulesets/shining-force/grid/patterns.js';
import { type EffectOption, effectAction, offer } from '../../../rulesets/shining-force/legal.js';
import {
  type CombatantState,
  type ShiningForceState,
  sideOf,
} from '../../../rulesets/shining-force/state.js';
import type { ActionOdds, AnySystem } from '../../../rulesets/system.js';
import {
  type Estimate,
  estimateOf,
  type Field,
  type Fighter,
  poolPrice,
  RESCUE_VALUE,
  score,
  worth,
} from '../../tactician/core.js';
import { NOT_KEPT, oddsGeneration, treeOdds } from '../../tactician/odds-cache.js';
import {
  APPROACH,
  attackOdds,
  condition,
  EXPOSURE,
  effectOdds,
  reachOf,
  strikesOf,
  weaponName,
} from '../../tactician/shining-force.js';
import type { Battle } from './battle.js';
import { MoveSearch } from './reach.js';

/** What the kernel's tactician chose: one of the commands the options offer. */
export enum Choice {
  Begin,
  Move,
  Attack,
  Stay,
  Cast,
  Use,
  /** Nobody's turn: the runner would find no legal action and stop. */
  None,
}

/**
 * The tactician's choice (src/sim/tactician/shining-force.ts: direct, directChoice, Decision,
 * Enemies, cellWorth; legal.ts: options), made over the kernel's battle: the same options in the
 * same order, each scored by the same functions (core.ts) from the same odds, so every choice is
 * the tactician's. What it adds is only where things are kept: the options in reused arrays, not
 * a list of objects per decision, and the odds of each pair of combatants by place, good while
 * what the odds depend on (the attacker's items, both statuses lists) stands.
 */
export class KernelTactician {
  /** The choice made: kind, the place aimed at, the cell moved to, the spell or item used. */
  kind: Choice = Choice.None;
  target = -1;
  cell = -1;
  what = '';

  private readonly n: number;
  private readonly width: number;
  private readonly column: Int32Array;
  private readonly row: Int32Array;
  private readonly search: MoveSearch;
  /** The last move search's cost of each cell, -1 where the move may not end. */
  private readonly costs: Int32Array;

  // The decision under way, in reused arrays with their counts.
  private actor = -1;
  private readonly enemy: Uint8Array;
  private readonly enemies: Int32Array;
  private enemyCount = 0;
  private readonly attacks: Int32Array;
  private attackCount = 0;
  private readonly outOfReach: Int32Array;
  private readonly advanceTargets: Int32Array;
  private readonly advanceCells: Int32Array;
  private advanceCount = 0;
  private readonly cells: Int32Array;
  private cellCount = 0;
  /** 1 on an advance's cell in the decision under way (cleared at its end). */
  private readonly isAdvance: Uint8Array;
  // scoreCells's sums and maxima by place in `cells`, and its scores by cell.
  private readonly bestOn: Float64Array;
  private readonly nearestOn: Float64Array;
  private readonly sumOn: Float64Array;
  private readonly strongestOn: Float64Array;
  private readonly reachesOn: Uint8Array;
  private readonly cellScore: Float64Array;
  // The enemies as every cell of a move decision needs them (Enemies in the tactician).
  private readonly ex: Int32Array;
  private readonly ey: Int32Array;
  private readonly strikes: Int32Array;
  private readonly blows: Float64Array;
  private readonly attackWorth: Float64Array;
  private readonly field: KernelField;

  /**
   * Odds of place a's blow on place d as the odds tree names them (src/sim/tactician/odds-cache.ts):
   * by the attacker's weapon and the two conditions (their statuses' names), two answers a pair
   * (k = 2 * (a * n + d): neither has a status; k + 1: the last other), good until the tree
   * starts over. Statuses lists are replaced at every change and count-down, their names much
   * less often: an answer asked again after a count-down is still here.
   */
  private readonly pairOdds: (ActionOdds | undefined)[] = [];
  private readonly pairGeneration: number[] = [];
  private readonly pairWeapon: string[] = [];
  private readonly pairAttacker: string[] = [];
  private readonly pairDefender: string[] = [];
  /** Each place's condition and weapon name, by the statuses list and items they were read from. */
  private readonly conditionFor: string[] = [];
  private readonly conditionStatuses: unknown[] = [];
  private readonly weaponFor: string[] = [];
  private readonly weaponItems: unknown[] = [];
  /** How far each place strikes by its next turn (the tactician's strikesOf), by its items. */
  private readonly strikesFor: number[] = [];
  private readonly strikesItems: unknown[] = [];
  private readonly distances: (Int32Array | undefined)[];

  constructor(
    private readonly system: AnySystem,
    private readonly b: Battle,
  ) {
    const n = b.cs.length;
    this.n = n;
    const terrain = terrainOf(b.setup);
    this.width = terrain.width;
    const size = terrain.width * terrain.height;
    this.column = new Int32Array(size);
    this.row = new Int32Array(size);
    for (let cell = 0; cell < size; cell++) {
      this.column[cell] = cell % terrain.width;
      this.row[cell] = (cell - this.column[cell]!) / terrain.width;
    }
    this.search = new MoveSearch(terrain);
    this.costs = new Int32Array(size);
    this.enemy = new Uint8Array(n);
    this.enemies = new Int32Array(n);
    this.attacks = new Int32Array(n);
    this.outOfReach = new Int32Array(n);
    this.advanceTargets = new Int32Array(n);
    this.advanceCells = new Int32Array(n);
    this.cells = new Int32Array(size);
    this.isAdvance = new Uint8Array(size);
    this.bestOn = new Float64Array(size);
    this.nearestOn = new Float64Array(size);
    this.sumOn = new Float64Array(size);
    this.strongestOn = new Float64Array(size);
    this.reachesOn = new Uint8Array(size);
    this.cellScore = new Float64Array(size);
    this.ex = new Int32Array(n);
    this.ey = new Int32Array(n);
    this.strikes = new Int32Array(n);
    this.blows = new Float64Array(n);
    this.attackWorth = new Float64Array(n);
    this.field = new KernelField(this);
    this.distances = distanceMaps(b.setup);
  }

  /** How many combatants the roster holds. */
  get size(): number {
    return this.n;
  }

  get battle(): Battle {
    return this.b;
  }

  placeOfId(id: string): number | undefined {
    return this.b.placeOf.get(id);
  }

  fighterAt(i: number): Fighter {
    const c = this.b.cs[i]!;
    return { id: c.id, side: c.side, hp: c.hp, maxHp: c.sheet.stats.hp, out: c.defeated };
  }

  /** The rules' state now, for an answer the odds cache does not have yet (rare). */
  private stateNow(): ShiningForceState {
    return this.b.state();
  }

  /** The odds tree's name for place i's statuses. */
  conditionAt(i: number): string {
    const c = this.b.cs[i]!;
    if (this.conditionStatuses[i] !== c.statuses) {
      this.conditionFor[i] = condition(c);
      this.conditionStatuses[i] = c.statuses;
    }
    return this.conditionFor[i]!;
  }

  private weaponAt(i: number): string {
    const c = this.b.cs[i]!;
    if (this.weaponItems[i] !== c.items) {
      this.weaponFor[i] = weaponName(this.b.setup, c);
      this.weaponItems[i] = c.items;
    }
    return this.weaponFor[i]!;
  }

  /** attackOdds of place a's blow on place d, as the tactician finds them. */
  oddsOf(a: number, d: number): ActionOdds | undefined {
    const generation = oddsGeneration();
    const weapon = this.weaponAt(a);
    const attackerCondition = this.conditionAt(a);
    const defenderCondition = this.conditionAt(d);
    const k =
      2 * (a * this.n + d) + (attackerCondition === '' && defenderCondition === '' ? 0 : 1);
    if (
      this.pairGeneration[k] === generation &&
      this.pairWeapon[k] === weapon &&
      this.pairAttacker[k] === attackerCondition &&
      this.pairDefender[k] === defenderCondition
    )
      return this.pairOdds[k];
    const attacker = this.b.cs[a]!;
    const defender = this.b.cs[d]!;
    // The tree's answer for these names; only when it has none is the state made to ask the
    // system, through the tactician's own attackOdds (which keeps it in the tree).
    let odds = treeOdds(
      this.b.setup,
      'attack',
      attacker.id,
      weapon,
      defender.id,
      attackerCondition,
      defenderCondition,
    );
    if (odds === NOT_KEPT) odds = attackOdds(this.system, this.stateNow(), attacker, defender);
    this.pairOdds[k] = odds;
    this.pairGeneration[k] = oddsGeneration();
    this.pairWeapon[k] = weapon;
    this.pairAttacker[k] = attackerCondition;
    this.pairDefender[k] = defenderCondition;
    return odds;
  }

  /** The tactician's strikesOf for place i, looked up by place rather than by sheet. */
  private strikesAt(i: number): number {
    const c = this.b.cs[i]!;
    if (this.strikesItems[i] !== c.items) {
      this.strikesFor[i] = strikesOf(this.b.setup, c);
      this.strikesItems[i] = c.items;
    }
    return this.strikesFor[i]!;
  }

  /** Mean HP place a's blow takes off place d, a miss counted as 0 (Tactics.threat). */
  threat(a: number, d: number): number {
    const odds = this.oddsOf(a, d);
    return (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
  }

  /** Chooses for the battle as it stands; the choice is left in kind, target, cell and what. */
  choose(): void {
    const b = this.b;
    this.target = -1;
    this.cell = -1;
    if (b.result !== null) {
      this.kind = Choice.None;
      return;
    }
    if (b.round === 0) {
      this.kind = Choice.Begin;
      return;
    }
    const place = b.step === null ? undefined : b.orderPlaces[b.cursor];
    if (place === undefined) {
      this.kind = Choice.None;
      return;
    }
    this.actor = place;
    const moving = b.step === 'move';
    this.options(place, moving);
    const effects = this.effects(place);
    if (!moving && this.attackCount === 0 && effects.length === 0) {
      this.kind = Choice.Stay;
      return;
    }
    this.field.begin(place);
    this.directChoice(place, moving, effects);
  }

  /**
   * legal.ts options, but the effects: the enemies in the roster's order, who is in reach, and
   * (moving) where a move may end and the advance on each enemy out of reach.
   */
  private options(place: number, moving: boolean): void {
    const b = this.b;
    const { cs, setup } = b;
    const actor = cs[place]!;
    const { enemy, enemies, attacks, outOfReach, column, row } = this;
    let enemyCount = 0;
    let attackCount = 0;
    let outCount = 0;
    const arms = b.armamentOf(place);
    const reach = arms === undefined ? undefined : patternTable(arms.range);
    const ax = column[actor.cell]!;
    const ay = row[actor.cell]!;
    const side = actor.statuses.length === 0 ? actor.side : sideOf(actor);
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      enemy[i] = 0;
      if (c.defeated || i === place) continue;
      if ((c.statuses.length === 0 ? c.side : sideOf(c)) === side) continue;
      enemy[i] = 1;
      enemies[enemyCount++] = i;
      if (reach !== undefined && inPattern(reach, column[c.cell]! - ax, row[c.cell]! - ay))
        attacks[attackCount++] = i;
      else outOfReach[outCount++] = i;
    }
    this.enemyCount = enemyCount;
    this.attackCount = attackCount;
    this.advanceCount = 0;
    this.cellCount = 0;
    if (!moving) return;
    this.moves(place, b.derivedOf(place).movement);
    const costs = this.costs;
    const { distances, width } = this;
    const height = this.costs.length / width;
    for (let k = 0; k < outCount; k++) {
      const t = outOfReach[k]!;
      const target = cs[t]!.cell;
      // legal.ts cheapestInReach: the cell in reach of the target at the least cost, the
      // first in reading order among equals.
      let to = -1;
      if (arms !== undefined) {
        const tx = column[target]!;
        const ty = row[target]!;
        let bestCost = Number.POSITIVE_INFINITY;
        for (const offset of arms.range) {
          const x = tx - offset[0];
          const y = ty - offset[1];
          if (x < 0 || x >= width || y < 0 || y >= height) continue;
          const cell = y * width + x;
          const cost = costs[cell]!;
          if (cost < 0) continue;
          if (cost < bestCost || (cost === bestCost && cell < to)) {
            to = cell;
            bestCost = cost;
          }
        }
      }
      if (to < 0) {
        // legal.ts closest: else the cell that closes in the most, the unit's own if none.
        const distance = distanceTo(setup, distances, target);
        to = actor.cell;
        let bestDistance = distance[to]!;
        const { cells, cellCount } = this;
        for (let c = 0; c < cellCount; c++) {
          const cell = cells[c]!;
          const d = distance[cell]!;
          if (d >= 0 && (bestDistance < 0 || d < bestDistance)) {
            to = cell;
            bestDistance = d;
          }
        }
      }
      if (to === actor.cell) continue;
      this.advanceTargets[this.advanceCount] = t;
      this.advanceCells[this.advanceCount] = to;
      this.isAdvance[to] = 1;
      this.advanceCount++;
    }
  }

  /** The effects legal.ts options offers the unit, in its order; none for most units. */
  private effects(place: number): EffectOption[] {
    const { cs, setup } = this.b;
    const actor = cs[place]!;
    const casts = canCastAny(setup, actor);
    let uses = false;
    for (const held of actor.items) if (setup.items[held.item]?.use !== undefined) uses = true;
    if (!casts && !uses) return NO_EFFECTS;
    const living: CombatantState[] = [];
    for (let i = 0; i < cs.length; i++) if (!cs[i]!.defeated && i !== place) living.push(cs[i]!);
    const effects: EffectOption[] = [];
    if (casts) {
      for (const id of actor.sheet.spells) {
        const spell = setup.spells[id];
        if (spell !== undefined && spell.mpCost <= actor.mp)
          offer(effects, setup, this.width, actor, living, 'cast', id, spell.name, spell);
      }
    }
    for (let i = 0; i < actor.items.length; i++) {
      const held = actor.items[i]!;
      let first = true;
      for (let j = 0; j < i; j++) if (actor.items[j]!.item === held.item) first = false;
      if (!first) continue;
      const item = setup.items[held.item];
      if (item?.use !== undefined)
        offer(effects, setup, this.width, actor, living, 'use', held.item, item.name, item.use);
    }
    return effects;
  }

  /**
   * field.ts movesOf: what each cell costs to end the move on (-1: not there) in `costs`, and
   * those cells in index order in `cells`.
   */
  private moves(place: number, movement: number): void {
    const { cs, setup } = this.b;
    const mover = cs[place]!;
    const { search, costs, enemy } = this;
    const passAllies = setup.options.passThroughAllies;
    search.clearBlockers();
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || i === place) continue;
      if (enemy[i] === 1 || !passAllies) search.block(c.cell);
    }
    search.search(mover.cell, Math.max(0, movement), costs);
    // As moveCosts: no move ends on someone else's cell.
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || i === place) continue;
      if (c.cell !== mover.cell) costs[c.cell] = -1;
    }
    this.cellCount = search.cellsInto(costs, this.cells);
  }

  /** What the unit's attack on enemy k (of this decision's enemies) is worth; -1: none. */
  private attackOn(k: number): number {
    let w = this.attackWorth[k]!;
    if (Number.isNaN(w)) {
      const e = this.attackEstimate(this.enemies[k]!);
      w = e === undefined ? -1 : worth(e, this.field);
      this.attackWorth[k] = w;
    }
    return w;
  }

  private attackEstimate(target: number): Estimate | undefined {
    const odds = this.oddsOf(this.actor, target);
    if (odds?.damage === undefined) return undefined;
    return estimateOf({
      target: this.b.cs[target]!.id,
      chance: odds.chance ?? 0,
      harm: odds.damage,
      status: odds.status,
      price: 0,
      time: 1,
    });
  }

  /** The tactician's cellWorth over this decision's enemies. */
  private cellWorth(
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
    const { ex, ey, strikes, blows } = this;
    const count = this.enemyCount;
    for (let i = 0; i < count; i++) {
      const dx = ex[i]! - x;
      const dy = ey[i]! - y;
      const d = Math.abs(dx) + Math.abs(dy);
      if (d < nearest) nearest = d;
      if (arms !== undefined && d <= armsReach && inPattern(arms, dx, dy)) {
        reaches = true;
        const attack = this.attackOn(i);
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

  /** The tactician's directChoice, with its Decision's fields as locals. */
  private directChoice(place: number, moving: boolean, effects: readonly EffectOption[]): void {
    const b = this.b;
    const { cs, setup } = b;
    const actor = cs[place]!;
    const field = this.field;
    const hp = actor.hp;
    const fall = RESCUE_VALUE * 0.5 * actor.sheet.stats.hp;
    let nearHere = 0;
    let here = 0;
    let arms: Uint8Array | undefined;
    let armsReach = 0;
    if (moving) {
      const { enemies, ex, ey, strikes, blows, attackWorth, column, row } = this;
      const count = this.enemyCount;
      for (let k = 0; k < count; k++) {
        const e = enemies[k]!;
        const c = cs[e]!;
        ex[k] = column[c.cell]!;
        ey[k] = row[c.cell]!;
        const s = this.strikesAt(e);
        strikes[k] = s;
        blows[k] = s >= 0 ? this.threat(e, place) : 0;
        attackWorth[k] = Number.NaN;
      }
      const x = column[actor.cell]!;
      const y = row[actor.cell]!;
      nearHere = Number.POSITIVE_INFINITY;
      for (let k = 0; k < count; k++)
        nearHere = Math.min(nearHere, Math.abs(ex[k]! - x) + Math.abs(ey[k]! - y));
      here = -this.cellWorth(hp, fall, undefined, 0, nearHere, x, y);
      const range = b.armamentOf(place)?.range;
      arms = range === undefined ? undefined : patternTable(range);
      armsReach = range === undefined ? 0 : reachOf(range);
    }
    const extra = -here;

    let bestKind = Choice.None;
    let bestTarget = -1;
    let bestWhat = '';
    let bestScore = Number.NEGATIVE_INFINITY;
    let bestCell = -1;
    let bestAdvance = -1;
    for (let k = 0; k < this.attackCount; k++) {
      const t = this.attacks[k]!;
      const e = this.attackEstimate(t);
      const s =
        e === undefined
          ? 0
          : score(
              estimateOf({
                target: e.target,
                chance: e.chance,
                harm: e.harm,
                heal: e.heal,
                status: e.status,
                price: e.price,
                time: e.time,
                extra,
              }),
              field,
            );
      if (s > bestScore) {
        bestKind = Choice.Attack;
        bestTarget = t;
        bestScore = s;
      }
    }
    if (moving) this.scoreCells(hp, fall, arms, armsReach, nearHere);
    if (this.advanceCount > 0) {
      const found = this.bestOf(this.advanceCells, this.advanceCount, bestScore, false);
      if (found >= 0) {
        bestKind = Choice.None;
        bestCell = this.advanceCells[found]!;
        bestAdvance = found;
        bestScore = this.bestScore;
      }
    }
    for (const effect of effects) {
      for (const target of effect.targets) {
        const command = effectAction(actor, effect, target).command as Extract<
          ShiningForceCommand,
          { type: 'cast' | 'use' }
        >;
        const e = this.effectEstimate(actor, command, extra);
        const s = e === undefined ? 0 : score(e, field);
        if (s > bestScore) {
          bestKind = effect.kind === 'cast' ? Choice.Cast : Choice.Use;
          bestTarget = b.placeOf.get(target.id)!;
          bestWhat = effect.id;
          bestCell = -1;
          bestScore = s;
        }
      }
    }
    // score(estimateOf({ chance: 0, extra, price: 0, time: 1 })): worth with no target is its
    // extra, less no price, over one turn; the same number.
    const stayScore = extra;
    if (stayScore > bestScore) {
      bestKind = Choice.Stay;
      bestCell = -1;
      bestScore = stayScore;
    }
    if (moving) {
      const found = this.bestOf(this.cells, this.cellCount, bestScore, true);
      if (found >= 0) {
        bestCell = this.cells[found]!;
        bestAdvance = -1;
      }
    }
    for (let k = 0; k < this.advanceCount; k++) this.isAdvance[this.advanceCells[k]!] = 0;
    if (bestCell >= 0) {
      this.kind = Choice.Move;
      this.cell = bestCell;
      this.target = bestAdvance >= 0 ? this.advanceTargets[bestAdvance]! : -1;
      return;
    }
    this.kind = bestKind === Choice.None ? Choice.Stay : bestKind;
    this.target = bestTarget;
    this.what = bestWhat;
  }

  private bestScore = Number.NEGATIVE_INFINITY;

  /**
   * Decision.bestOf: where among the first `count` of `cells` the first cell scoring the most
   * above `floor` is, its score in bestScore; -1 for none. `passOver`: the unit's own cell and
   * the advances' are left out. The scores are scoreCells's.
   */
  private bestOf(cells: Int32Array, count: number, floor: number, passOver: boolean): number {
    const own = this.b.cs[this.actor]!.cell;
    const { isAdvance, cellScore } = this;
    let found = -1;
    let top = floor;
    for (let i = 0; i < count; i++) {
      const cell = cells[i]!;
      if (passOver && (cell === own || isAdvance[cell] === 1)) continue;
      const s = cellScore[cell]!;
      if (s > top) {
        found = i;
        top = s;
      }
    }
    this.bestScore = top;
    return found;
  }

  /**
   * cellWorth of every cell the move may end on but the unit's own (the advances' cells are
   * among them), into cellScore by cell: the enemies in the outer loop and the cells in the
   * inner, each cell's sums and maxima taken over the enemies in the same order as cellWorth
   * takes them, so each score is cellWorth's to the last bit.
   */
  private scoreCells(
    hp: number,
    fall: number,
    arms: Uint8Array | undefined,
    armsReach: number,
    nearHere: number,
  ): void {
    const { cells, cellCount, column, row, ex, ey, strikes, blows } = this;
    const { bestOn, nearestOn, sumOn, strongestOn, reachesOn, cellScore } = this;
    const own = this.b.cs[this.actor]!.cell;
    for (let j = 0; j < cellCount; j++) {
      bestOn[j] = 0;
      reachesOn[j] = 0;
      nearestOn[j] = Number.POSITIVE_INFINITY;
      sumOn[j] = 0;
      strongestOn[j] = 0;
    }
    const count = this.enemyCount;
    for (let i = 0; i < count; i++) {
      const exi = ex[i]!;
      const eyi = ey[i]!;
      const strikesFrom = strikes[i]!;
      const blow = blows[i]!;
      for (let j = 0; j < cellCount; j++) {
        const cell = cells[j]!;
        if (cell === own) continue;
        const dx = exi - column[cell]!;
        const dy = eyi - row[cell]!;
        const d = Math.abs(dx) + Math.abs(dy);
        if (d < nearestOn[j]!) nearestOn[j] = d;
        if (arms !== undefined && d <= armsReach && inPattern(arms, dx, dy)) {
          reachesOn[j] = 1;
          const attack = this.attackOn(i);
          if (attack > bestOn[j]!) bestOn[j] = attack;
        }
        if (strikesFrom >= 0 && d <= strikesFrom) {
          sumOn[j] = sumOn[j]! + blow;
          if (blow > strongestOn[j]!) strongestOn[j] = blow;
        }
      }
    }
    for (let j = 0; j < cellCount; j++) {
      const cell = cells[j]!;
      if (cell === own) continue;
      const sum = sumOn[j]!;
      let risk = EXPOSURE * (sum - strongestOn[j]!);
      if (sum >= hp) risk += fall;
      const closer = reachesOn[j] === 1 ? 0 : APPROACH * (nearHere - nearestOn[j]!);
      cellScore[cell] = bestOn[j]! + closer - risk;
    }
  }

  /** The tactician's effectEstimate. */
  private effectEstimate(
    actor: CombatantState,
    command: Extract<ShiningForceCommand, { type: 'cast' | 'use' }>,
    extra: number,
  ): Estimate | undefined {
    const { setup } = this.b;
    let odds = treeOdds(
      setup,
      command.type,
      actor.id,
      command.type === 'cast' ? command.spell : command.item,
      command.target,
      this.conditionAt(this.actor),
      this.conditionAt(this.b.placeOf.get(command.target)!),
    );
    if (odds === NOT_KEPT) odds = effectOdds(this.system, this.stateNow(), actor, command);
    const effect =
      command.type === 'cast' ? setup.spells[command.spell] : setup.items[command.item]?.use;
    if (odds === undefined || effect === undefined) return undefined;
    let price: number;
    if (command.type === 'cast') {
      price = poolPrice(setup.spells[command.spell]?.mpCost ?? 0, actor.mp, actor.sheet.stats.hp);
    } else {
      let held = 0;
      for (const h of actor.items) if (h.item === command.item) held++;
      price = poolPrice(1, held, actor.sheet.stats.hp);
    }
    const spread = odds.damage;
    return estimateOf({
      target: command.target,
      chance: odds.chance ?? 0,
      heal: effect.heal !== undefined ? spread : undefined,
      harm: effect.heal === undefined && effect.damage !== undefined ? spread : undefined,
      status: odds.status,
      extra,
      price,
      time: 1,
    });
  }
}

const NO_EFFECTS: EffectOption[] = [];

/**
 * The tactician's DecisionField over the kernel's battle: fighters read from the roster when
 * asked, each threat worked out once a decision.
 */
class KernelField implements Field {
  actor: Fighter = { id: '', side: '', hp: 0, maxHp: 0, out: true };
  private actorPlace = -1;
  /**
   * Each place's threats (DecisionField.threatOn and threatOf), kept while the roster's
   * statuses, items and who is out stand (Battle.roster) and the odds cache has not started
   * over: they read nothing else, and HP, which changes every blow, is not among them.
   */
  private readonly on: Float64Array;
  private readonly of: Float64Array;
  private readonly onRoster: Float64Array;
  private readonly ofRoster: Float64Array;
  private readonly onGeneration: Float64Array;
  private readonly ofGeneration: Float64Array;

  constructor(private readonly t: KernelTactician) {
    const n = t.size;
    this.on = new Float64Array(n);
    this.of = new Float64Array(n);
    this.onRoster = new Float64Array(n).fill(-1);
    this.ofRoster = new Float64Array(n).fill(-1);
    this.onGeneration = new Float64Array(n);
    this.ofGeneration = new Float64Array(n);
  }

  begin(place: number): void {
    this.actorPlace = place;
    this.actor = this.t.fighterAt(place);
  }

  fighter(id: string): Fighter | undefined {
    const place = this.t.placeOfId(id);
    if (place === undefined) return undefined;
    return place === this.actorPlace ? this.actor : this.t.fighterAt(place);
  }

  threatOn(id: string): number {
    const place = this.t.placeOfId(id);
    if (place === undefined) return 0;
    const roster = this.t.battle.roster;
    const generation = oddsGeneration();
    if (this.onRoster[place] !== roster || this.onGeneration[place] !== generation) {
      this.on[place] = this.strongest(place, false);
      this.onRoster[place] = roster;
      this.onGeneration[place] = oddsGeneration();
    }
    return this.on[place]!;
  }

  threatOf(id: string): number {
    const place = this.t.placeOfId(id);
    if (place === undefined) return 0;
    const roster = this.t.battle.roster;
    const generation = oddsGeneration();
    if (this.ofRoster[place] !== roster || this.ofGeneration[place] !== generation) {
      this.of[place] = this.strongest(place, true);
      this.ofRoster[place] = roster;
      this.ofGeneration[place] = oddsGeneration();
    }
    return this.of[place]!;
  }

  /** DecisionField.strongest, reading the roster where it made a Fighter of everyone. */
  private strongest(place: number, attacking: boolean): number {
    const { cs } = this.t.battle;
    const side = cs[place]!.side;
    let best = 0;
    for (let other = 0; other < cs.length; other++) {
      const o = cs[other]!;
      if (o.defeated || o.side === side) continue;
      const t = attacking ? this.t.threat(place, other) : this.t.threat(other, place);
      if (t > best) best = t;
    }
    return best;
  }
}

function inPattern(table: Uint8Array, dx: number, dy: number): boolean {
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return table[(dy + SPAN) * SPAN_ROW + dx + SPAN] === 1;
}
