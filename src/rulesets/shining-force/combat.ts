import type { RollRecord } from '../../engine/index.js';
import { armament, derived } from './derived.js';
import type { AttackRecord, CriticalRoll, VarianceRecord } from './events.js';
import { inReach, pointOfCell, terrainOf } from './field.js';
import { nameOfIndex } from './grid/cells.js';
import { coveredCells } from './grid/patterns.js';
import type { Effect, Infliction, StatusName } from './model.js';
import {
  attackDamage,
  effectDamage,
  isCounter,
  isCritical,
  isHit,
  statusChance,
  varianceDirection,
} from './rates.js';
import type { Resolution } from './resolution.js';
import {
  areEnemies,
  type CombatantState,
  combatantOf,
  hasStatus,
  type ShiningForceState,
  sideOf,
} from './state.js';

/** "A cracked item that is then used will break": d100 1-30 cracks a sound one. */
export const CRACK_MAX = 30;

/**
 * How many of the victim's turns a status lasts when its source does not say (sample values,
 * docs/rulings.md): Frozen "generally wears off after a single turn"; Poison and Curse last
 * until cured.
 */
export const DEFAULT_TURNS: Readonly<Record<StatusName, number | null>> = {
  charmed: 2,
  confused: 2,
  illusion: 3,
  paralysed: 2,
  poison: null,
  sleep: 2,
  curse: null,
  frozen: 1,
};

/** Poison's HP loss when its source gives none (sample). */
export const DEFAULT_POISON = 2;

/** The second or fifth d100, and its 1d15 when the damage it applies to is dealt. */
function variance(
  r: Resolution,
  roll: RollRecord,
  applies: boolean,
  purpose: string,
): VarianceRecord {
  const direction = varianceDirection(roll.total);
  if (!applies || direction === 0) return { roll, amount: null, percent: 0 };
  const amount = r.dice.roll(purpose, 'd15');
  return { roll, amount, percent: direction * amount.total };
}

/** Why a defender cannot strike back, or undefined when it can (the odds ask this too). */
export function cannotCounter(
  state: ShiningForceState,
  defender: CombatantState,
  attacker: CombatantState,
): string | undefined {
  if (hasStatus(defender, 'sleep') !== undefined) return 'asleep';
  if (hasStatus(defender, 'paralysed') !== undefined) return 'paralysed';
  const arms = armament(state.setup, defender);
  if (arms === undefined) return 'no weapon';
  if (
    state.setup.options.counterNeedsReach &&
    !inReach(state.setup, arms.range, defender.cell, attacker.cell)
  )
    return 'out of reach';
  return undefined;
}

/**
 * An attack, as the GM rolls it: five d100s (the third one to four of them), then damage to the
 * target and, simultaneously, the counter's damage to the attacker ("even if the character
 * countering is defeated with the attack, they can still inflict damage").
 */
