import type { SeededDice } from '../../../dice/index.js';
import {
  CRACK_MAX,
  cannotCounter,
  DEFAULT_POISON,
  DEFAULT_TURNS,
} from '../../../rulesets/shining-force/combat.js';
import { slotOf } from '../../../rulesets/shining-force/decide.js';
import {
  type Armament,
  armament,
  type Derived,
  derived,
} from '../../../rulesets/shining-force/derived.js';
import { inReach, terrainOf } from '../../../rulesets/shining-force/field.js';
import { coveredCells } from '../../../rulesets/shining-force/grid/patterns.js';
import type {
  Effect,
  HeldItem,
  Infliction,
  ShiningForceSetup,
} from '../../../rulesets/shining-force/model.js';
import {
  attackDamage,
  effectDamage,
  isCounter,
  isCritical,
  isHit,
  statusChance,
  varianceDirection,
} from '../../../rulesets/shining-force/rates.js';
import {
  areEnemies,
  type BattleResult,
  type CombatantState,
  hasStatus,
  type ShiningForceState,
  type StatusInstance,
  type Step,
  sideOf,
} from '../../../rulesets/shining-force/state.js';
import { PARALYSIS_ACTS_MAX } from '../../../rulesets/shining-force/turns.js';

/**
 * A Shining Force battle as the kernel plays it: the rules' state held in place (the battle's
 * fields changed where they stand, each combatant still an immutable CombatantState replaced
 * when it changes, so the rules' helpers and the tactician's caches read it as they read the
 * rules' own), and the rules' resolution written as plain calls that change it: no events, no
 * roll records, no new state per event.
 *
 * Each method here is one function of combat.ts, turns.ts or decide.ts, drawing the same dice in
 * the same order and leaving the state as that function's events leave it (evolve.ts); where a
 * rule changes there, it must change here too, and the kernel's tests fail until it does
 * (test/sim/kernels/shining-force.test.ts plays both and compares every battle).
 */
export class Battle {
  readonly setup: ShiningForceSetup;
  readonly width: number;
  readonly height: number;
  /** Combatants by place in the roster; a place's object is replaced, never changed. */
  readonly cs: CombatantState[];
  /** Place in the roster by id (the roster never grows in a simulated battle). */
  readonly placeOf: ReadonlyMap<string, number>;
  round = 0;
  order: readonly string[] = [];
  /** `order` as places in the roster. */
  orderPlaces: number[] = [];
  /**
   * This round's turn-order values as the state holds them (by id), made only when asked for
   * (state()): until then the round's rolls are kept as they came, by place and value.
   */
  private turnValues: Readonly<Record<string, number>> | undefined = {};
  /** The last round's rolls (beginRound): who rolled, by place, and the value, `rolled` of them. */
  private readonly rolledPlaces: Int32Array;
  private readonly rolledValues: Float64Array;
  private readonly agilities: Float64Array;
  private readonly forces: Int32Array;
  private rolled = 0;
  /** True when `order` (ids) lags behind `orderPlaces`: made only when a state is. */
  private orderStale = false;
  skipping: readonly string[] = [];
  cursor = 0;
  step: Step | null = null;
  result: BattleResult | null = null;
  gold = 0;
  notes: ShiningForceState['notes'] = {};
  /**
   * Counts the changes to anyone's statuses, items or being out of the fight (never to HP,
   * MP or cells): what a caller keeps of those stands while this does.
   */
  roster = 0;
  /** The combatants the battle started from (reset), by place. */
  started: readonly CombatantState[] = [];
  /** Battles played since this was made: a new one at every reset. */
  battles = 0;
  /** The battle's first round: the start's, or round 1 for a start before the first. */
  firstRound = 1;
  private dice!: SeededDice;

  /** The blows of the command under way, as the runner tallies them (source, target, amount). */
  blows = 0;
  readonly blowSource: number[] = [];
  readonly blowTarget: number[] = [];
  readonly blowAmount: number[] = [];
  /** Each combatant's HP when the command under way began. */
  readonly hpBefore: Int32Array;

