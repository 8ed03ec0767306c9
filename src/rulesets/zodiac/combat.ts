import type { RollRecord } from '../../engine/index.js';
import { BLIND_PENALTY, FLYING_PENALTY, judgeAttack, judgeStatusRoll } from './attack.js';
import {
  BARRIER,
  CRITICAL,
  computeDamage,
  DAMAGE_CAP,
  DEFEND,
  type Factor,
  FROG,
  MBARRIER,
  MINI_DEALT,
  MINI_TAKEN,
} from './damage.js';
import type { Element } from './elements.js';
import type { AttackRecord } from './events.js';
import { levelFactor } from './evolve.js';
import type { StatusApplication, Tech, ZodiacSetup } from './model.js';
import type { Resolution } from './resolution.js';
import { type CombatantState, hasStatus, isBeyondRevival, isStanding } from './state.js';
import { clearedByUnconsciousness, ENDS_ON_DAMAGE, STATUSES, type StatusId } from './statuses.js';

/** The cap a blow is held to, if the encounter uses the Damage Cap. */
export function damageCap(setup: ZodiacSetup): number | null {
  const cap = setup.options.damageCap;
  return cap === false ? null : cap === true ? DAMAGE_CAP : cap;
}

/** Reraise "immediately restored to 10% of its maximum value". */
export function tenPercent(max: number): number {
  return Math.floor(max / 10);
}

interface DamageRoll {
  readonly roll: RollRecord | null;
  readonly base: number;
  /** How the base came about, when it was not rolled: Curse's ones, a sleeper's maximum. */
  readonly note: string;
}

/**
 * (Damage Roll x 10) + Attack Power, with the Damage Levels' zeroes. `min` is Curse ("treat them
 * as if they had all come up as 1's"), `max` a sleeping target ("the maximum possible damage").
 */
export function rollDamage(
  r: Resolution,
  purpose: string,
  dice: number,
  die: number,
  power: number,
  mode: 'roll' | 'min' | 'max',
): DamageRoll {
  const factor = levelFactor(r.state.setup);
  const zeroes = factor === 1 ? '' : ` x${factor}`;
  if (dice === 0) return { roll: null, base: power * factor, note: `${power}${zeroes}` };
  if (mode !== 'roll') {
    const face = mode === 'min' ? 1 : die;
    const base = (dice * face * 10 + power) * factor;
    const why = mode === 'min' ? 'Curse: every die a 1' : 'asleep: the maximum';
    return {
      roll: null,
      base,
      note: r.explain ? `${why}, (${dice}d${die} [${dice * face}] x 10) + ${power}${zeroes}` : '',
    };
  }
  const inner = `${dice}d${die}*10+${power}`;
  const roll = r.dice.roll(purpose, factor === 1 ? inner : `(${inner})*${factor}`);
  return { roll, base: roll.total, note: roll.text };
}

/** Ends Charm, Confusion and Sleep: "Cure: Receive Damage". */
function wake(r: Resolution, id: string): void {
  for (const s of r.combatant(id).statuses)
    if (ENDS_ON_DAMAGE.has(s.status))
      r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'damage' });
}

/**
 * 0 HP: Unconscious. SP drop to zero, Temporary and positive effects disappear; under Reraise the
 * combatant is "immediately revived with 10% of your maximum HP" and Reraise ends.
 */
export function knockOut(r: Resolution, id: string): void {
  const c = r.combatant(id);
  const reraise = hasStatus(c, 'reraise');
  for (const s of c.statuses)
    if (clearedByUnconsciousness(s.status))
      r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'knocked-out' });
  r.emit({ type: 'knocked-out', target: id });
  if (reraise && !c.dead)
    r.emit({ type: 'revived', target: id, hp: Math.max(1, tenPercent(c.maxHp)), cause: 'Reraise' });
}

/** HP lost: wakes sleepers and the charmed and confused, and at 0 knocks out. */
export function loseHp(
  r: Resolution,
  source: string | null,
  id: string,
  amount: number,
  roll: RollRecord | null,
  breakdown: string,
  cause: string,
): void {
  const target = r.combatant(id);
  if (!isStanding(target)) {
    r.emit({ type: 'no-effect', target: id, reason: `${cause}: already unconscious` });
    return;
  }
  const hpAfter = Math.max(0, target.hp - amount);
  r.emit({
    type: 'damage-dealt',
    source,
    target: id,
    roll,
    amount,
    absorbed: false,
    hpAfter,
    breakdown,
    cause,
  });
  if (amount > 0) wake(r, id);
  if (hpAfter === 0) knockOut(r, id);
}

