import { parseDice } from '../../dice/index.js';
import type { RollRecord } from '../../engine/index.js';
import { computeDamage, type DamageInput, type DamageResult } from './damage.js';
import type { CheckRecord } from './events.js';
import { knockOut } from './knock-out.js';
import type { Ability, ReactionTrigger, TargetShare, Weapon } from './model.js';
import {
  AUTOMATIC,
  hasEffect,
  isEnemy,
  NO_TRIGGERS,
  passives,
  type Resolution,
  stat,
  variablesOf,
} from './resolution.js';
import { type CombatantState, type FfrpgState, isActive } from './state.js';

/** A combatant with no weapon in its sheet fights with its bare hands. */
export const UNARMED: Weapon = { name: 'Unarmed', damage: 'STR + d6', damageType: 'physical' };

export function weaponOf(c: CombatantState): Weapon {
  return c.sheet.weapon ?? UNARMED;
}

/**
 * The basic Attack Action: "Accuracy plus Guns comes out to 92 ... The Heket's Evasion is 22;
 * 92 minus 22 would give Rob a CoS of 70." A hit deals the weapon's damage code less ARM;
 * a Critical Hit adds +100% (docs/rulings.md).
 */
export function attack(
  r: Resolution,
  actorId: string,
  targetId: string,
  reaction: boolean,
  chain: ReadonlySet<ReactionTrigger>,
): void {
  const actor = r.combatant(actorId);
  const target = r.combatant(targetId);
  const weapon = weaponOf(actor);
  const acc = stat(r.state, actor, 'acc');
  const skill = weapon.skill === undefined ? 0 : (actor.sheet.skills[weapon.skill] ?? 0);
  const eva = stat(r.state, target, weapon.damageType === 'magical' ? 'meva' : 'eva');
  const cos = acc + skill - eva;
  const parts = r.explain
    ? [`ACC ${acc}`, ...(weapon.skill === undefined ? [] : [`${weapon.skill} ${skill}`])]
    : [];
  const formula = r.explain
    ? `${parts.join(' + ')} - ${weapon.damageType === 'magical' ? 'M. EVA' : 'EVA'} ${eva}`
    : '';
  const check = r.check(`hit:${targetId}`, cos, formula);
  r.emit({
    type: 'attack-made',
    actor: actorId,
    target: targetId,
    weapon: weapon.name,
    check,
    reaction,
  });
  if (check.success) {
    dealDamage(r, actorId, targetId, weaponDamage(weapon, check.critical, chain));
  }
  react(r, targetId, actorId, ['attacked'], chain);
}

/**
 * What a weapon's hit deals, before the dice: the attack and its odds read the same one. One
 * literal with every field, never a spread: the damage pipeline runs on every simulated hit,
 * and objects of one shape keep it fast (a spread here halved FFRPG's battles per second).
 */
export function weaponDamage(
  weapon: Weapon,
  critical = false,
  chain: ReadonlySet<ReactionTrigger> = NO_TRIGGERS,
): DamageSpec {
  return {
    code: weapon.damage,
    damageType: weapon.damageType,
    element: weapon.element,
    percents: [],
    skill: weapon.skill,
    ignoresArmor: false,
    ignoresCap: false,
    pool: 'hp',
    critical,
    chain,
  };
}

export interface DamageSpec {
  /** A damage code to roll, or (when undefined) `share` of the target. */
  readonly code: string | undefined;
  readonly share?: TargetShare | undefined;
  readonly damageType: 'physical' | 'magical';
  readonly element: Weapon['element'];
  readonly percents: readonly (readonly [string, number])[];
  readonly skill: string | undefined;
  readonly ignoresArmor: boolean;
  readonly ignoresCap: boolean;
  readonly pool: 'hp' | 'mp';
  readonly critical: boolean;
  /** The Reaction triggers that led to this damage (see react). */
  readonly chain: ReadonlySet<ReactionTrigger>;
}