  /** Derived numbers and armament by place, good while its sheet, items and statuses are. */
  private readonly derivedFor: (Derived | undefined)[] = [];
  private readonly derivedItems: (readonly HeldItem[] | undefined)[] = [];
  private readonly derivedStatuses: (readonly StatusInstance[] | undefined)[] = [];
  private readonly armsFor: (Armament | undefined)[] = [];
  private readonly armsItems: (readonly HeldItem[] | undefined)[] = [];

  constructor(start: ShiningForceState) {
    this.setup = start.setup;
    const terrain = terrainOf(start.setup);
    this.width = terrain.width;
    this.height = terrain.height;
    this.cs = start.combatants.slice();
    const places = new Map<string, number>();
    for (let i = 0; i < this.cs.length; i++) places.set(this.cs[i]!.id, i);
    this.placeOf = places;
    this.hpBefore = new Int32Array(this.cs.length);
    this.rolledPlaces = new Int32Array(this.cs.length);
    this.rolledValues = new Float64Array(this.cs.length);
    this.agilities = new Float64Array(this.cs.length);
    this.forces = new Int32Array(this.cs.length);
    this.reset(start, undefined);
  }

  /** Back to `start` (a state of this battle's roster) with a new battle's dice. */
  reset(start: ShiningForceState, dice: SeededDice | undefined): void {
    const { cs } = this;
    for (let i = 0; i < cs.length; i++) cs[i] = start.combatants[i]!;
    this.round = start.round;
    this.order = start.order;
    this.orderStale = false;
    this.orderPlaces = start.order.map((id) => this.placeOf.get(id)!);
    this.turnValues = start.turnValues;
    this.skipping = start.skipping;
    this.cursor = start.cursor;
    this.step = start.step;
    this.result = start.result;
    this.gold = start.gold;
    this.notes = start.notes;
    this.roster++;
    this.started = start.combatants;
    this.firstRound = Math.max(start.round, 1);
    this.battles++;
    if (dice !== undefined) this.dice = dice;
  }

  /** The state as the rules would hold it now: a new object, sharing the combatants. */
  state(): ShiningForceState {
    if (this.orderStale) {
      this.order = this.orderPlaces.map((place) => this.cs[place]!.id);
      this.orderStale = false;
    }
    return {
      setup: this.setup,
      round: this.round,
      order: this.order,
      turnValues: this.turnValuesNow(),
      skipping: this.skipping,
      cursor: this.cursor,
      step: this.step,
      combatants: this.cs.slice(),
      result: this.result,
      gold: this.gold,
      notes: this.notes,
    };
  }

  private turnValuesNow(): Readonly<Record<string, number>> {
    if (this.turnValues === undefined) {
      const turnValues: Record<string, number> = {};
      const { rolledPlaces, rolledValues, cs } = this;
      for (let k = 0; k < this.rolled; k++) turnValues[cs[rolledPlaces[k]!]!.id] = rolledValues[k]!;
      this.turnValues = turnValues;
      return turnValues;
    }
    return this.turnValues;
  }

  derivedOf(i: number): Derived {
    const c = this.cs[i]!;
    let d = this.derivedFor[i];
    if (
      d === undefined ||
      this.derivedItems[i] !== c.items ||
      this.derivedStatuses[i] !== c.statuses
    ) {
      d = derived(this.setup, c);
      this.derivedFor[i] = d;
      this.derivedItems[i] = c.items;
      this.derivedStatuses[i] = c.statuses;
    }
    return d;
  }

  armamentOf(i: number): Armament | undefined {
    const c = this.cs[i]!;
    if (this.armsItems[i] !== c.items) {
      this.armsFor[i] = armament(this.setup, c);
      this.armsItems[i] = c.items;
    }
    return this.armsFor[i];
  }