/**
 * HP restored: "Curative Potions and Healing Techs will have no effect" on the Unconscious, and
 * Zombie reverses them, "dealing damage instead of healing it".
 */
export function gainHp(
  r: Resolution,
  source: string | null,
  id: string,
  amount: number,
  roll: RollRecord | null,
  cause: string,
): void {
  const target = r.combatant(id);
  if (!isStanding(target)) {
    r.emit({ type: 'no-effect', target: id, reason: `${cause}: no effect on the Unconscious` });
    return;
  }
  if (hasStatus(target, 'zombie')) {
    // Reversed healing is damage like any other: Defend, MBarrier, Mini and the cap apply.
    dealDamage(r, source, id, {
      roll: { roll, base: amount, note: r.explain ? `Zombie: ${cause} reversed, ${amount}` : '' },
      kind: 'magical',
      element: undefined,
      dealt: [],
      cause,
    });
    return;
  }
  const hpAfter = Math.min(target.maxHp, target.hp + amount);
  r.emit({
    type: 'healed',
    source,
    target: id,
    roll,
    amount: hpAfter - target.hp,
    hpAfter,
    cause,
  });
}

export interface DamageSpec {
  readonly roll: DamageRoll;
  readonly kind: 'physical' | 'magical';
  readonly element: Element | undefined;
  readonly dealt: readonly Factor[];
  readonly cause: string;
}

/** A blow through the whole pipeline: protections, affinity, Stone, the cap; absorbed or lost. */
export function dealDamage(
  r: Resolution,
  source: string | null,
  id: string,
  spec: DamageSpec,
): void {
  const target = r.combatant(id);
  const taken: Factor[] = [];
  if (target.defending) taken.push(DEFEND);
  if (spec.kind === 'physical' && hasStatus(target, 'barrier')) taken.push(BARRIER);
  if (spec.kind === 'magical' && hasStatus(target, 'mbarrier')) taken.push(MBARRIER);
  if (hasStatus(target, 'mini')) taken.push(MINI_TAKEN);
  const result = computeDamage({
    base: spec.roll.base,
    dealt: spec.dealt,
    taken,
    element: spec.element,
    affinity: spec.element === undefined ? undefined : target.sheet.affinities[spec.element],
    stone: hasStatus(target, 'stone'),
    cap: damageCap(r.state.setup),
    explain: r.explain,
  });
  // The breakdown starts from the base; the roll's own text says how the base came about.
  const breakdown =
    r.explain && spec.roll.note !== ''
      ? `${spec.roll.note}${result.breakdown.slice(String(spec.roll.base).length)}`
      : result.breakdown;
  if (result.absorbed) {
    if (!isStanding(target)) {
      r.emit({ type: 'no-effect', target: id, reason: `${spec.cause}: already unconscious` });
    } else if (hasStatus(target, 'zombie')) {
      loseHp(
        r,
        source,
        id,
        result.amount,
        spec.roll.roll,
        `${breakdown}; Zombie: reversed`,
        spec.cause,
      );
    } else {
      const hpAfter = Math.min(target.maxHp, target.hp + result.amount);
      r.emit({
        type: 'damage-dealt',
        source,
        target: id,
        roll: spec.roll.roll,
        amount: hpAfter - target.hp,
        absorbed: true,
        hpAfter,
        breakdown,
        cause: spec.cause,
      });
    }
    return;
  }
  loseHp(r, source, id, result.amount, spec.roll.roll, breakdown, spec.cause);
}

/**
 * A status effect lands, or does not: immunities, Stone ("immune to all negative status
 * effects"), and for `resist` "d100 + Magic Accuracy equal to or greater than the target's Resist".
 */
