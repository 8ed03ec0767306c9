import { ADJACENT } from '../../../rulesets/shining-force/derived.js';
import { distanceMaps, distanceTo, terrainOf } from '../../../rulesets/shining-force/field.js';
import {
  type Offsets,
  patternTable,
  SPAN,
  SPAN_ROW,
} from '../../../rulesets/shining-force/grid/patterns.js';
import type { Effect, ShiningForceSetup } from '../../../rulesets/shining-force/model.js';
import {
  type CombatantState,
  type ShiningForceState,
  sideOf,
} from '../../../rulesets/shining-force/state.js';
import type { ActionOdds, AnySystem } from '../../../rulesets/system.js';
import {
  curedOf,
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
  blowRides,
  condition,
  defeatAsHarm,
  EXPOSURE,
  effectOdds,
  reachOf,
  strikesOf,
  weaponName,
} from '../../tactician/shining-force.js';
import type { Battle } from './battle.js';
import type { Openings } from './openings.js';
import { MoveSearch } from './reach.js';
import { STEPS, stepsAndReach } from './tables.js';

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
 * a list of objects per decision; the odds of each pair of combatants by place, good while what
 * the odds tree names them by stands (the weapon, both conditions, the target's HP where a
 * rider's chance depends on it); the threats while nobody's statuses, items or being out change.
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
  /** The field's cells. */
  private readonly fieldSize: number;
  /** The last weapon pattern scoreCells was asked about, and its stepsAndReach table. */
  private tablePattern: Uint8Array | undefined;
  private pairTable: Uint8Array = new Uint8Array(0);
  private readonly row: Int32Array;
  /** The move search, which also holds what the last one found (costAt, endsInto). */
  private readonly search: MoveSearch;

  // The decision under way, in reused arrays with their counts.
  private actor = -1;
  private readonly enemy: Uint8Array;
  private readonly enemies: Int32Array;
  /** The unit's living allies, but itself, in the roster's order (options), and how many. */
  private readonly allies: Int32Array;
  private allyCount = 0;
  /** By place: its sheet's maximum HP (sheets come in many shapes: read once). */
  private readonly maxHp: Float64Array;
  /** By place: the MP of its cheapest spell the setup has (canCastAny); Infinity for none. */
  private readonly cheapestSpell: Float64Array;
  private enemyCount = 0;
  private readonly attacks: Int32Array;
  private attackCount = 0;
  private readonly outOfReach: Int32Array;
  private readonly advanceTargets: Int32Array;
  private readonly advanceCells: Int32Array;
  private advanceCount = 0;
  /** How many of the enemies options() found are out of reach (in outOfReach). */
  private outCount = 0;
  private readonly cells: Int32Array;
  private cellCount = 0;
  /** 1 on an advance's cell in the decision under way (cleared at its end). */
  private readonly isAdvance: Uint8Array;
  // scoreCells's scores by cell, and which enemies each cell reaches by place in `cells`.
  /** By place in `cells`: a bit for each enemy (by place in `enemies`) the cell puts in reach. */
  private readonly reachesOn: Int32Array;
  private readonly cellScore: Float64Array;
  // The enemies as every cell of a move decision needs them (Enemies in the tactician).
  private readonly ex: Int32Array;
  /** The enemies' cells, by place in `enemies`. */
  private readonly ecells: Int32Array;
  private readonly ey: Int32Array;
  private readonly strikes: Int32Array;
  private readonly blows: Float64Array;
  private readonly attackWorth: Float64Array;
  private readonly field: KernelField;

  // What each place's sheet, items or statuses give, kept by place (ByList): the odds' names for
  // its statuses and weapon, whether its blow carries a status, how far it strikes by its next
  // turn (the tactician's strikesOf), its spells and items with a use, its weapon's reach.
  private readonly conditions = new ByList((c) => condition(c));
  private readonly weapons: ByList<string>;
  private readonly rides: ByList<boolean>;
  private readonly reaches: ByList<number>;
  /** effectKindsOf by place and items list (kindsAt), and the last list each place was asked for. */
  private readonly kindsByItems: WeakMap<object, readonly EffectKind[]>[] = [];
  private readonly kindsItems: unknown[] = [];
  private readonly kindsHeld: (readonly EffectKind[])[] = [];
  private readonly reachTables = new ByList((_c, range: Offsets) => patternTable(range));
  private readonly armsReaches = new ByList((_c, range: Offsets) => reachOf(range));

  /**
   * By place, a number standing for what the odds name it by: its condition, weapon and whether
   * its blow carries a status (nameAll); a new number, never used before, when any changes.
   */
  private readonly named: Int32Array;
  private names = 0;
  private namedRoster = -1;
  private readonly namedStatuses: unknown[] = [];
  private readonly namedItems: unknown[] = [];
  private readonly namedCondition: string[] = [];
  private readonly namedWeapon: string[] = [];
  private readonly namedRides: Uint8Array;
  /** strikesAt by place, kept with the names (its items' list is among what nameAll checks). */
  private readonly strikesOf: Int32Array;
  /** The side each place fights for now (sideOf), by a number a side (sideNumbers). */
  private readonly sides: Int32Array;
  private readonly sideNumbers = new Map<string, number>();
  /** The cells the roster stands on, but the deciding unit's (options). */
  private readonly taken: Int32Array;
  /** oddsOf's last answer by pair (a * n + d), with both names and the defender's HP it was for. */
  private readonly lastOdds: (ActionOdds | undefined)[] = [];
  private readonly lastA: Int32Array;
  private readonly lastD: Int32Array;
  private readonly lastHp: Float64Array;
  /** Mean HP the pair's blow takes off, a miss counted as 0 (threat), from lastOdds. */
  private readonly lastThreat: Float64Array;
  /** Where the odds depend on the defender's HP, the pair's answers by HP for its names. */
  private readonly lastByHp: (Map<number, ActionOdds | null> | undefined)[] = [];
  /** attackWorthOn's answers by pair, with the names, target's HP and threat each was for. */
  private readonly worthValue: Float64Array;
  private readonly worthA: Int32Array;
  private readonly worthD: Int32Array;
  private readonly worthHp: Float64Array;
  private readonly worthThreat: Float64Array;
  /** The effects offered in the decision under way: the kind's index and the place aimed at. */
  private effectKinds = new Int32Array(16);
  private effectTargets = new Int32Array(16);
  /** scoreCells's top score, how many cells have it, and where in `cells` the first is. */
  private top = Number.NEGATIVE_INFINITY;
  private ties = 0;
  private firstTop = -1;
  /**
   * scoreCells's risks by set of enemies (a bit by place in `enemies`), each good for the
   * decision whose number riskFor holds beside it.
   */
  private riskBy = new Float64Array(64);
  private riskFor = new Int32Array(64);
  private decisions = 0;
  /** The effects' scores in the decision under way, by place in effectKinds. */
  private effectScores = new Float64Array(16);
  private readonly distances: (Int32Array | undefined)[];

  constructor(
    private readonly system: AnySystem,
    private readonly b: Battle,
    private readonly openings: Openings,
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
    this.enemy = new Uint8Array(n);
    this.enemies = new Int32Array(n);
    this.allies = new Int32Array(n);
    this.cheapestSpell = new Float64Array(n);
    this.maxHp = Float64Array.from(b.cs, (c) => c.sheet.stats.hp);
    for (let i = 0; i < n; i++) {
      let cheapest = Number.POSITIVE_INFINITY;
      for (const id of b.cs[i]!.sheet.spells)
        cheapest = Math.min(cheapest, b.setup.spells[id]?.mpCost ?? cheapest);
      this.cheapestSpell[i] = cheapest;
    }
    this.attacks = new Int32Array(n);
    this.outOfReach = new Int32Array(n);
    this.advanceTargets = new Int32Array(n);
    this.advanceCells = new Int32Array(n);
    this.cells = new Int32Array(size);
    this.isAdvance = new Uint8Array(size);
    this.reachesOn = new Int32Array(size);
    this.cellScore = new Float64Array(size);
    this.ex = new Int32Array(n);
    this.ecells = new Int32Array(n);
    this.fieldSize = size;
    this.ey = new Int32Array(n);
    this.strikes = new Int32Array(n);
    this.blows = new Float64Array(n);
    this.attackWorth = new Float64Array(n);
    this.field = new KernelField(this);
    this.named = new Int32Array(n);
    this.namedRides = new Uint8Array(n);
    this.strikesOf = new Int32Array(n);
    this.sides = new Int32Array(n);
    this.taken = new Int32Array(n);
    this.lastA = new Int32Array(n * n);
    this.lastD = new Int32Array(n * n);
    this.lastHp = new Float64Array(n * n);
    this.lastThreat = new Float64Array(n * n);
    this.worthValue = new Float64Array(n * n);
    this.worthA = new Int32Array(n * n);
    this.worthD = new Int32Array(n * n);
    this.worthHp = new Float64Array(n * n);
    this.worthThreat = new Float64Array(n * n);
    this.distances = distanceMaps(b.setup);
    const setup = b.setup;
    this.weapons = new ByList((c) => weaponName(setup, c));
    this.rides = new ByList((c) => blowRides(setup, c));
    this.reaches = new ByList((c) => strikesOf(setup, c));
  }

  /** How many combatants the roster holds. */
  get size(): number {
    return this.n;
  }

  get battle(): Battle {
    return this.b;
  }

  /** The place of `id`; the last asked kept, as scoring asks of one target several times. */
  placeOfId(id: string): number | undefined {
    if (id === this.lastId) return this.lastPlace;
    const place = this.b.placeOf.get(id);
    this.lastId = id;
    this.lastPlace = place;
    return place;
  }

  private lastId = '';
  private lastPlace: number | undefined;

  fighterAt(i: number): Fighter {
    const c = this.b.cs[i]!;
    return { id: c.id, side: c.side, hp: c.hp, maxHp: this.maxHp[i]!, out: c.defeated };
  }

  /** The rules' state now, for an answer the odds cache does not have yet (rare). */
  private stateNow(): ShiningForceState {
    return this.b.state();
  }

  /** The odds tree's name for place i's statuses. */
  conditionAt(i: number): string {
    const c = this.b.cs[i]!;
    return this.conditions.at(i, c, c.statuses, undefined);
  }

  private ridesAt(i: number): boolean {
    const c = this.b.cs[i]!;
    return this.rides.at(i, c, c.items, undefined);
  }

  private weaponAt(i: number): string {
    const c = this.b.cs[i]!;
    return this.weapons.at(i, c, c.items, undefined);
  }

  /**
   * Brings `named` up to date with the roster: a place whose statuses or items were replaced
   * since gets a new number if its condition, weapon or rider changed with them (a status
   * counted down, a herb used, leave those as they were). Called at the start of a decision.
   */
  private nameAll(): void {
    const b = this.b;
    if (b.roster === this.namedRoster) return;
    this.namedRoster = b.roster;
    const { cs } = b;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.statuses === this.namedStatuses[i] && c.items === this.namedItems[i]) continue;
      this.namedStatuses[i] = c.statuses;
      this.namedItems[i] = c.items;
      this.strikesOf[i] = this.strikesAt(i);
      // A charm changes sides (sideOf): sides as numbers, compared without reading strings.
      const side = sideOf(c);
      let number = this.sideNumbers.get(side);
      if (number === undefined) {
        number = this.sideNumbers.size;
        this.sideNumbers.set(side, number);
      }
      this.sides[i] = number;
      const condition = this.conditionAt(i);
      const weapon = this.weaponAt(i);
      const rides = this.ridesAt(i) ? 1 : 0;
      if (
        condition !== this.namedCondition[i] ||
        weapon !== this.namedWeapon[i] ||
        rides !== this.namedRides[i]
      ) {
        this.namedCondition[i] = condition;
        this.namedWeapon[i] = weapon;
        this.namedRides[i] = rides;
        this.named[i] = ++this.names;
      }
    }
  }

  /**
   * attackOdds of place a's blow on place d, as the tactician finds them. The answer given last
   * for the pair stands while neither place's name (`named`) changed and, where the odds depend
   * on it, the defender has the same HP: the odds tree's key is the ids, the weapon, the two
   * conditions and that HP, and its numbers depend on nothing else, in this battle or the next.
   */
  oddsOf(a: number, d: number): ActionOdds | undefined {
    const pair = a * this.n + d;
    if (!this.pairStands(a, d, pair)) this.askPair(a, d, pair);
    return this.lastOdds[pair];
  }

  /** Whether the pair's last answer (lastOdds, lastThreat) is still the answer. */
  private pairStands(a: number, d: number, pair: number): boolean {
    return (
      this.lastA[pair] === this.named[a] &&
      this.lastD[pair] === this.named[d] &&
      (this.namedRides[a] === 0 || this.lastHp[pair] === this.b.cs[d]!.hp)
    );
  }

  private askPair(a: number, d: number, pair: number): void {
    const hp = this.b.cs[d]!.hp;
    let odds: ActionOdds | undefined;
    if (this.namedRides[a] === 1) {
      // By the defender's HP, for these names: a rider's odds are asked again at every HP a
      // defender passes through, battle after battle.
      let byHp = this.lastByHp[pair];
      if (
        byHp === undefined ||
        this.lastA[pair] !== this.named[a] ||
        this.lastD[pair] !== this.named[d]
      ) {
        byHp = new Map();
        this.lastByHp[pair] = byHp;
      }
      const kept = byHp.get(hp);
      if (kept === undefined) {
        odds = this.namedOdds(a, d);
        byHp.set(hp, odds ?? null);
      } else odds = kept ?? undefined;
    } else odds = this.namedOdds(a, d);
    this.lastOdds[pair] = odds;
    this.lastThreat[pair] = (odds?.chance ?? 0) * (odds?.damage?.mean ?? 0);
    this.lastA[pair] = this.named[a]!;
    this.lastD[pair] = this.named[d]!;
    this.lastHp[pair] = hp;
  }

  /**
   * The odds of place a's blow on place d from the odds tree, by what it names them by (the
   * weapon, the two conditions, the defender's HP where a rider's chance depends on it); only
   * when it has none is the state made to ask the system, through the tactician's own
   * attackOdds (which keeps it in the tree). Asked only when the pair's names or that HP are
   * new to askPair.
   */
  private namedOdds(a: number, d: number): ActionOdds | undefined {
    const attacker = this.b.cs[a]!;
    const defender = this.b.cs[d]!;
    const odds = treeOdds(
      this.b.setup,
      'attack',
      attacker.id,
      this.weaponAt(a),
      defender.id,
      this.conditionAt(a),
      this.conditionAt(d),
      this.ridesAt(a) ? defender.hp : undefined,
    );
    return odds === NOT_KEPT ? attackOdds(this.system, this.stateNow(), attacker, defender) : odds;
  }

  /** reachOf place i's weapon range. */
  private armsReachAt(i: number, range: Offsets): number {
    return this.armsReaches.at(i, this.b.cs[i]!, range, range);
  }

  /** patternTable of place i's weapon range. */
  private reachTableAt(i: number, range: Offsets): Uint8Array {
    return this.reachTables.at(i, this.b.cs[i]!, range, range);
  }

  /** The tactician's strikesOf for place i, looked up by place rather than by sheet. */
  private strikesAt(i: number): number {
    const c = this.b.cs[i]!;
    return this.reaches.at(i, c, c.items, undefined);
  }

  /** Mean HP place a's blow takes off place d, a miss counted as 0 (Tactics.threat). */
  threat(a: number, d: number): number {
    const pair = a * this.n + d;
    if (!this.pairStands(a, d, pair)) this.askPair(a, d, pair);
    return this.lastThreat[pair]!;
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
    const openings = this.openings;
    if (!this.openingKey(place, moving)) {
      this.decide(place, moving);
      return;
    }
    const slot = openings.find();
    if (slot >= 0) {
      this.kind = openings.kind(slot);
      this.target = openings.target(slot);
      this.cell = openings.cell(slot);
      this.what = openings.what(slot);
      return;
    }
    this.decide(place, moving);
    openings.keep(this.kind, this.target, this.cell, this.what);
  }

  private decide(place: number, moving: boolean): void {
    this.nameAll();
    this.options(place, moving);
    const effects = this.effects(place);
    if (!moving && this.attackCount === 0 && effects === 0) {
      this.kind = Choice.Stay;
      return;
    }
    this.field.begin(place);
    this.directChoice(place, moving, effects);
  }

  /** The battle in which a list was last found changed from its start's (openingKey). */
  private listsChangedIn = -1;

  /**
   * Fills the openings' key for this decision: in the battle's first round, while every
   * combatant holds the items and statuses it started with (the same lists: the rules replace a
   * list when it changes), whose decision, the step, and every combatant's cell, standing, HP
   * and MP, all else a choice reads being the start's. False past the first round, where
   * battles have gone their own ways (of the gate's second round, one decision in twenty was
   * made before), or once a list changed.
   */
  private openingKey(place: number, moving: boolean): boolean {
    const b = this.b;
    if (b.round !== b.firstRound || this.listsChangedIn === b.battles) return false;
    const { cs, started } = b;
    const key = this.openings.key;
    key[0] = place;
    key[1] = moving ? 1 : 0;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      const s = started[i]!;
      if (c.items !== s.items || c.statuses !== s.statuses) {
        this.listsChangedIn = b.battles;
        return false;
      }
      // Two numbers of 16 bits each: HP and MP are whole numbers well inside (at most 999 on a
      // sheet), the cell below MAX_SIDE squared. Anything else is not kept.
      const { hp, mp } = c;
      if ((hp | 0) !== hp || (mp | 0) !== mp || hp <= -HALF || hp >= HALF || mp < 0 || mp >= HALF)
        return false;
      key[2 + 2 * i] = c.cell | (c.defeated ? HALF : 0);
      key[3 + 2 * i] = (hp + HALF) | (mp << 16);
    }
    return true;
  }

  /**
   * legal.ts options, but the effects: the enemies in the roster's order, who is in reach, and
   * (moving) where a move may end (field.ts movesOf: what each cell costs to end the move on,
   * -1 where it may not, in the move search's costAt, and those cells in index order in
   * `cells`). One pass over the roster finds the enemies, the blockers and the cells taken.
   */
  private options(place: number, moving: boolean): void {
    const b = this.b;
    const { cs, setup } = b;
    const actor = cs[place]!;
    const { enemy, enemies, allies, attacks, outOfReach, column, row, sides, taken, search } = this;
    let enemyCount = 0;
    let attackCount = 0;
    let outCount = 0;
    let takenCount = 0;
    let allyCount = 0;
    const arms = b.armamentOf(place);
    const reach = arms === undefined ? undefined : this.reachTableAt(place, arms.range);
    const ax = column[actor.cell]!;
    const ay = row[actor.cell]!;
    const side = sides[place]!;
    // An enemy always blocks the way; an ally too unless allies may be passed through.
    const alliesBlock = !setup.options.passThroughAllies;
    if (moving) search.clearBlockers();
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      enemy[i] = 0;
      if (c.defeated || i === place) continue;
      taken[takenCount++] = c.cell;
      const foe = sides[i] !== side;
      if (moving && (foe || alliesBlock)) search.block(c.cell);
      if (!foe) {
        allies[allyCount++] = i;
        continue;
      }
      enemy[i] = 1;
      enemies[enemyCount++] = i;
      if (reach !== undefined && inPattern(reach, column[c.cell]! - ax, row[c.cell]! - ay))
        attacks[attackCount++] = i;
      else outOfReach[outCount++] = i;
    }
    this.enemyCount = enemyCount;
    this.allyCount = allyCount;
    this.attackCount = attackCount;
    this.advanceCount = 0;
    this.cellCount = 0;
    if (!moving) return;
    this.outCount = outCount;
    search.find(actor.cell, Math.max(0, b.derivedOf(place).movement));
    // As moveCosts: no move ends on someone else's cell.
    for (let k = 0; k < takenCount; k++) {
      const cell = taken[k]!;
      if (cell !== actor.cell) search.exclude(cell);
    }
    this.cellCount = search.endsInto(this.cells);
  }

  /**
   * legal.ts options' advances: for each enemy out of reach (options), the cell in reach of it at
   * the least cost, else the one closing in the most; none onto the unit's own cell. Only a tie
   * between cells or with another option needs them (advancesCount): an advance's cell is one
   * of the cells, and what sets it apart is only that it wins a tie. So only one on a cell of
   * the top score (scoreCells) can change the choice, and only the first such, in the enemies'
   * order, as directChoice weighs them: the advances stop there, and it is the only one kept.
   */
  private advances(place: number): void {
    const b = this.b;
    const { cs, setup } = b;
    const actor = cs[place]!;
    const { outOfReach, outCount, column, row } = this;
    const arms = b.armamentOf(place);
    const { distances, width, search } = this;
    const height = this.fieldSize / width;
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
          const cost = search.costAt(cell);
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
      if (to === actor.cell || this.cellScore[to] !== this.top) continue;
      this.advanceTargets[0] = t;
      this.advanceCells[0] = to;
      this.isAdvance[to] = 1;
      this.advanceCount = 1;
      return;
    }
  }

  /** The spells and items place i may use (effectKindsOf). */
  private kindsAt(i: number): readonly EffectKind[] {
    const c = this.b.cs[i]!;
    if (this.kindsItems[i] === c.items) return this.kindsHeld[i]!;
    // Kept by the list for the kernel's life, not only the last one: every battle starts again
    // from the start's lists, and the kinds keep their odds (EffectKind.last).
    let byItems = this.kindsByItems[i];
    if (byItems === undefined) {
      byItems = new WeakMap();
      this.kindsByItems[i] = byItems;
    }
    let kinds = byItems.get(c.items);
    if (kinds === undefined) {
      kinds = effectKindsOf(this.b.setup, c, this.n);
      byItems.set(c.items, kinds);
    }
    this.kindsItems[i] = c.items;
    this.kindsHeld[i] = kinds;
    return kinds;
  }

  /**
   * legal.ts options' effects (offer): each spell the unit has the MP for and each item it may
   * use, with whom each may be aimed at from where it stands (itself first when aimed at its
   * own side, then the roster's order), into effectKinds and effectTargets; how many pairs.
   * Reads the enemies and allies options() found.
   */
  private effects(place: number): number {
    const kinds = this.kindsAt(place);
    if (kinds.length === 0) return 0;
    const actor = this.b.cs[place]!;
    // canCastAny: some MP, and at least the cheapest spell's (cheapestSpell).
    const casts = actor.mp > 0 && actor.mp >= this.cheapestSpell[place]!;
    const { enemies, allies, column, row } = this;
    const cs = this.b.cs;
    const ax = column[actor.cell]!;
    const ay = row[actor.cell]!;
    let count = 0;
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[k]!;
      if (kind.cast && (!casts || kind.mpCost > actor.mp)) continue;
      const range = kind.range;
      if (kind.aimEnemy) {
        for (let e = 0; e < this.enemyCount; e++) {
          const i = enemies[e]!;
          const at = cs[i]!.cell;
          if (inPattern(range, column[at]! - ax, row[at]! - ay)) count = this.offer(count, k, i);
        }
      } else {
        if (inPattern(range, 0, 0)) count = this.offer(count, k, place);
        for (let a = 0; a < this.allyCount; a++) {
          const i = allies[a]!;
          const at = cs[i]!.cell;
          if (inPattern(range, column[at]! - ax, row[at]! - ay)) count = this.offer(count, k, i);
        }
      }
    }
    return count;
  }

  /** Adds kind k aimed at place i as the effect at `count`; the new count. */
  private offer(count: number, k: number, i: number): number {
    if (count === this.effectKinds.length) this.growEffects();
    this.effectKinds[count] = k;
    this.effectTargets[count] = i;
    return count + 1;
  }

  private growEffects(): void {
    const kinds = new Int32Array(this.effectKinds.length * 2);
    kinds.set(this.effectKinds);
    const targets = new Int32Array(this.effectTargets.length * 2);
    targets.set(this.effectTargets);
    this.effectKinds = kinds;
    this.effectTargets = targets;
  }

  /** What the unit's attack on enemy k (of this decision's enemies) is worth; -1: none. */
  private attackOn(k: number): number {
    let w = this.attackWorth[k]!;
    if (Number.isNaN(w)) {
      w = this.attackWorthOn(this.enemies[k]!);
      this.attackWorth[k] = w;
    }
    return w;
  }

  /**
   * worth of the deciding unit's attack on place `target` (its estimate, no extra); -1 when it
   * has none. The worth of a blow on a standing enemy reads its odds (fixed by the two names and,
   * where a status rides on it, the target's HP), the target's HP, maximum HP and side, and where
   * a status may land, the threat the target poses: kept by pair while those stand, battle after
   * battle. A unit's move and its attack after it ask the same.
   */
  private attackWorthOn(target: number): number {
    const actor = this.actor;
    const pair = actor * this.n + target;
    const c = this.b.cs[target]!;
    const hp = c.hp;
    // The threat the target poses counts only where the blow may put a status on it.
    const status = this.oddsOf(actor, target)?.status;
    const threat = status !== undefined && status > 0 ? this.field.threatOf(c.id) : 0;
    if (
      this.worthA[pair] === this.named[actor] &&
      this.worthD[pair] === this.named[target] &&
      this.worthHp[pair] === hp &&
      this.worthThreat[pair] === threat
    )
      return this.worthValue[pair]!;
    const e = this.attackEstimate(target);
    const w = e === undefined ? -1 : worth(e, this.field);
    this.worthValue[pair] = w;
    this.worthA[pair] = this.named[actor]!;
    this.worthD[pair] = this.named[target]!;
    this.worthHp[pair] = hp;
    this.worthThreat[pair] = threat;
    return w;
  }

  /** The tactician's attackEstimate on place `target`, with `extra` added (none for a worth). */
  private attackEstimate(target: number, extra?: number): Estimate | undefined {
    const odds = this.oddsOf(this.actor, target);
    if (odds?.damage === undefined) return undefined;
    return estimateOf({
      target: this.b.cs[target]!.id,
      chance: odds.chance ?? 0,
      harm: odds.damage,
      status: odds.status,
      price: 0,
      time: 1,
      extra,
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
  private directChoice(place: number, moving: boolean, effects: number): void {
    const b = this.b;
    const { cs } = b;
    const actor = cs[place]!;
    const field = this.field;
    const hp = actor.hp;
    const fall = RESCUE_VALUE * 0.5 * this.maxHp[place]!;
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
        this.ecells[k] = c.cell;
        const s = this.strikesOf[e]!;
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
      arms = range === undefined ? undefined : this.reachTableAt(place, range);
      armsReach = range === undefined ? 0 : this.armsReachAt(place, range);
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
      let s: number;
      if (!moving) {
        // With nothing added (extra is -here, -0), the score of a blow is its worth less no
        // price over one turn: the worth itself, but for the sign of a zero, which no
        // comparison sees.
        const w = this.attackWorthOn(t);
        s = Math.max(w, 0);
      } else {
        const e = this.attackEstimate(t, extra);
        s = e === undefined ? 0 : score(e, field);
      }
      if (s > bestScore) {
        bestKind = Choice.Attack;
        bestTarget = t;
        bestScore = s;
      }
    }
    if (moving) this.scoreCells(hp, fall, arms, armsReach, nearHere);
    const kinds = this.kindsAt(place);
    if (effects > this.effectScores.length) this.effectScores = new Float64Array(effects * 2);
    const effectScores = this.effectScores;
    let bestEffect = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < effects; k++) {
      const s = this.effectScore(
        actor,
        kinds[this.effectKinds[k]!]!,
        this.effectTargets[k]!,
        extra,
      );
      effectScores[k] = s;
      if (s > bestEffect) bestEffect = s;
    }
    // score(estimateOf({ chance: 0, extra, price: 0, time: 1 })): worth with no target is its
    // extra, less no price, over one turn; the same number.
    const stayScore = extra;
    if (
      moving &&
      this.outCount > 0 &&
      this.advancesCount(bestScore, Math.max(bestEffect, stayScore))
    )
      this.advances(place);
    if (this.advanceCount > 0) {
      const found = this.bestOf(this.advanceCells, this.advanceCount, bestScore, false);
      if (found >= 0) {
        bestKind = Choice.None;
        bestCell = this.advanceCells[found]!;
        bestAdvance = found;
        bestScore = this.bestScore;
      }
    }
    for (let k = 0; k < effects; k++) {
      const kind = kinds[this.effectKinds[k]!]!;
      const target = this.effectTargets[k]!;
      const s = effectScores[k]!;
      if (s > bestScore) {
        bestKind = kind.cast ? Choice.Cast : Choice.Use;
        bestTarget = target;
        bestWhat = kind.id;
        bestCell = -1;
        bestScore = s;
      }
    }
    if (stayScore > bestScore) {
      bestKind = Choice.Stay;
      bestCell = -1;
      bestScore = stayScore;
    }
    if (moving) {
      // With no advance kept, the first cell of the top score (scoreCells) is bestOf's answer.
      const found =
        this.advanceCount > 0
          ? this.bestOf(this.cells, this.cellCount, bestScore, true)
          : this.top > bestScore
            ? this.firstTop
            : -1;
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
   * Whether the advances can change the choice, from the cells' top score (scoreCells), the best
   * attack's and the best of the effects and staying. Taken in directChoice's order, an advance
   * only wins where its cell does (it is one of the cells), but for two ties: among the cells
   * scoring the most (the first advance among them wins, not the first cell), and between those
   * cells and an effect or staying (an advance is weighed before them, a cell after, each
   * replacing only what it beats). A best cell tying with the best attack loses either way.
   */
  private advancesCount(attack: number, other: number): boolean {
    const { top, ties } = this;
    const rest = Math.max(attack, other);
    return (top > rest && ties > 1) || (top === rest && rest > attack);
  }

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
   * among them), into cellScore by cell, each to the last bit. A cell's loop over the enemies
   * takes only integers: the nearest, which enemies it puts in reach and which can strike it,
   * as bits. What those can strike for (riskOf: their sum and the strongest, added in the
   * enemies' order as cellWorth adds them) is the same for every cell they strike together, so
   * it is worked out once a decision for each set of them that strikes some cell (riskBy). What
   * attacking each enemy is worth is looked up after the loop, only for the enemies some cell
   * reaches (as cellWorth looks it up). More than 16 enemies (more sets than a table should
   * hold): cellWorth cell by cell.
   */
  private scoreCells(
    hp: number,
    fall: number,
    arms: Uint8Array | undefined,
    armsReach: number,
    nearHere: number,
  ): void {
    const count = this.enemyCount;
    if (count > 16 || count === 0) {
      this.scoreCellsOneByOne(hp, fall, arms, armsReach, nearHere);
      return;
    }
    const { cells, cellCount, ecells, strikes, fieldSize } = this;
    // No weapon reaches from any cell: a table of none.
    const pattern = arms ?? NO_REACH;
    if (pattern !== this.tablePattern) {
      this.tablePattern = pattern;
      this.pairTable = stepsAndReach(terrainOf(this.b.setup), pattern);
    }
    const table = this.pairTable;
    const { reachesOn, cellScore, attackWorth } = this;
    const own = this.b.cs[this.actor]!.cell;
    if (this.riskBy.length < 1 << count) {
      this.riskBy = new Float64Array(1 << count);
      this.riskFor = new Int32Array(1 << count);
    }
    const { riskBy, riskFor } = this;
    // riskBy holds a set's risk for this decision where riskFor holds its number.
    const decision = ++this.decisions;
    let reached = 0;
    for (let j = 0; j < cellCount; j++) {
      const cell = cells[j]!;
      if (cell === own) continue;
      const from = cell * fieldSize;
      let reaching = 0;
      let striking = 0;
      let nearest = FAR;
      // No branch on what each enemy is to the cell: they go either way at random, and the
      // mispredictions cost more than the arithmetic.
      for (let i = 0; i < count; i++) {
        const to = from + ecells[i]!;
        const entry = table[to]!;
        const d = entry & STEPS;
        const closer = nearest - d;
        nearest = d + (closer & (closer >> 31));
        reaching |= (entry >> 7) << i;
        // 1 when d <= strikes (never for -1, an enemy that strikes nobody).
        striking |= (((strikes[i]! - d) >>> 31) ^ 1) << i;
      }
      if (riskFor[striking] !== decision) {
        riskBy[striking] = this.riskOf(striking, hp, fall);
        riskFor[striking] = decision;
      }
      // Read from the table, not from the call: a call's result is a boxed number.
      const risk = riskBy[striking]!;
      reachesOn[j] = reaching;
      reached |= reaching;
      // cellWorth's best + closer - risk, its very operations: with no attack in reach best is
      // 0; with one, closer is 0 and best is added below (the risk waits here till then).
      cellScore[cell] = reaching !== 0 ? risk : 0 + APPROACH * (nearHere - nearest) - risk;
    }
    if (reached !== 0)
      for (let i = 0; i < count; i++) if ((reached & (1 << i)) !== 0) this.attackOn(i);
    // The best attack of each cell with one in reach.
    if (reached !== 0) {
      for (let j = 0; j < cellCount; j++) {
        let reaching = reachesOn[j]!;
        if (reaching === 0) continue;
        const cell = cells[j]!;
        if (cell === own) continue;
        let best = 0;
        while (reaching !== 0) {
          const low = reaching & -reaching;
          const attack = attackWorth[31 - Math.clz32(low)]!;
          if (attack > best) best = attack;
          reaching ^= low;
        }
        cellScore[cell] = best + 0 - cellScore[cell]!;
      }
    }
    this.topOfCells();
  }

  /**
   * cellWorth's risk on a cell the enemies in `striking` (bits by place in `enemies`) can strike:
   * their blows summed and the strongest taken in the enemies' order, as cellWorth does.
   */
  private riskOf(striking: number, hp: number, fall: number): number {
    const blows = this.blows;
    let sum = 0;
    let strongest = 0;
    let left = striking;
    while (left !== 0) {
      const low = left & -left;
      const blow = blows[31 - Math.clz32(low)]!;
      sum += blow;
      if (blow > strongest) strongest = blow;
      left ^= low;
    }
    let risk = EXPOSURE * (sum - strongest);
    if (sum >= hp) risk += fall;
    return risk;
  }

  /** scoreCells for a unit facing more than 16 enemies (or none): cellWorth cell by cell. */
  private scoreCellsOneByOne(
    hp: number,
    fall: number,
    arms: Uint8Array | undefined,
    armsReach: number,
    nearHere: number,
  ): void {
    const { cells, cellCount, column, row, cellScore } = this;
    const own = this.b.cs[this.actor]!.cell;
    for (let j = 0; j < cellCount; j++) {
      const cell = cells[j]!;
      if (cell === own) continue;
      cellScore[cell] = this.cellWorth(
        hp,
        fall,
        arms,
        armsReach,
        nearHere,
        column[cell]!,
        row[cell]!,
      );
    }
    this.topOfCells();
  }

  /** The cells' top score, how many have it and where the first is, for directChoice. */
  private topOfCells(): void {
    const { cells, cellCount, cellScore } = this;
    const own = this.b.cs[this.actor]!.cell;
    let top = Number.NEGATIVE_INFINITY;
    let ties = 0;
    let firstTop = -1;
    for (let j = 0; j < cellCount; j++) {
      const cell = cells[j]!;
      if (cell === own) continue;
      const score = cellScore[cell]!;
      if (score > top) {
        top = score;
        ties = 1;
        firstTop = j;
      } else if (score === top) ties++;
    }
    this.top = top;
    this.ties = ties;
    this.firstTop = firstTop;
  }

  /**
   * The odds of `kind` used by the deciding unit on place `target`, as the tactician finds them.
   * The answer given last for the target stands while neither's name (`named`) changed and,
   * where it inflicts a status, the target has the same HP: the odds tree's key.
   */
  private effectOddsOf(
    actor: CombatantState,
    kind: EffectKind,
    target: number,
  ): ActionOdds | undefined {
    const { setup, cs } = this.b;
    const hp = cs[target]!.hp;
    const inflicts = kind.inflicts;
    const last = kind.last;
    const sameNames =
      last.actor[target] === this.named[this.actor] && last.target[target] === this.named[target];
    if (sameNames && (!inflicts || last.hp[target] === hp)) return last.odds[target];
    // Where the odds depend on the target's HP, kept by HP for these names (as askPair does).
    let byHp: Map<number, ActionOdds | null> | undefined;
    if (inflicts) {
      byHp = last.byHp[target];
      if (byHp === undefined || !sameNames) {
        byHp = new Map();
        last.byHp[target] = byHp;
      }
      const kept = byHp.get(hp);
      if (kept !== undefined) {
        last.odds[target] = kept ?? undefined;
        last.actor[target] = this.named[this.actor]!;
        last.target[target] = this.named[target]!;
        last.hp[target] = hp;
        return kept ?? undefined;
      }
    }
    const targetId = cs[target]!.id;
    let odds = treeOdds(
      setup,
      kind.cast ? 'cast' : 'use',
      actor.id,
      kind.id,
      targetId,
      this.conditionAt(this.actor),
      this.conditionAt(target),
      inflicts ? hp : undefined,
    );
    if (odds === NOT_KEPT)
      odds = effectOdds(
        this.system,
        this.stateNow(),
        actor,
        kind.cast
          ? { type: 'cast', actor: actor.id, spell: kind.id, target: targetId }
          : { type: 'use', actor: actor.id, item: kind.id, target: targetId },
      );
    byHp?.set(hp, odds ?? null);
    last.odds[target] = odds;
    last.actor[target] = this.named[this.actor]!;
    last.target[target] = this.named[target]!;
    last.hp[target] = hp;
    return odds;
  }

  /** score of effectEstimate; 0 where it has none. */
  private effectScore(
    actor: CombatantState,
    kind: EffectKind,
    target: number,
    extra: number,
  ): number {
    const e = this.effectEstimate(actor, kind, target, extra);
    return e === undefined ? 0 : score(e, this.field);
  }

  /** The effect's price to the deciding unit (poolPrice: MP for a spell, one of its items). */
  private priceOf(actor: CombatantState, kind: EffectKind): number {
    const maxHp = this.maxHp[this.actor]!;
    if (kind.cast) return poolPrice(kind.mpCost, actor.mp, maxHp);
    let held = 0;
    for (const h of actor.items) if (h.item === kind.id) held++;
    return poolPrice(1, held, maxHp);
  }

  /** The tactician's effectEstimate of `kind` aimed at place `target`. */
  private effectEstimate(
    actor: CombatantState,
    kind: EffectKind,
    target: number,
    extra: number,
  ): Estimate | undefined {
    const { cs } = this.b;
    const targetId = cs[target]!.id;
    const odds = this.effectOddsOf(actor, kind, target);
    if (odds === undefined) return undefined;
    const price = this.priceOf(actor, kind);
    const spread = odds.damage;
    // The effect's fields as the kind keeps them (effects have many shapes; reading them here
    // was a megamorphic load each): the tactician's heal, harm (defeatAsHarm) and cures (curedBy).
    return estimateOf({
      target: targetId,
      chance: odds.chance ?? 0,
      heal: kind.heals ? spread : undefined,
      harm:
        !kind.heals && kind.damages
          ? spread
          : kind.defeats
            ? defeatAsHarm(kind.effect, cs[target])
            : undefined,
      status: odds.status,
      cures: curedOf(kind.cures, cs[target]!.statuses),
      extra,
      price,
      time: 1,
    });
  }
}

/** A spell a combatant knows or an item it carries that has a use, as the options offer it. */
interface EffectKind {
  readonly cast: boolean;
  /** The spell's or the item's id. */
  readonly id: string;
  readonly effect: Effect;
  /** Where it may be aimed from the user's cell: its range as a table (grid/patterns.ts). */
  readonly range: Uint8Array;
  readonly aimEnemy: boolean;
  /** Spells: their MP; items: 0. */
  readonly mpCost: number;
  /** Whether the effect has a heal, damage, an instant defeat, a status it inflicts. */
  readonly heals: boolean;
  readonly damages: boolean;
  readonly defeats: boolean;
  readonly inflicts: boolean;
  /** The statuses it cures. */
  readonly cures: readonly string[];
  /** effectOddsOf's last answer by target place, with the names and HP it was for. */
  readonly last: {
    readonly odds: (ActionOdds | undefined)[];
    readonly actor: Int32Array;
    readonly target: Int32Array;
    readonly hp: Float64Array;
    readonly byHp: (Map<number, ActionOdds | null> | undefined)[];
  };
}

/**
 * The spells (in the sheet's order, those the setup has) and then the items with a use (each
 * item once, at its first slot) a combatant may offer, as legal.ts options goes through them.
 */
function effectKindsOf(setup: ShiningForceSetup, c: CombatantState, size: number): EffectKind[] {
  const kinds: EffectKind[] = [];
  const kindOf = (cast: boolean, id: string, effect: Effect, mpCost: number): EffectKind => ({
    cast,
    id,
    effect,
    range: patternTable(setup.patterns[effect.range] ?? ADJACENT),
    aimEnemy: effect.aim === 'enemy',
    mpCost,
    heals: effect.heal !== undefined,
    damages: effect.damage !== undefined,
    defeats: effect.defeats !== undefined,
    inflicts: effect.inflicts !== undefined,
    cures: effect.cures,
    // Names start at 1 (nameAll): 0 matches no place's.
    last: {
      odds: [],
      actor: new Int32Array(size),
      target: new Int32Array(size),
      hp: new Float64Array(size),
      byHp: [],
    },
  });
  for (const id of c.sheet.spells) {
    const spell = setup.spells[id];
    if (spell !== undefined) kinds.push(kindOf(true, id, spell, spell.mpCost));
  }
  for (let i = 0; i < c.items.length; i++) {
    const held = c.items[i]!;
    let first = true;
    for (let j = 0; j < i; j++) if (c.items[j]!.item === held.item) first = false;
    if (!first) continue;
    const use = setup.items[held.item]?.use;
    if (use !== undefined) kinds.push(kindOf(false, held.item, use, 0));
  }
  return kinds;
}

/** Half of 16 bits: what openingKey adds to HP to keep it from going below 0. */
const HALF = 1 << 15;

/**
 * What a combatant's sheet and one of its lists (items, statuses) give, kept by place in the
 * roster while that list is the same one: the state replaces a list when it changes, never
 * changes one, and a place's sheet is its own for the whole battle.
 */
class ByList<T, A = undefined> {
  private readonly values: T[] = [];
  private readonly lists: unknown[] = [];

  constructor(private readonly make: (c: CombatantState, argument: A) => T) {}

  at(place: number, c: CombatantState, list: unknown, argument: A): T {
    if (this.lists[place] !== list) {
      this.values[place] = this.make(c, argument);
      this.lists[place] = list;
    }
    return this.values[place]!;
  }
}

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
  private readonly on: KeptThreats;
  private readonly of: KeptThreats;

  constructor(private readonly t: KernelTactician) {
    this.on = new KeptThreats(t.size);
    this.of = new KeptThreats(t.size);
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
    return this.threat(this.on, id, false);
  }

  threatOf(id: string): number {
    return this.threat(this.of, id, true);
  }

  private threat(kept: KeptThreats, id: string, attacking: boolean): number {
    const place = this.t.placeOfId(id);
    if (place === undefined) return 0;
    const roster = this.t.battle.roster;
    if (kept.roster[place] !== roster || kept.generation[place] !== oddsGeneration()) {
      kept.value[place] = this.strongest(place, attacking);
      kept.roster[place] = roster;
      kept.generation[place] = oddsGeneration();
    }
    return kept.value[place]!;
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

/** One kind of threat by place, with the roster count and odds generation it was worked out at. */
class KeptThreats {
  readonly value: Float64Array;
  readonly roster: Float64Array;
  readonly generation: Float64Array;

  constructor(size: number) {
    this.value = new Float64Array(size);
    this.roster = new Float64Array(size).fill(-1);
    this.generation = new Float64Array(size);
  }
}

/** A reach table covering no offset. */
const NO_REACH = new Uint8Array(SPAN_ROW * SPAN_ROW);
/** Farther than any two cells of a field are apart: where the nearest enemy starts. */
const FAR = 1 << 30;

function inPattern(table: Uint8Array, dx: number, dy: number): boolean {
  if (dx < -SPAN || dx > SPAN || dy < -SPAN || dy > SPAN) return false;
  return table[(dy + SPAN) * SPAN_ROW + dx + SPAN] === 1;
}