  /** The combatant at place i with these fields; every field written, in evolve's order. */
  private put(
    i: number,
    hp: number,
    mp: number,
    items: readonly HeldItem[],
    statuses: readonly StatusInstance[],
    defeated: boolean,
    exp: number,
  ): void {
    const c = this.cs[i]!;
    if (items !== c.items || statuses !== c.statuses || defeated !== c.defeated) this.roster++;
    this.cs[i] = {
      id: c.id,
      side: c.side,
      force: c.force,
      sheet: c.sheet,
      hp,
      mp,
      cell: c.cell,
      items,
      statuses,
      defeated,
      exp,
      left: c.left,
    };
  }

  private setHp(i: number, hp: number): void {
    const c = this.cs[i]!;
    this.put(i, hp, c.mp, c.items, c.statuses, c.defeated, c.exp);
  }

  private setPoints(i: number, hp: number, mp: number): void {
    const c = this.cs[i]!;
    this.put(i, hp, mp, c.items, c.statuses, c.defeated, c.exp);
  }

  private setStatuses(i: number, statuses: readonly StatusInstance[]): void {
    const c = this.cs[i]!;
    this.put(i, c.hp, c.mp, c.items, statuses, c.defeated, c.exp);
  }

  private setItems(i: number, items: readonly HeldItem[]): void {
    const c = this.cs[i]!;
    this.put(i, c.hp, c.mp, items, c.statuses, c.defeated, c.exp);
  }

  /** A new command begins: its blows are counted from here, against the HP as they stand. */
  beginCommand(): void {
    this.blows = 0;
    const { cs, hpBefore } = this;
    for (let i = 0; i < cs.length; i++) hpBefore[i] = cs[i]!.hp;
  }

  private blow(source: number, target: number, amount: number): void {
    this.blowSource[this.blows] = source;
    this.blowTarget[this.blows] = target;
    this.blowAmount[this.blows] = amount;
    this.blows++;
  }

  // Commands (decide.ts: resolveCommand, for commands the options offered).

  beginBattle(): void {
    if (this.checkEnd()) return;
    this.beginRound();
    this.nextTurn();
  }

  /** decide.ts moveOffered: the unit stands on `to`, and acts next. */
  move(actor: number, to: number): void {
    const c = this.cs[actor]!;
    this.cs[actor] = {
      id: c.id,
      side: c.side,
      force: c.force,
      sheet: c.sheet,
      hp: c.hp,
      mp: c.mp,
      cell: to,
      items: c.items,
      statuses: c.statuses,
      defeated: c.defeated,
      exp: c.exp,
      left: c.left,
    };
    this.step = 'act';
  }

  attackAndEnd(actor: number, target: number): void {
    this.attack(actor, target);
    this.endTurn(actor);
    this.nextTurn();
  }

  stay(actor: number): void {
    this.endTurn(actor);
    this.nextTurn();
  }

  /** decide.ts cast: the MP paid, then the spell's effect on everyone it touches. */
  cast(actor: number, spellId: string, target: number): void {
    const spell = this.setup.spells[spellId]!;
    const c = this.cs[actor]!;
    const targets = this.effectTargets(actor, spell, this.cs[target]!.cell);
    this.setPoints(actor, c.hp, c.mp - spell.mpCost);
    this.applyEffect(actor, spell, targets);
    this.endTurn(actor);
    this.nextTurn();
  }

  /** decide.ts useItem: the item's effect, then its wear if the user still stands. */
  use(actor: number, itemId: string, target: number): void {
    const use = this.setup.items[itemId]!.use!;
    const targets = this.effectTargets(actor, use, this.cs[target]!.cell);
    this.applyEffect(actor, use, targets);
    if (!this.cs[actor]!.defeated) this.wear(actor, slotOf(this.cs[actor]!, itemId));
    this.endTurn(actor);
    this.nextTurn();
  }

  // combat.ts

  private d100(): number {
    return this.dice.roll(100);
  }

  /** combat.ts variance: the percent a variance d100 (and its d15, when it applies) gives. */
  private variance(roll: number, applies: boolean): number {
    const direction = varianceDirection(roll);
    if (!applies || direction === 0) return 0;
    return direction * this.dice.roll(15);
  }