export function inflict(
  r: Resolution,
  actor: CombatantState | null,
  id: string,
  application: StatusApplication,
): void {
  const target = r.combatant(id);
  const status = application.status;
  const info = STATUSES[status];
  if (!isStanding(target)) return;
  if (info.polarity === 'negative') {
    if (target.sheet.immunities.includes(status)) {
      r.emit({ type: 'status-resisted', target: id, status, reason: 'immune' });
      return;
    }
    if (hasStatus(target, 'stone')) {
      r.emit({ type: 'status-resisted', target: id, status, reason: 'a statue' });
      return;
    }
    if (application.check === 'resist' && actor !== null) {
      const roll = r.dice.roll(`status:${id}`, 'd100');
      const resist = target.sheet.stats.resist;
      const success = judgeStatusRoll(roll.total, actor.sheet.stats.magicAccuracy, resist);
      r.emit({
        type: 'status-rolled',
        actor: actor.id,
        target: id,
        status,
        roll,
        total: roll.total + actor.sheet.stats.magicAccuracy,
        resist,
        success,
      });
      if (!success) return;
    }
  } else if (target.sheet.immunities.includes(status)) {
    r.emit({ type: 'status-resisted', target: id, status, reason: 'immune' });
    return;
  }
  // Haste and Slow undo each other rather than stand together (rulings).
  const opposite: StatusId | undefined =
    status === 'haste' ? 'slow' : status === 'slow' ? 'haste' : undefined;
  if (opposite !== undefined && hasStatus(target, opposite)) {
    r.emit({ type: 'status-ended', target: id, status: opposite, reason: 'replaced' });
    return;
  }
  r.emit({
    type: 'status-inflicted',
    target: id,
    status,
    ticks: info.timed || info.polarity === 'positive' ? (application.ticks ?? null) : null,
    untilRound: status === 'death-sentence' ? r.state.round + 1 : null,
  });
}

export function cure(r: Resolution, id: string, statuses: readonly StatusId[]): void {
  const target = r.combatant(id);
  for (const s of target.statuses)
    if (statuses.includes(s.status))
      r.emit({ type: 'status-ended', target: id, status: s.status, reason: 'cured' });
}

/** Phoenix Down, Phoenix Pinion, Life: the Unconscious wake; the dead do not. */
export function revive(r: Resolution, id: string, hpPercent: number, cause: string): void {
  const target = r.combatant(id);
  if (isBeyondRevival(target)) {
    r.emit({
      type: 'no-effect',
      target: id,
      reason: `${cause}: ${target.dead ? 'dead' : 'gone'}, beyond revival`,
    });
    return;
  }
  if (!target.unconscious) {
    r.emit({ type: 'no-effect', target: id, reason: `${cause}: not unconscious` });
    return;
  }
  const hp = Math.max(1, Math.floor((target.maxHp * hpPercent) / 100));
  r.emit({ type: 'revived', target: id, hp, cause });
}

/**
 * The dice of a weapon blow: Strength Dice of the weapon's die class, Attack Power with the
 * weapon's, plus a Weapon Tech's. Unarmed: "the die class is only d4, and his Strength is cut in
 * half ... both Strength Dice and Attack Power" (rounded down, never below one die: rulings).
 */
export function weaponDice(
  actor: CombatantState,
  tech: Tech | undefined,
): { dice: number; die: number; power: number } {
  const stats = actor.sheet.stats;
  const weapon = actor.sheet.weapon;
  const dice =
    (weapon === undefined ? Math.max(1, Math.floor(stats.strengthDice / 2)) : stats.strengthDice) +
    (tech?.damage?.dice ?? 0);
  const power =
    (weapon === undefined
      ? Math.floor(stats.attackPower / 2)
      : stats.attackPower + weapon.attackPower) + (tech?.damage?.power ?? 0);
  return { dice, die: weapon?.die ?? 4, power };
}

/**
 * An attack with the equipped weapon, or a Weapon Tech with it: rolled against Evade (a sleeper is
 * hit automatically, for the maximum), then the weapon's damage and what the hit carries.
 */