/** A share of the target's own HP or MP, rounded down: "damage equivalent to 50% of the target's HP". */
export function shareOf(target: CombatantState, share: TargetShare): number {
  const of = {
    hp: target.hp,
    'max-hp': target.sheet.stats.hp,
    mp: target.mp,
    'max-mp': target.sheet.stats.mp,
  }[share.of];
  return Math.floor((of * share.percent) / 100);
}

/**
 * Everything of the damage pipeline but the base: the percentages (the effect's, a Critical
 * Hit's, the source's Support abilities), the target's armour, barriers and affinity, the Cap.
 * The odds read the same, so they follow the rules exactly.
 */
export function damageSteps(
  state: FfrpgState,
  source: CombatantState,
  target: CombatantState,
  spec: Omit<DamageSpec, 'chain' | 'code'>,
): Omit<DamageInput, 'base'> {
  const options = state.setup.options;
  const percents: (readonly [string, number])[] = [...spec.percents];
  if (spec.critical) percents.push(['Critical', options.criticalDamagePercent]);
  for (const { source: name, effect } of passives(state, source)) {
    if (
      effect.kind === 'damage-dealt-percent' &&
      (effect.skill === undefined || effect.skill === spec.skill)
    ) {
      percents.push([name, effect.percent]);
    }
  }
  const barriers: [string, number][] = [];
  for (const { source: name, effect } of passives(state, target)) {
    if (effect.kind === 'damage-taken-percent' && effect.damage === spec.damageType)
      barriers.push([name, effect.percent]);
  }
  const armorStat = spec.damageType === 'physical' ? 'arm' : 'marm';
  return {
    percents,
    armor: spec.ignoresArmor
      ? null
      : {
          name: spec.damageType === 'physical' ? 'ARM' : 'M. ARM',
          value: stat(state, target, armorStat),
        },
    barriers,
    affinity: spec.element === undefined ? undefined : target.sheet.affinities[spec.element],
    cap: spec.ignoresCap ? null : options.damageCap,
  };
}

function dealDamage(r: Resolution, sourceId: string, targetId: string, spec: DamageSpec): void {
  const source = r.combatant(sourceId);
  const target = r.combatant(targetId);
  const roll =
    spec.code === undefined
      ? null
      : r.dice.roll(`damage:${targetId}`, spec.code, variablesOf(r.state, source, spec.skill));
  const base = roll?.total ?? (spec.share === undefined ? 0 : shareOf(target, spec.share));
  // Every field written out, no spreads: a simulation deals damage several times a battle.
  const steps = damageSteps(r.state, source, target, spec);
  const result = computeDamage({
    explain: r.explain,
    base,
    percents: steps.percents,
    armor: steps.armor,
    barriers: steps.barriers,
    affinity: steps.affinity,
    cap: steps.cap,
  });
  const landed =
    spec.share === undefined || !r.explain
      ? result
      : {
          amount: result.amount,
          absorbed: result.absorbed,
          breakdown: `${spec.share.percent}% of ${spec.share.of.toUpperCase()}: ${result.breakdown}`,
        };
  landDamage(r, sourceId, targetId, landed, roll, spec.pool);
  if (result.absorbed || result.amount === 0 || spec.pool === 'mp') return;
  const after = r.combatant(targetId);
  // Reactions answer enemies: an ally's spell that catches a friend does not set off its Counter.
  if (!isActive(after) || !isEnemy(source, after)) return;
  const trigger = spec.damageType === 'physical' ? 'physical-damage' : 'magical-damage';
  react(r, targetId, sourceId, [trigger], spec.chain);
}

/**
 * Damage as computed, applied: HP or MP lost (or healed, when absorbed), a knock-out at 0 HP,
 * Status Conditions that end on damage. `source` is a combatant's id, or what else dealt it.
 */
