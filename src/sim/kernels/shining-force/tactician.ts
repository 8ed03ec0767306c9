import type { ShiningForceCommand } from '../../../rulesets/shining-force/commands.js';
import { canCastAny } from '../../../rulesets/shining-force/derived.js';
import { distanceMaps, distanceTo, terrainOf } from '../../../rulesets/shining-force/field.js';
import { CELL_ALLY, CELL_EMPTY, CELL_ENEMY } from '../../../rulesets/shining-force/grid/paths.js';
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
import { keptOdds, NOT_KEPT, oddsGeneration } from '../../tactician/odds-cache.js';
import {
  APPROACH,
  attackOdds,
  EXPOSURE,
  effectOdds,
  reachOf,
  strikesOf,
} from '../../tactician/shining-force.js';
import type { Battle } from './battle.js';

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
  // The terrain's passable neighbours, as grid/paths.ts keeps them: from[cell] to from[cell+1].
  private readonly from: Int32Array;
  private readonly next: Int32Array;
  private readonly stepCost: Int32Array;
  // The move search's own memory, reused.
  private readonly occupants: Uint8Array;
  private readonly costs: Int32Array;
  private readonly queue: Int32Array;
  private readonly queued: Uint8Array;

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
  // The enemies as every cell of a move decision needs them (Enemies in the tactician).
  private readonly ex: Int32Array;
  private readonly ey: Int32Array;
  private readonly strikes: Int32Array;
  private readonly blows: Float64Array;
  private readonly attackWorth: Float64Array;
  private readonly field: KernelField;

  /** Odds of place a's blow on place d (a * n + d), kept while their keys stand. */
  private readonly pairOdds: (ActionOdds | undefined)[] = [];
  private readonly pairGeneration: number[] = [];
  private readonly pairItems: unknown[] = [];
  private readonly pairAttacker: unknown[] = [];
  private readonly pairDefender: unknown[] = [];

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
    const from: number[] = [];
    const next: number[] = [];
    const stepCost: number[] = [];
    for (let cell = 0; cell < size; cell++) {
      from.push(next.length);
      const x = cell % terrain.width;
      const around = [
        cell < terrain.width ? -1 : cell - terrain.width,
        x === 0 ? -1 : cell - 1,
        x === terrain.width - 1 ? -1 : cell + 1,
        cell + terrain.width >= size ? -1 : cell + terrain.width,
      ];
      for (const to of around) {
        const step = to < 0 ? 0 : (terrain.costs[to] ?? 0);
        if (step <= 0) continue;
        next.push(to);
        stepCost.push(step);
      }
    }
    from.push(next.length);
    this.from = Int32Array.from(from);
    this.next = Int32Array.from(next);
    this.stepCost = Int32Array.from(stepCost);
    this.occupants = new Uint8Array(size);
    this.costs = new Int32Array(size);
    this.queue = new Int32Array(size);
    this.queued = new Uint8Array(size);
    this.enemy = new Uint8Array(n);
    this.enemies = new Int32Array(n);
    this.attacks = new Int32Array(n);
    this.outOfReach = new Int32Array(n);
    this.advanceTargets = new Int32Array(n);
    this.advanceCells = new Int32Array(n);
    this.cells = new Int32Array(size);
    this.ex = new Int32Array(n);
    this.ey = new Int32Array(n);
    this.strikes = new Int32Array(n);
    this.blows = new Float64Array(n);
    this.attackWorth = new Float64Array(n);
    this.field = new KernelField(this);
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

  /** attackOdds of place a's blow on place d, as the tactician finds them. */
  oddsOf(a: number, d: number): ActionOdds | undefined {
    const attacker = this.b.cs[a]!;
    const defender = this.b.cs[d]!;
    const k = a * this.n + d;
    const generation = oddsGeneration();
    // An answer kept here is the odds tree's answer for these keys, as the tactician's own
    // front cache (keptOdds) is: good until the tree starts over.
    if (
      this.pairGeneration[k] === generation &&
      this.pairItems[k] === attacker.items &&
      this.pairAttacker[k] === attacker.statuses &&
      this.pairDefender[k] === defender.statuses
    )
      return this.pairOdds[k];
    const odds = attackOdds(this.system, this.stateNow(), attacker, defender);
    this.pairOdds[k] = odds;
    this.pairGeneration[k] = oddsGeneration();
    this.pairItems[k] = attacker.items;
    this.pairAttacker[k] = attacker.statuses;
    this.pairDefender[k] = defender.statuses;
    return odds;
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
    const distances = distanceMaps(setup);
    const { width } = this;
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
   * those cells in index order in `cells`. The cheapest costs, found by relaxing a queue of
   * cells whose cost went down (grid/paths.ts cheapest): the same costs in any visiting order.
   */
  private moves(place: number, movement: number): void {
    const { cs, setup } = this.b;
    const mover = cs[place]!;
    const { occupants, costs, queue, queued, from, next, stepCost, enemy } = this;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || i === place) continue;
      occupants[c.cell] = enemy[i] === 1 ? CELL_ENEMY : CELL_ALLY;
    }
    const budget = Math.max(0, movement);
    const blocking = setup.options.passThroughAllies ? CELL_ENEMY : CELL_ALLY;
    const size = costs.length;
    costs.fill(-1);
    costs[mover.cell] = 0;
    let head = 0;
    let length = 1;
    queue[0] = mover.cell;
    queued[mover.cell] = 1;
    while (length > 0) {
      const index = queue[head]!;
      head = head + 1 === size ? 0 : head + 1;
      length--;
      queued[index] = 0;
      const spent = costs[index]!;
      const last = from[index + 1]!;
      for (let k = from[index]!; k < last; k++) {
        const to = next[k]!;
        if (occupants[to]! >= blocking) continue;
        const total = spent + stepCost[k]!;
        if (total > budget) continue;
        const known = costs[to]!;
        if (known !== -1 && known <= total) continue;
        costs[to] = total;
        if (queued[to] === 0) {
          queued[to] = 1;
          const tail = head + length;
          queue[tail >= size ? tail - size : tail] = to;
          length++;
        }
      }
    }
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || i === place) continue;
      occupants[c.cell] = CELL_EMPTY;
      if (c.cell !== mover.cell) costs[c.cell] = -1;
    }
    const { cells } = this;
    let count = 0;
    for (let cell = 0; cell < size; cell++) if (costs[cell]! >= 0) cells[count++] = cell;
    this.cellCount = count;
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
        const s = strikesOf(setup, c);
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
    if (this.advanceCount > 0) {
      const found = this.bestOf(
        this.advanceCells,
        this.advanceCount,
        bestScore,
        false,
        hp,
        fall,
        arms,
        armsReach,
        nearHere,
      );
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
    const stayScore = score(estimateOf({ chance: 0, extra, price: 0, time: 1 }), field);
    if (stayScore > bestScore) {
      bestKind = Choice.Stay;
      bestCell = -1;
      bestScore = stayScore;
    }
    if (moving) {
      const found = this.bestOf(
        this.cells,
        this.cellCount,
        bestScore,
        true,
        hp,
        fall,
        arms,
        armsReach,
        nearHere,
      );
      if (found >= 0) {
        bestCell = this.cells[found]!;
        bestAdvance = -1;
      }
    }
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
   * above `floor` is; -1 for none. `passOver`: the unit's own cell and the advances' are left out.
   */
  private bestOf(
    cells: Int32Array,
    count: number,
    floor: number,
    passOver: boolean,
    hp: number,
    fall: number,
    arms: Uint8Array | undefined,
    armsReach: number,
    nearHere: number,
  ): number {
    const own = this.b.cs[this.actor]!.cell;
    const { advanceCells, advanceCount, column, row } = this;
    let found = -1;
    let top = floor;
    for (let i = 0; i < count; i++) {
      const cell = cells[i]!;
      if (passOver && (cell === own || isAmong(advanceCells, advanceCount, cell))) continue;
      const s = this.cellWorth(hp, fall, arms, armsReach, nearHere, column[cell]!, row[cell]!);
      if (s > top) {
        found = i;
        top = s;
      }
    }
    this.bestScore = top;
    return found;
  }

  /** The tactician's effectEstimate. */
  private effectEstimate(
    actor: CombatantState,
    command: Extract<ShiningForceCommand, { type: 'cast' | 'use' }>,
    extra: number,
  ): Estimate | undefined {
    const { setup } = this.b;
    const target = this.b.cs[this.b.placeOf.get(command.target)!]!;
    let odds = keptOdds(
      setup,
      command,
      actor.sheet,
      actor.statuses,
      target.statuses,
      actor.id,
      undefined,
      undefined,
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
  private readonly on: number[] = [];
  private readonly of: number[] = [];

  constructor(private readonly t: KernelTactician) {}

  begin(place: number): void {
    this.actorPlace = place;
    this.actor = this.t.fighterAt(place);
    this.on.length = 0;
    this.of.length = 0;
  }

  private placeOf(id: string): number | undefined {
    return this.t.placeOfId(id);
  }

  fighter(id: string): Fighter | undefined {
    const place = this.placeOf(id);
    if (place === undefined) return undefined;
    return place === this.actorPlace ? this.actor : this.t.fighterAt(place);
  }

  threatOn(id: string): number {
    const place = this.placeOf(id);
    if (place === undefined) return 0;
    let t = this.on[place];
    if (t === undefined) {
      t = this.strongest(place, false);
      this.on[place] = t;
    }
    return t;
  }

  threatOf(id: string): number {
    const place = this.placeOf(id);
    if (place === undefined) return 0;
    let t = this.of[place];
    if (t === undefined) {
      t = this.strongest(place, true);
      this.of[place] = t;
    }
    return t;
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

function isAmong(list: Int32Array, count: number, value: number): boolean {
  for (let i = 0; i < count; i++) if (list[i] === value) return true;
  return false;
}

function inPattern(table: Uint8Array, dx: number, dy: number): boolean {
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return table[(dy + SPAN) * SPAN_ROW + dx + SPAN] === 1;
}