  /** combat.ts attack: five d100s (the third one to four), damage and the counter's. */
  attack(attackerPlace: number, defenderPlace: number): void {
    const setup = this.setup;
    const { criticalDamagePercent, criticalRatePercent, minimumDamage } = setup.options;
    const attacker = this.cs[attackerPlace]!;
    const defender = this.cs[defenderPlace]!;
    const arms = this.armamentOf(attackerPlace);
    if (arms === undefined) return;
    const a = this.derivedOf(attackerPlace);
    const d = this.derivedOf(defenderPlace);
    const illusion = attacker.statuses.length > 0 && hasStatus(attacker, 'illusion') !== undefined;

    const hitRoll = this.d100();
    const varianceRoll = this.d100();
    // The best critical that rolled, by damage percent; the first among equals.
    let criticalPercent = -1;
    let criticalSpecial = false;
    const mastery = attacker.sheet.mastery;
    // Which levels rolled a critical, a bit each: the hit is rolled before they count.
    let criticals = 0;
    for (let level = 1; level <= mastery; level++) {
      const rate = Math.floor((a.critical * criticalRatePercent[level - 1]!) / 100);
      if (isCritical(this.d100(), rate)) criticals |= 1 << level;
    }
    const special = arms.item?.specialCritical;
    const specialRolled = special !== undefined && isCritical(this.d100(), special.rate);
    const counterRoll = this.d100();
    const counterVarianceRoll = this.d100();

    const hit = isHit(hitRoll, d.evade, illusion);
    if (hit) {
      for (let level = 1; level <= mastery; level++) {
        if ((criticals & (1 << level)) === 0) continue;
        const percent = criticalDamagePercent[level - 1]!;
        if (percent > criticalPercent) criticalPercent = percent;
      }
      if (specialRolled && special.damagePercent > criticalPercent) {
        criticalPercent = special.damagePercent;
        criticalSpecial = true;
      }
    }
    const critical = criticalPercent >= 0;
    let counter = false;
    if (hit && !critical && isCounter(counterRoll, d.counter))
      counter = cannotCounter(this.stateForCounter(), defender, attacker) === undefined;
    const hitVariance = this.variance(varianceRoll, hit);
    const counterVariance = this.variance(counterVarianceRoll, counter);

    if (hit) {
      const dealt = attackDamage(
        a.attack,
        d.defence,
        hitVariance,
        critical ? criticalPercent : null,
        minimumDamage,
        false,
      ).amount;
      this.blow(attackerPlace, defenderPlace, dealt);
      this.setHp(defenderPlace, Math.max(0, defender.hp - dealt));
    }
    if (counter) {
      const dealt = attackDamage(
        d.attack,
        a.defence,
        counterVariance,
        null,
        minimumDamage,
        false,
      ).amount;
      this.blow(defenderPlace, attackerPlace, dealt);
      this.setHp(attackerPlace, Math.max(0, attacker.hp - dealt));
    }
    if (hit && this.cs[defenderPlace]!.hp > 0) {
      const rider = criticalSpecial
        ? special?.inflicts
        : arms.item === null
          ? attacker.sheet.attack?.inflicts
          : undefined;
      if (rider !== undefined) this.inflict(attackerPlace, defenderPlace, rider);
    }
    if (this.cs[defenderPlace]!.hp === 0) this.defeat(defenderPlace, attackerPlace);
    if (this.cs[attackerPlace]!.hp === 0) this.defeat(attackerPlace, defenderPlace);
    if (setup.options.crackOnAttack && arms.slot !== null && !this.cs[attackerPlace]!.defeated)
      this.wear(attackerPlace, arms.slot);
    if (counter && setup.options.crackOnAttack && !this.cs[defenderPlace]!.defeated) {
      const defenderArms = armament(setup, defender);
      if (defenderArms !== undefined && defenderArms.slot !== null)
        this.wear(defenderPlace, defenderArms.slot);
    }
  }