export function landDamage(
  r: Resolution,
  source: string,
  targetId: string,
  result: DamageResult,
  roll: RollRecord | null,
  pool: 'hp' | 'mp',
): void {
  const target = r.combatant(targetId);
  // MP damage (and MP absorbed) changes MP only; nobody is knocked out at 0 MP.
  const mp = pool === 'mp';
  const before = mp ? target.mp : target.hp;
  const after = result.absorbed
    ? Math.min(mp ? target.sheet.stats.mp : target.sheet.stats.hp, before + result.amount)
    : Math.max(0, before - result.amount);
  r.emit({
    type: 'damage-dealt',
    source,
    target: targetId,
    roll,
    // Absorbed damage reports what it actually restored; MP damage, the MP actually lost.
    amount: result.absorbed || mp ? Math.abs(after - before) : result.amount,
    absorbed: result.absorbed,
    hpAfter: mp ? target.hp : after,
    ...(mp ? { mpAfter: after } : {}),
    breakdown: mp ? `${result.breakdown} (to MP)` : result.breakdown,
  });
  if (mp) return;
  if (result.absorbed || result.amount === 0) return;
  if (after === 0) {
    knockOut(r, targetId);
    return;
  }
  for (const s of r.combatant(targetId).statuses) {
    const definition = r.state.setup.statuses[s.status];
    if (definition?.effects.some((e) => e.kind === 'ends-on-damage')) {
      r.emit({ type: 'status-ended', target: targetId, status: s.status, reason: 'damage' });
    }
  }
}

/**
 * Reactions of `reactorId` to what `againstId` just did. "A Reaction Ability cannot be activated
 * by another Reaction Ability if the two share the same trigger": `chain` holds the triggers of
 * the Reactions that led here, so a counter-attack never sets off the attacker's Counter.
 */
export function react(
  r: Resolution,
  reactorId: string,
  againstId: string,
  triggers: readonly ReactionTrigger[],
  chain: ReadonlySet<ReactionTrigger>,
): void {
  for (const abilityId of r.combatant(reactorId).sheet.abilities) {
    const ability = r.ability(abilityId);
    if (ability.type !== 'reaction' || ability.trigger === undefined) continue;
    if (!triggers.includes(ability.trigger) || chain.has(ability.trigger)) continue;
    const reactor = r.combatant(reactorId);
    const against = r.combatant(againstId);
    if (
      !isActive(reactor) ||
      !isActive(against) ||
      hasEffect(r.state, reactor, 'cannot-act') !== undefined
    )
      return;
    const check = checkFor(r, reactor, against, ability, `reaction:${abilityId}`);
    r.emit({
      type: 'reaction-triggered',
      actor: reactorId,
      ability: abilityId,
      against: againstId,
      check,
    });
    if (!check.success) continue;
    const next = new Set(chain).add(ability.trigger);
    if (ability.reaction === 'counter-attack') attack(r, reactorId, againstId, true, next);
  }
}

/** The CoS roll an ability's effect needs on one target, or none for automatic effects. */
function checkFor(
  r: Resolution,
  user: CombatantState,
  target: CombatantState,
  ability: Ability,
  purpose: string,
): CheckRecord {
  const cos = cosFor(r.state, user, target, ability.cos);
  return cos === 'automatic' ? AUTOMATIC : r.check(purpose, cos.cos, cos.formula);
}

/** An effect's CoS against one target: a Flat CoS, or a formula less the target's guard. */
export function cosFor(
  state: FfrpgState,
  user: CombatantState,
  target: CombatantState,
  cos: Ability['cos'],
): 'automatic' | { readonly cos: number; readonly formula: string } {
  if (cos.kind === 'automatic') return 'automatic';
  if (cos.kind === 'flat') return { cos: cos.percent, formula: `Flat CoS ${cos.percent}%` };
  const base = parseDice(cos.formula).total(
    NO_DICE,
    variablesOf(state, user, weaponOf(user).skill),
  );
  if (cos.guard === undefined) return { cos: base, formula: `${cos.formula} = ${base}` };
  const guard = stat(state, target, cos.guard);
  const name = cos.guard === 'eva' ? 'EVA' : 'M. EVA';
  return { cos: base - guard, formula: `(${cos.formula}) ${base} - ${name} ${guard}` };
}