export function weaponAttack(
  r: Resolution,
  actorId: string,
  targetId: string,
  tech: Tech | undefined,
): void {
  const actor = r.combatant(actorId);
  const target = r.combatant(targetId);
  const weapon = actor.sheet.weapon;
  const stats = actor.sheet.stats;
  // "ALL Techs, even Weapon Techs made with melee weapons, are considered long-range."
  const longRange = tech !== undefined || weapon?.range === 'long';
  const penalties: { reason: string; amount: number }[] = [];
  if (hasStatus(actor, 'blind')) penalties.push({ reason: 'Blind', amount: BLIND_PENALTY });
  if (target.sheet.flying && !longRange)
    penalties.push({ reason: 'short range against a flier', amount: FLYING_PENALTY });
  const asleep = hasStatus(target, 'sleep');
  let attack: AttackRecord;
  const evade = target.sheet.stats.evade;
  if (asleep) {
    attack = {
      roll: null,
      natural: 0,
      accuracy: stats.accuracy,
      penalties,
      total: 0,
      evade,
      hit: true,
      automatic: true,
      critical: false,
    };
  } else {
    const roll = r.dice.roll(`hit:${targetId}`, 'd100');
    let penalty = 0;
    for (const p of penalties) penalty += p.amount;
    const judged = judgeAttack(roll.total, stats.accuracy, evade, stats.critical, penalty);
    attack = {
      roll,
      accuracy: stats.accuracy,
      penalties,
      evade,
      natural: judged.natural,
      total: judged.total,
      hit: judged.hit,
      automatic: judged.automatic,
      critical: judged.critical,
    };
  }
  const withName = tech?.name ?? weapon?.name ?? 'bare hands';
  r.emit({ type: 'attacked', actor: actorId, target: targetId, with: withName, attack });
  if (!attack.hit) return;
  const { dice, die, power } = weaponDice(actor, tech);
  const mode = asleep ? 'max' : hasStatus(actor, 'curse') ? 'min' : 'roll';
  const roll = rollDamage(r, `damage:${targetId}`, dice, die, power, mode);
  const dealt: Factor[] = [];
  if (attack.critical) dealt.push(CRITICAL);
  if (hasStatus(actor, 'frog')) dealt.push(FROG);
  if (hasStatus(actor, 'mini')) dealt.push(MINI_DEALT);
  dealDamage(r, actorId, targetId, {
    roll,
    kind: 'physical',
    element: tech?.damage?.element ?? weapon?.element,
    dealt,
    cause: withName,
  });
  // "Any physical attacks ... also waking you up", even one that did no damage.
  if (hasStatus(r.combatant(targetId), 'sleep'))
    r.emit({ type: 'status-ended', target: targetId, status: 'sleep', reason: 'damage' });
  for (const application of weapon?.inflicts ?? []) inflict(r, actor, targetId, application);
  for (const application of tech?.inflicts ?? []) inflict(r, actor, targetId, application);
}

/** A Magic Tech's effects on one target, after any Wall has turned it. */
export function magicEffects(r: Resolution, actorId: string, targetId: string, tech: Tech): void {
  const actor = r.combatant(actorId);
  const stats = actor.sheet.stats;
  if (tech.revive !== undefined) revive(r, targetId, tech.revive.hpPercent, tech.name);
  if (!isStanding(r.combatant(targetId))) {
    if (tech.revive === undefined)
      r.emit({ type: 'no-effect', target: targetId, reason: `${tech.name}: unconscious` });
    return;
  }
  const mode = hasStatus(actor, 'curse') ? 'min' : 'roll';
  if (tech.damage !== undefined) {
    const roll = rollDamage(
      r,
      `damage:${targetId}`,
      stats.magicDice + tech.damage.dice,
      tech.damage.die ?? 4,
      stats.map + tech.damage.power,
      mode,
    );
    dealDamage(r, actorId, targetId, {
      roll,
      kind: 'magical',
      element: tech.damage.element,
      dealt: hasStatus(actor, 'frog') ? [FROG] : [],
      cause: tech.name,
    });
  }
  if (tech.heal !== undefined) {
    const roll = rollDamage(
      r,
      `heal:${targetId}`,
      stats.magicDice + tech.heal.dice,
      tech.heal.die ?? 4,
      stats.map + tech.heal.power,
      'roll',
    );
    gainHp(r, actorId, targetId, roll.base, roll.roll, tech.name);
  }
  if (tech.cures.length > 0) cure(r, targetId, tech.cures);
  if (tech.dispel !== undefined) {
    for (const s of r.combatant(targetId).statuses) {
      const polarity = STATUSES[s.status].polarity;
      if (tech.dispel === 'all' || tech.dispel === polarity)
        r.emit({ type: 'status-ended', target: targetId, status: s.status, reason: 'dispelled' });
    }
  }
  for (const application of tech.inflicts) inflict(r, actor, targetId, application);
}