  /**
   * cannotCounter reads only the setup (reach, weapons) of the state it is given, and the two
   * combatants it is handed: no roster is copied for it.
   */
  private stateForCounter(): ShiningForceState {
    return COUNTER_STATE(this.setup);
  }

  /** combat.ts defeat: out at 0 HP; a Force member who felled a monster earns its EXP. */
  private defeat(target: number, by: number): void {
    const t = this.cs[target]!;
    if (t.defeated) return;
    this.put(target, 0, t.mp, t.items, t.statuses, true, t.exp);
    if (by < 0) return;
    const b = this.cs[by]!;
    const felled = this.cs[target]!;
    if (b.force && !felled.force && felled.sheet.expReward > 0 && !b.defeated)
      this.put(by, b.hp, b.mp, b.items, b.statuses, b.defeated, b.exp + felled.sheet.expReward);
  }

  /** combat.ts inflict: the source's chance, lowered by Luck, against a d100. */
  private inflict(source: number, target: number, what: Infliction): void {
    const chance = statusChance(
      what.chance,
      this.derivedOf(source).luck,
      this.derivedOf(target).luck,
      this.setup.options.statusLuck,
    );
    if (this.d100() > chance) return;
    const turns = what.turns ?? DEFAULT_TURNS[what.status];
    const instance: StatusInstance = {
      status: what.status,
      turns,
      ...(what.status === 'poison' ? { amount: what.amount ?? DEFAULT_POISON } : {}),
      ...(what.status === 'charmed' ? { side: sideOf(this.cs[source]!) } : {}),
    };
    const c = this.cs[target]!;
    this.setStatuses(target, [...c.statuses.filter((s) => s.status !== what.status), instance]);
  }