/** CoS formulas are arithmetic on statistics; a die in one is a content mistake, stopped here. */
const NO_DICE = {
  roll(): number {
    throw new Error('a CoS formula cannot roll dice');
  },
};

/** What an ability does to its targets once it goes off (at once, or when its Charge Time ends). */
export function applyAbilityEffects(
  r: Resolution,
  userId: string,
  abilityId: string,
  targets: readonly string[],
  chain: ReadonlySet<ReactionTrigger>,
): void {
  const ability = r.ability(abilityId);
  for (const targetId of targets) {
    const user = r.combatant(userId);
    const target = r.combatant(targetId);
    if (!isActive(user)) return;
    if (!isActive(target)) continue;
    const check = checkFor(r, user, target, ability, `effect:${targetId}`);
    if (!check.automatic)
      r.emit({
        type: 'effect-checked',
        actor: userId,
        target: targetId,
        ability: abilityId,
        check,
      });
    if (!check.success) continue;
    if (ability.damage !== undefined) {
      const weapon = weaponOf(user);
      dealDamage(r, userId, targetId, {
        code:
          ability.damage.share === undefined ? (ability.damage.code ?? weapon.damage) : undefined,
        share: ability.damage.share,
        damageType: ability.damage.damageType,
        element: ability.damage.element ?? (usesWeapon(ability) ? weapon.element : undefined),
        percents: ability.damage.percent === 0 ? [] : [[ability.name, ability.damage.percent]],
        skill: usesWeapon(ability) ? weapon.skill : undefined,
        ignoresArmor: ability.damage.ignoresArmor,
        ignoresCap: ability.damage.ignoresCap,
        pool: ability.damage.pool,
        critical: check.critical,
        chain,
      });
    }
    if (ability.heal !== undefined && isActive(r.combatant(targetId))) {
      const roll = r.dice.roll(`heal:${targetId}`, ability.heal.code, variablesOf(r.state, user));
      const healed = r.combatant(targetId);
      const hpAfter = Math.min(healed.sheet.stats.hp, healed.hp + roll.total);
      r.emit({
        type: 'healed',
        source: userId,
        target: targetId,
        roll,
        amount: hpAfter - healed.hp,
        hpAfter,
      });
    }
    for (const cure of ability.cures) {
      if (r.combatant(targetId).statuses.some((s) => s.status === cure)) {
        r.emit({ type: 'status-ended', target: targetId, status: cure, reason: 'cured' });
      }
    }
    for (const application of ability.inflicts) {
      const now = r.combatant(targetId);
      if (!isActive(now)) break;
      if (now.sheet.immunities.includes(application.status)) {
        r.emit({
          type: 'status-resisted',
          target: targetId,
          status: application.status,
          reason: 'immune',
        });
        continue;
      }
      const statusCheck =
        application.cos.kind === 'automatic'
          ? AUTOMATIC
          : checkFor(
              r,
              user,
              now,
              { ...ability, cos: application.cos },
              `status:${application.status}:${targetId}`,
            );
      if (!statusCheck.automatic) {
        r.emit({
          type: 'effect-checked',
          actor: userId,
          target: targetId,
          ability: abilityId,
          check: statusCheck,
        });
      }
      if (!statusCheck.success) continue;
      const timer = application.timer ?? r.status(application.status).timer;
      r.emit({ type: 'status-inflicted', target: targetId, status: application.status, timer });
    }
    if (ability.type === 'magic' && isEnemy(user, r.combatant(targetId)))
      react(r, targetId, userId, ['spell-cast-at'], chain);
  }
}

/** An ability whose damage is the user's weapon damage (Darkside), not its own code or a share. */
export function usesWeapon(ability: Ability): boolean {
  return ability.damage?.code === undefined && ability.damage?.share === undefined;
}