export function attack(r: Resolution, attackerId: string, defenderId: string): void {
  const setup = r.state.setup;
  const { criticalDamagePercent, criticalRatePercent, minimumDamage } = setup.options;
  const attacker = r.combatant(attackerId);
  const defender = r.combatant(defenderId);
  const arms = armament(setup, attacker);
  if (arms === undefined) return;
  const a = derived(setup, attacker);
  const d = derived(setup, defender);
  const illusion = attacker.statuses.length > 0 && hasStatus(attacker, 'illusion') !== undefined;

  const hitRoll = r.d100(`hit:${defenderId}`);
  const varianceRoll = r.d100(`variance:${defenderId}`);
  const criticals: CriticalRoll[] = [];
  for (let level = 1; level <= attacker.sheet.mastery; level++) {
    const rate = Math.floor((a.critical * criticalRatePercent[level - 1]!) / 100);
    const roll = r.d100(`critical:${defenderId}`);
    criticals.push({
      level: level as 1 | 2 | 3,
      rate,
      roll,
      success: isCritical(roll.total, rate),
    });
  }
  const special = arms.item?.specialCritical;
  if (special !== undefined) {
    const roll = r.d100(`critical:${defenderId}`);
    criticals.push({
      level: 'special',
      rate: special.rate,
      roll,
      success: isCritical(roll.total, special.rate),
    });
  }
  const counterRoll = r.d100(`counter:${defenderId}`);
  const counterVarianceRoll = r.d100(`counter-variance:${defenderId}`);

  const hit = isHit(hitRoll.total, d.evade, illusion);
  let critical: AttackRecord['critical'] = null;
  if (hit) {
    for (const c of criticals) {
      if (!c.success) continue;
      const percent =
        c.level === 'special' ? special!.damagePercent : criticalDamagePercent[c.level - 1]!;
      if (critical === null || percent > critical.damagePercent)
        critical = { level: c.level, damagePercent: percent };
    }
  }
  // "Critical hits cannot be countered"; "A character cannot evade and attack and then counter".
  let noCounter: string | undefined;
  let counter = false;
  if (hit && critical === null && isCounter(counterRoll.total, d.counter)) {
    noCounter = cannotCounter(r.state, defender, attacker);
    counter = noCounter === undefined;
  }
  // The two variances in the order the dice fall; the record is one literal with every field
  // either way (a spread in it for the optional noCounter cost a simulated attack dearly).
  const hitVariance = variance(r, varianceRoll, hit, `variance-amount:${defenderId}`);
  const counterVariance = variance(
    r,
    counterVarianceRoll,
    counter,
    `counter-variance-amount:${defenderId}`,
  );
  const record: AttackRecord =
    noCounter === undefined
      ? {
          actor: attackerId,
          target: defenderId,
          weapon: arms.name,
          evade: d.evade,
          hitRoll,
          illusion,
          hit,
          variance: hitVariance,
          criticals,
          critical,
          counterRate: d.counter,
          counterRoll,
          counter,
          counterVariance,
        }
      : {
          actor: attackerId,
          target: defenderId,
          weapon: arms.name,
          evade: d.evade,
          hitRoll,
          illusion,
          hit,
          variance: hitVariance,
          criticals,
          critical,
          counterRate: d.counter,
          counterRoll,
          counter,
          noCounter,
          counterVariance,
        };
  r.emit({ type: 'attacked', attack: record });

  if (hit) {
    const dealt = attackDamage(
      a.attack,
      d.defence,
      record.variance.percent,
      critical?.damagePercent ?? null,
      minimumDamage,
      r.explain,
    );
    r.emit({
      type: 'damage-dealt',
      source: attackerId,
      target: defenderId,
      amount: dealt.amount,
      hpAfter: Math.max(0, defender.hp - dealt.amount),
      breakdown: r.explain ? dealt.steps.join(', ') : '',
      counter: false,
    });
  }
  if (counter) {
    // Counter attacks cannot critical; at full strength, from the defender as it stood.
    const dealt = attackDamage(
      d.attack,
      a.defence,
      record.counterVariance.percent,
      null,
      minimumDamage,
      r.explain,
    );
    r.emit({
      type: 'damage-dealt',
      source: defenderId,
      target: attackerId,
      amount: dealt.amount,
      hpAfter: Math.max(0, attacker.hp - dealt.amount),
      breakdown: r.explain ? dealt.steps.join(', ') : '',
      counter: true,
    });
  }
  // A weapon's special critical, or a monster's poisonous bite, works on a target left standing.
  if (hit && r.combatant(defenderId).hp > 0) {
    const rider =
      critical?.level === 'special'
        ? special?.inflicts
        : arms.item === null
          ? attacker.sheet.attack?.inflicts
          : undefined;
    if (rider !== undefined) inflict(r, attackerId, defenderId, rider);
  }
  if (r.combatant(defenderId).hp === 0) defeat(r, defenderId, attackerId);
  if (r.combatant(attackerId).hp === 0) defeat(r, attackerId, defenderId);
  if (setup.options.crackOnAttack && arms.slot !== null && !r.combatant(attackerId).defeated)
    wear(r, attackerId, arms.slot);
  // A counter is a blow too: under crackOnAttack it wears the defender's weapon the same way.
  if (counter && setup.options.crackOnAttack && !r.combatant(defenderId).defeated) {
    const defenderArms = armament(setup, defender);
    if (defenderArms !== undefined && defenderArms.slot !== null)
      wear(r, defenderId, defenderArms.slot);
  }
}

/** Defeated at 0 HP; a Force member who defeats a monster earns its EXP. */
export function defeat(r: Resolution, targetId: string, byId: string | null): void {
  const target = r.combatant(targetId);
  if (target.defeated) return;
  r.emit({ type: 'defeated', target: targetId });
  const by = byId === null ? undefined : combatantOf(r.state, byId);
  if (by?.force && !target.force && target.sheet.expReward > 0 && !by.defeated) {
    r.emit({
      type: 'exp-gained',
      actor: by.id,
      amount: target.sheet.expReward,
      reason: `defeated ${target.sheet.name}`,
    });
  }
}