  /** combat.ts effectTargets: the aimed-at side's combatants standing in the effect's area. */
  private effectTargets(user: number, effect: Effect, targetCell: number): number[] {
    const x = targetCell % this.width;
    const area = coveredCells(
      this.setup.patterns[effect.area] ?? SINGLE,
      { x, y: (targetCell - x) / this.width },
      this.width,
      this.height,
    );
    const out: number[] = [];
    const u = this.cs[user]!;
    const { cs } = this;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || !area.includes(c.cell)) continue;
      if (areEnemies(u, c) === (effect.aim === 'enemy')) out.push(i);
    }
    return out;
  }

  /** combat.ts applyEffect: each target in turn; spells never critical and are not countered. */
  private applyEffect(user: number, effect: Effect, targets: readonly number[]): void {
    const setup = this.setup;
    for (const id of targets) {
      let target = this.cs[id]!;
      if (target.defeated) continue;
      if (effect.damage !== undefined) {
        const amount = effectDamage(effect.damage, this.variance(this.d100(), true));
        this.blow(user, id, amount);
        this.setHp(id, Math.max(0, target.hp - amount));
        if (this.cs[id]!.hp === 0) {
          this.defeat(id, user);
          continue;
        }
      }
      if (effect.defeats !== undefined) {
        const chance = statusChance(
          effect.defeats,
          this.derivedOf(user).luck,
          derived(setup, target).luck,
          setup.options.statusLuck,
        );
        if (this.d100() <= chance) {
          this.setHp(id, 0);
          this.defeat(id, user);
          continue;
        }
      }
      target = this.cs[id]!;
      if (effect.heal !== undefined || effect.restoreMp !== undefined) {
        const hpAfter = Math.min(target.sheet.stats.hp, target.hp + (effect.heal ?? 0));
        const mpAfter = Math.min(target.sheet.stats.mp, target.mp + (effect.restoreMp ?? 0));
        this.setPoints(id, hpAfter, mpAfter);
      }
      for (const status of effect.cures) {
        const c = this.cs[id]!;
        if (hasStatus(c, status) !== undefined)
          this.setStatuses(
            id,
            c.statuses.filter((s) => s.status !== status),
          );
      }
      if (effect.inflicts !== undefined) this.inflict(user, id, effect.inflicts);
    }
  }

  /** combat.ts wear: used up, broken when cracked, or cracked on a d100 of 1-30. */
  private wear(owner: number, slot: number): void {
    const c = this.cs[owner]!;
    const held = c.items[slot];
    if (held === undefined) return;
    const item = this.setup.items[held.item];
    if (item?.consumable || held.cracked) {
      this.setItems(
        owner,
        c.items.filter((_, i) => i !== slot),
      );
      return;
    }
    if (this.d100() <= CRACK_MAX)
      this.setItems(
        owner,
        c.items.map((h, i) => (i === slot ? { ...held, cracked: true } : h)),
      );
  }

  // turns.ts

  /** turns.ts beginRound: Agility at a rolled 100 ± spread percent, highest first. */
  private beginRound(): void {
    const spread = this.setup.options.turnOrderSpread;
    const sides = 2 * spread + 1;
    const { cs, rolledPlaces, rolledValues, agilities, forces } = this;
    let count = 0;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated) continue;
      const roll = this.dice.roll(sides);
      const agility = this.derivedOf(i).agility;
      rolledPlaces[count] = i;
      rolledValues[count] = Math.floor((agility * (100 - spread - 1 + roll)) / 100);
      agilities[count] = agility;
      forces[count] = c.force ? 1 : 0;
      count++;
    }
    // turns.ts's order: the higher value first, then the higher Agility, then the Force, then
    // the earlier in the roster; an insertion sort of the rolled, by their place in the roll.
    const sorted: number[] = new Array(count);
    for (let k = 0; k < count; k++) {
      let at = k;
      while (at > 0) {
        const other = sorted[at - 1]!;
        const ahead =
          rolledValues[k]! - rolledValues[other]! ||
          agilities[k]! - agilities[other]! ||
          forces[k]! - forces[other]! ||
          other - k;
        if (!(ahead > 0)) break;
        sorted[at] = other;
        at--;
      }
      sorted[at] = k;
    }
    for (let k = 0; k < count; k++) sorted[k] = rolledPlaces[sorted[k]!]!;
    this.round++;
    this.orderPlaces = sorted;
    this.orderStale = true;
    this.turnValues = undefined;
    this.rolled = count;
    this.cursor = -1;
    this.step = null;
  }

  /** turns.ts nextTurn: on to the next one who takes a turn, rounds ending and beginning. */
  private nextTurn(): void {
    for (let guard = 0; guard < 100_000; guard++) {
      if (this.result !== null) return;
      const { orderPlaces } = this;
      let next = this.cursor + 1;
      let actor = -1;
      for (; next < orderPlaces.length; next++) {
        actor = orderPlaces[next]!;
        if (!this.cs[actor]!.defeated) break;
      }
      if (next >= orderPlaces.length || actor < 0) {
        this.step = null;
        const { maxRounds } = this.setup.options;
        if (this.round >= maxRounds) {
          this.end(null, `no side won within ${maxRounds} rounds`, 0);
          return;
        }
        this.beginRound();
        continue;
      }
      this.cursor = next;
      this.step = hasStatus(this.cs[actor]!, 'frozen') === undefined ? 'move' : 'act';
      if (this.startOfTurn(actor)) return;
      this.endTurn(actor);
    }
  }

  private end(winner: string | null, reason: string, gold: number): void {
    this.step = null;
    this.result = { winner, reason };
    this.gold = gold;
  }

  /** turns.ts startOfTurn: false when a status (or the GM) took the turn away. */
  private startOfTurn(place: number): boolean {
    const actor = this.cs[place]!;
    if (this.skipping.length > 0 && this.skipping.includes(actor.id)) {
      this.skipping = this.skipping.filter((id) => id !== actor.id);
      return false;
    }
    if (actor.statuses.length === 0) return true;
    if (hasStatus(actor, 'sleep') !== undefined) return false;
    if (hasStatus(actor, 'paralysed') !== undefined && this.d100() > PARALYSIS_ACTS_MAX)
      return false;
    const curse = hasStatus(actor, 'curse')?.curse;
    if (curse?.effect === 'paralysis' && this.d100() <= (curse.chance ?? 25)) return false;
    if (hasStatus(actor, 'confused') !== undefined) {
      const roll = this.d100();
      if (roll <= 33) return true;
      if (roll <= 66) return false;
      const friends = this.friendsInReach(place);
      if (friends.length === 0) return false;
      const pick = friends.length === 1 ? 0 : this.dice.roll(friends.length) - 1;
      this.attack(place, friends[pick]!);
      return false;
    }
    return true;
  }

  private friendsInReach(place: number): number[] {
    const arms = this.armamentOf(place);
    if (arms === undefined) return [];
    const actor = this.cs[place]!;
    const out: number[] = [];
    const { cs } = this;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      if (c.defeated || c.id === actor.id || sideOf(c) !== sideOf(actor)) continue;
      if (inReach(this.setup, arms.range, actor.cell, c.cell)) out.push(i);
    }
    return out;
  }

  /** turns.ts endTurn: Poison and a curse's loss, the statuses counted down, then the end. */
  private endTurn(place: number): void {
    let actor = this.cs[place]!;
    if (!actor.defeated && actor.statuses.length > 0) {
      for (const cause of CAUSES) {
        const status = hasStatus(actor, cause);
        if (status === undefined) continue;
        const hp =
          cause === 'poison'
            ? (status.amount ?? 0)
            : status.curse?.effect === 'hp-loss'
              ? (status.curse.amount ?? 1)
              : 0;
        const mp =
          cause === 'curse' && status.curse?.effect === 'mp-loss' ? (status.curse.amount ?? 1) : 0;
        if (hp === 0 && mp === 0) continue;
        actor = this.cs[place]!;
        const hpAfter = Math.max(0, actor.hp - hp);
        this.setPoints(place, hpAfter, Math.max(0, actor.mp - mp));
        if (hpAfter === 0) {
          this.defeat(place, -1);
          break;
        }
      }
      actor = this.cs[place]!;
      if (!actor.defeated && actor.statuses.some((s) => s.turns !== null))
        this.setStatuses(
          place,
          actor.statuses
            .map((s) => (s.turns === null ? s : { ...s, turns: s.turns - 1 }))
            .filter((s) => s.turns === null || s.turns > 0),
        );
    }
    this.step = null;
    this.checkEnd();
  }

  /** turns.ts checkEnd: over when one side (or none) has anyone standing. */
  private checkEnd(): boolean {
    if (this.result !== null) return true;
    const { cs } = this;
    let winner: string | null = null;
    for (const c of cs) {
      if (c.defeated) continue;
      if (winner === null) winner = c.side;
      else if (c.side !== winner) return false;
    }
    const side = this.setup.sides.find((s) => s.id === winner);
    let gold = 0;
    if (side?.force) {
      for (const c of cs) if (c.defeated && !c.force && c.left === null) gold += c.sheet.gold;
    }
    this.end(
      winner,
      winner === null ? 'everyone fell at once' : `${side?.name ?? winner} stand alone`,
      gold,
    );
    return true;
  }
}

const CAUSES = ['poison', 'curse'] as const;
const SINGLE: readonly (readonly [number, number])[] = [[0, 0]];

/** A state holding only the setup, per setup, for the rules' helpers that read no more. */
const COUNTER_STATES = new WeakMap<ShiningForceSetup, ShiningForceState>();
function COUNTER_STATE(setup: ShiningForceSetup): ShiningForceState {
  let state = COUNTER_STATES.get(setup);
  if (state === undefined) {
    state = {
      setup,
      round: 0,
      order: [],
      turnValues: {},
      skipping: [],
      cursor: 0,
      step: null,
      combatants: [],
      result: null,
      gold: 0,
      notes: {},
    };
    COUNTER_STATES.set(setup, state);
  }
  return state;
}