/** Tries a status on a target: the source's chance, lowered by Luck, against a d100. */
export function inflict(r: Resolution, sourceId: string, targetId: string, what: Infliction): void {
  const setup = r.state.setup;
  const source = r.combatant(sourceId);
  const target = r.combatant(targetId);
  const chance = statusChance(
    what.chance,
    derived(setup, source).luck,
    derived(setup, target).luck,
    setup.options.statusLuck,
  );
  const roll = r.d100(`status:${targetId}`);
  if (roll.total > chance) {
    r.emit({ type: 'status-resisted', target: targetId, status: what.status, chance, roll });
    return;
  }
  const turns = what.turns ?? DEFAULT_TURNS[what.status];
  r.emit({
    type: 'status-inflicted',
    target: targetId,
    instance: {
      status: what.status,
      turns,
      ...(what.status === 'poison' ? { amount: what.amount ?? DEFAULT_POISON } : {}),
      ...(what.status === 'charmed' ? { side: sideOf(source) } : {}),
    },
    chance,
    roll,
  });
}

/**
 * The combatants an effect aimed at `targetCell` touches: those of the aimed-at side (enemies
 * or allies of the user) standing in its area.
 */
export function effectTargets(
  state: ShiningForceState,
  user: CombatantState,
  effect: Effect,
  targetCell: number,
): string[] {
  const setup = state.setup;
  const { width, height } = terrainOf(setup);
  const area = coveredCells(
    setup.patterns[effect.area] ?? [[0, 0]],
    pointOfCell(setup, targetCell),
    width,
    height,
  );
  const out: string[] = [];
  for (const c of state.combatants) {
    if (c.defeated || !area.includes(c.cell)) continue;
    if (areEnemies(user, c) === (effect.aim === 'enemy')) out.push(c.id);
  }
  return out;
}

/** A spell's or an item's effect on each target in turn; spells never critical and are not countered. */
export function applyEffect(
  r: Resolution,
  userId: string,
  effect: Effect,
  targets: readonly string[],
): void {
  const setup = r.state.setup;
  for (const id of targets) {
    let target = r.combatant(id);
    if (target.defeated) continue;
    if (effect.damage !== undefined) {
      const v = variance(r, r.d100(`variance:${id}`), true, `variance-amount:${id}`);
      const amount = effectDamage(effect.damage, v.percent);
      r.emit({
        type: 'effect-damage',
        source: userId,
        target: id,
        variance: v,
        amount,
        hpAfter: Math.max(0, target.hp - amount),
      });
      if (r.combatant(id).hp === 0) {
        defeat(r, id, userId);
        continue;
      }
    }
    if (effect.defeats !== undefined) {
      const user = r.combatant(userId);
      const chance = statusChance(
        effect.defeats,
        derived(setup, user).luck,
        derived(setup, target).luck,
        setup.options.statusLuck,
      );
      const roll = r.d100(`defeat:${id}`);
      if (roll.total <= chance) {
        r.emit({ type: 'instantly-defeated', source: userId, target: id, chance, roll });
        defeat(r, id, userId);
        continue;
      }
      r.emit({ type: 'status-resisted', target: id, status: 'defeat', chance, roll });
    }
    target = r.combatant(id);
    if (effect.heal !== undefined || effect.restoreMp !== undefined) {
      const hpAfter = Math.min(target.sheet.stats.hp, target.hp + (effect.heal ?? 0));
      const mpAfter = Math.min(target.sheet.stats.mp, target.mp + (effect.restoreMp ?? 0));
      r.emit({
        type: 'healed',
        source: userId,
        target: id,
        hp: hpAfter - target.hp,
        mp: mpAfter - target.mp,
        hpAfter,
        mpAfter,
      });
    }
    for (const status of effect.cures) {
      if (hasStatus(r.combatant(id), status) !== undefined)
        r.emit({ type: 'status-ended', target: id, status, reason: 'cured' });
    }
    if (effect.inflicts !== undefined) inflict(r, userId, id, effect.inflicts);
  }
}

/**
 * An item's condition after its effect: one-time items are used up; a cracked one breaks;
 * a sound one cracks on a d100 of 1-30.
 */
export function wear(r: Resolution, ownerId: string, slot: number): void {
  const owner = r.combatant(ownerId);
  const held = owner.items[slot];
  if (held === undefined) return;
  const item = r.state.setup.items[held.item];
  if (item?.consumable) {
    r.emit({
      type: 'item-condition',
      actor: ownerId,
      item: held.item,
      slot,
      roll: null,
      result: 'used-up',
    });
    return;
  }
  if (held.cracked) {
    r.emit({
      type: 'item-condition',
      actor: ownerId,
      item: held.item,
      slot,
      roll: null,
      result: 'broke',
    });
    return;
  }
  const roll = r.d100(`crack:${held.item}`);
  r.emit({
    type: 'item-condition',
    actor: ownerId,
    item: held.item,
    slot,
    roll,
    result: roll.total <= CRACK_MAX ? 'cracked' : 'good',
  });
}

export function cellName(r: Resolution, cell: number): string {
  return nameOfIndex(terrainOf(r.state.setup).width, cell);
}
