import { diceDistribution } from '../../dice/index.js';
import type { ActionOdds } from '../system.js';
import {
  cosFor,
  type DamageSpec,
  damageSteps,
  shareOf,
  usesWeapon,
  weaponDamage,
  weaponOf,
} from './actions.js';
import { judgePercentileRoll, taskCheckNeedsRoll } from './checks/index.js';
import type { FfrpgCommand } from './commands.js';
import { computeDamage } from './damage.js';
import { rate, targetsFor } from './decide.js';
import type { Ability } from './model.js';
import { canAct, hasEffect, stat, variablesOf } from './resolution.js';
import { type CombatantState, currentEntry, type FfrpgState, isActive } from './state.js';

/**
 * The odds of an action, exactly: every d% outcome judged as the rules judge it (Critical
 * Successes, the Rule of 10 in the encounter's reading, Botches), and every damage or healing
 * roll's exact distribution put through the same pipeline the rules use (damageSteps).
 */
export function ffrpgOdds(state: FfrpgState, command: FfrpgCommand): ActionOdds | undefined {
  switch (command.type) {
    case 'attack': {
      const actor = live(state, command.actor);
      const target = live(state, command.target);
      return actor && target ? attackOdds(state, actor, target) : undefined;
    }
    case 'use-ability': {
      const actor = live(state, command.actor);
      return actor ? abilityOdds(state, actor, command.ability, command.target) : undefined;
    }
    case 'task-check': {
      const actor = live(state, command.actor);
      return actor ? taskCheckOdds(state, actor, command) : undefined;
    }
    default:
      // Beginning a round, passing, fleeing, ending a Scene and the GM's own commands leave
      // nothing to chance worth showing.
      return undefined;
  }
}

function live(state: FfrpgState, id: string): CombatantState | undefined {
  const c = Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
  return c !== undefined && isActive(c) ? c : undefined;
}

/** Whole percent for a summary, never rounding a real chance to 0% or 100%. */
export function pct(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p > 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}

function pct1(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

export interface CheckOdds {
  readonly success: number;
  readonly critical: number;
  readonly automatic: boolean;
}

const AUTOMATIC_ODDS: CheckOdds = { success: 1, critical: 0, automatic: true };

/** Each of the 100 d% outcomes judged as `judgePercentileRoll` judges it in play. */
export function checkOdds(state: FfrpgState, cos: number): CheckOdds {
  const { botchAlwaysFails, ruleOf10Reading } = state.setup.options;
  let success = 0;
  let critical = 0;
  for (let roll = 1; roll <= 100; roll++) {
    const judged = judgePercentileRoll(cos, roll, { botchAlwaysFails, ruleOf10Reading });
    if (judged.success) success++;
    if (judged.critical) critical++;
  }
  return { success: success / 100, critical: critical / 100, automatic: false };
}

/** What one hit deals: each amount with its probability, and whether the target absorbs it. */
interface Dealt {
  readonly amounts: ReadonlyMap<number, number>;
  readonly absorbed: boolean;
}

type Spec = Omit<DamageSpec, 'chain' | 'critical'>;

function dealt(
  state: FfrpgState,
  source: CombatantState,
  target: CombatantState,
  spec: Spec,
  critical: boolean,
): Dealt {
  const bases: readonly (readonly [number, number])[] =
    spec.code === undefined
      ? [[spec.share === undefined ? 0 : shareOf(target, spec.share), 1]]
      : damageCodeOutcomes(spec.code, variablesOf(state, source, spec.skill));
  const steps = damageSteps(state, source, target, { ...spec, critical });
  // The same attack on the same numbers is offered after every change: its amounts are the
  // same too. Worked-out codes are kept, so `bases` is the same array for the same code.
  const key = `${codeKeys.get(bases) ?? `=${bases[0]![0]}`}\u0000${JSON.stringify(steps)}`;
  const known = dealtWorkedOut.get(key);
  if (known !== undefined) return known;
  const amounts = new Map<number, number>();
  let absorbed = false;
  for (const [base, p] of bases) {
    const result = computeDamage({ ...steps, base, explain: false });
    absorbed = result.absorbed;
    amounts.set(result.amount, (amounts.get(result.amount) ?? 0) + p);
  }
  const worked: Dealt = { amounts, absorbed };
  if (dealtWorkedOut.size >= CODES_KEPT) {
    dealtWorkedOut.delete(dealtWorkedOut.keys().next().value as string);
  }
  dealtWorkedOut.set(key, worked);
  return worked;
}

const dealtWorkedOut = new Map<string, Dealt>();

/**
 * A Damage Code's outcomes with the attacker's numbers in it, worked out once: a live fight
 * offers the same attacks with the same numbers after every change, and their odds are asked
 * for each time. Oldest dropped first past `CODES_KEPT`.
 */
function damageCodeOutcomes(
  code: string,
  variables: Readonly<Record<string, number>>,
): readonly (readonly [number, number])[] {
  return codeWorkedOut(code, variables).distribution;
}

/** `diceDistribution` of a code with the user's numbers in it, worked out once. */
function codeWorkedOut(code: string, variables: Readonly<Record<string, number>>): CodeOdds {
  const key = `${code}\u0000${JSON.stringify(variables)}`;
  let worked = codesWorkedOut.get(key);
  if (worked === undefined) {
    const { distribution, min, mean, max } = diceDistribution(code, { variables });
    worked = { distribution, min, mean, max };
    if (codesWorkedOut.size >= CODES_KEPT) {
      codesWorkedOut.delete(codesWorkedOut.keys().next().value as string);
    }
    codesWorkedOut.set(key, worked);
    codeKeys.set(distribution, key);
  }
  return worked;
}

interface CodeOdds {
  readonly distribution: readonly (readonly [number, number])[];
  readonly min: number;
  readonly mean: number;
  readonly max: number;
}

const CODES_KEPT = 2048;
const codesWorkedOut = new Map<string, CodeOdds>();
/** Each kept distribution's key: what `dealt` is keyed by. */
const codeKeys = new WeakMap<object, string>();

interface DamageOdds {
  readonly range: { readonly min: number; readonly mean: number; readonly max: number };
  readonly meanDamage: number;
  readonly knockOut: number;
  readonly lines: string[];
}

function meanOf(amounts: ReadonlyMap<number, number>): number {
  let sum = 0;
  for (const [v, p] of amounts) sum += v * p;
  return sum;
}

function describeDealt(d: Dealt): string {
  const values = [...d.amounts.keys()].sort((a, b) => a - b);
  const range = values[0] === values.at(-1) ? `${values[0]}` : `${values[0]} to ${values.at(-1)}`;
  return `${range}, mean ${meanOf(d.amounts).toFixed(1)}${d.absorbed ? ' (absorbed: heals)' : ''}`;
}

/**
 * Damage when the check succeeds, a Critical Hit's share with its +100%: the mean HP the
 * target loses over the whole action (a miss, or absorbed damage, counted as 0, as `damageOf`
 * counts it) and the chance it drops to 0 HP.
 */
function damageOdds(
  state: FfrpgState,
  source: CombatantState,
  target: CombatantState,
  spec: Spec,
  check: CheckOdds,
): DamageOdds {
  const normal = dealt(state, source, target, spec, false);
  const crit = check.critical > 0 ? dealt(state, source, target, spec, true) : normal;
  const pNormal = check.success - check.critical;
  const mp = spec.pool === 'mp';
  const counts = !normal.absorbed && !mp;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const d of check.critical > 0 ? [normal, crit] : [normal]) {
    for (const v of d.amounts.keys()) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  const hitMean =
    check.success === 0
      ? meanOf(normal.amounts)
      : (pNormal * meanOf(normal.amounts) + check.critical * meanOf(crit.amounts)) / check.success;
  const atLeast = (d: Dealt, hp: number): number => {
    let p = 0;
    for (const [v, q] of d.amounts) if (v >= hp) p += q;
    return p;
  };
  const knockOut = counts
    ? pNormal * atLeast(normal, target.hp) + check.critical * atLeast(crit, target.hp)
    : 0;
  const pool = mp ? 'MP' : 'HP';
  const lines = [
    `  damage${mp ? ' to MP' : ''}: ${describeDealt(normal)}${check.critical > 0 ? `; Critical: ${describeDealt(crit)}` : ''}`,
    `  ${target.sheet.name} has ${mp ? target.mp : target.hp} ${pool}${counts ? `: knocked out ${pct1(knockOut)}` : ''}`,
  ];
  return {
    range: { min, mean: hitMean, max },
    meanDamage: counts
      ? pNormal * meanOf(normal.amounts) + check.critical * meanOf(crit.amounts)
      : 0,
    knockOut,
    lines,
  };
}

/**
 * The round's Status Phase may follow this action in the same command (nobody else waits to
 * act): its Poison is not in these odds, so they say so.
 */
function statusPhaseCaveat(state: FfrpgState, target: CombatantState): string | undefined {
  const poisoned = target.statuses.some((s) =>
    state.setup.statuses[s.status]?.effects.some((e) => e.kind === 'status-phase-damage'),
  );
  if (!poisoned) return undefined;
  for (let i = state.cursor + 1; i < state.timeline.length; i++) {
    const entry = state.timeline[i]!;
    if (entry.kind !== 'combatant') continue;
    const c = state.combatants[entry.id];
    if (c !== undefined && canAct(state, c)) return undefined;
  }
  return `  (estimate: the Status Phase's damage to ${target.sheet.name} right after is not counted)`;
}

function attackOdds(state: FfrpgState, actor: CombatantState, target: CombatantState): ActionOdds {
  const weapon = weaponOf(actor);
  const skill = weapon.skill === undefined ? 0 : (actor.sheet.skills[weapon.skill] ?? 0);
  const magical = weapon.damageType === 'magical';
  const eva = stat(state, target, magical ? 'meva' : 'eva');
  const cos = stat(state, actor, 'acc') + skill - eva;
  const check = checkOdds(state, cos);
  const damage = damageOdds(state, actor, target, weaponDamage(weapon), check);
  const caveat = statusPhaseCaveat(state, target);
  return {
    summary: `hit ${pct(check.success)} · ${range(damage.range)} · KO ${pct(damage.knockOut)}`,
    lines: [
      `${actor.sheet.name} attacks ${target.sheet.name}: CoS ${cos} (ACC + ${weapon.skill ?? 'no Skill'} - ${magical ? 'M. EVA' : 'EVA'} ${eva})`,
      `  hits ${pct1(check.success)} (Critical Hit ${pct1(check.critical)}), misses ${pct1(1 - check.success)}`,
      ...damage.lines,
      `  mean damage ${damage.meanDamage.toFixed(1)} (a miss counted as 0)`,
      ...(caveat === undefined ? [] : [caveat]),
    ],
    target: target.id,
    chance: check.success,
    damage: damage.range,
    meanDamage: damage.meanDamage,
    knockOut: damage.knockOut,
    exact: caveat === undefined,
  };
}

function range(r: { min: number; max: number }): string {
  return r.min === r.max ? `${r.min}` : `${r.min}-${r.max}`;
}

/**
 * Whether a Slow ability declared now goes off within the same command: no combatant who can
 * act stands on the countdown before its Charge Time runs out.
 */
export function goesOffAtOnce(state: FfrpgState, resolvesAt: number): boolean {
  for (let i = state.cursor + 1; i < state.timeline.length; i++) {
    const entry = state.timeline[i]!;
    if (entry.count < resolvesAt || (entry.count === resolvesAt && entry.kind === 'combatant'))
      return true;
    if (entry.kind !== 'combatant') continue;
    const c = state.combatants[entry.id];
    if (c !== undefined && canAct(state, c)) return false;
  }
  return true;
}

function abilityOdds(
  state: FfrpgState,
  actor: CombatantState,
  abilityId: string,
  targetId: string | undefined,
): ActionOdds | undefined {
  if (!actor.sheet.abilities.includes(abilityId)) return undefined;
  const ability = Object.hasOwn(state.setup.abilities, abilityId)
    ? state.setup.abilities[abilityId]
    : undefined;
  if (ability === undefined) return undefined;
  const targets = targetsFor(state, actor, ability, targetId);
  if (!targets.ok) return undefined;
  const hpCost = Math.floor((actor.sheet.stats.hp * ability.cost.hpPercent) / 100);
  const costs = [
    ability.mpCost > 0 ? `${ability.mpCost} MP` : '',
    hpCost > 0 ? `${hpCost} HP` : '',
  ].filter(Boolean);
  const cost = costs.length > 0 ? costs.join(' + ') : undefined;
  const slow = ability.type === 'slow' || ability.slow;
  const resolvesAt = Math.max((currentEntry(state)?.count ?? 0) - (ability.chargeTime ?? 0), 0);
  // A Slow ability's effect (and its dice) comes when its Charge Time runs out: this command
  // deals nothing unless nobody acts in between.
  const now = !slow || goesOffAtOnce(state, resolvesAt);
  const lines: string[] = [
    `${actor.sheet.name} uses ${ability.name}${cost === undefined ? '' : `, paying ${cost}`}${hpCost > 0 ? ` (${actor.sheet.name} has ${actor.hp} HP)` : ''}`,
  ];
  if (slow)
    lines.push(
      `  Slow (${ability.chargeTime}): goes off on Initiative ${resolvesAt}${now ? ', before anyone else acts' : ''}; its dice are rolled then`,
    );
  const main =
    ability.target === 'single' || targets.value.length === 1 ? targets.value[0] : undefined;
  let summary: string[] = [];
  let result: Partial<ActionOdds> = {};
  let exact = true;
  for (const id of targets.value) {
    const target = state.combatants[id]!;
    const one = effectOdds(state, actor, target, ability);
    lines.push(...one.lines);
    if (id !== main) continue;
    summary = one.summary;
    result = {
      target: id,
      chance: one.chance,
      ...(one.damage === undefined ? {} : { damage: one.damage }),
      ...(one.status === undefined ? {} : { status: one.status }),
      meanDamage: now ? one.meanDamage : 0,
      knockOut: now ? one.knockOut : 0,
    };
    const caveat = statusPhaseCaveat(state, target);
    if (caveat !== undefined && now) {
      lines.push(caveat);
      exact = false;
    }
  }
  if (main === undefined) summary = [`${targets.value.length} targets`];
  if (cost !== undefined) summary.push(cost);
  if (slow) summary.push(`CT ${ability.chargeTime}`);
  return {
    summary: summary.join(' · '),
    lines,
    ...result,
    ...(cost === undefined ? {} : { cost }),
    exact,
  };
}

interface EffectOdds {
  readonly summary: string[];
  readonly lines: string[];
  readonly chance: number;
  readonly damage?: { min: number; mean: number; max: number };
  readonly status?: number;
  readonly meanDamage: number;
  readonly knockOut: number;
}

/** One target's odds of an ability's effect: its CoS, damage, healing and Status Conditions. */
function effectOdds(
  state: FfrpgState,
  user: CombatantState,
  target: CombatantState,
  ability: Ability,
): EffectOdds {
  const cos = cosFor(state, user, target, ability.cos);
  const check = cos === 'automatic' ? AUTOMATIC_ODDS : checkOdds(state, cos.cos);
  const lines = [
    cos === 'automatic'
      ? `  on ${target.sheet.name}: no roll, it works`
      : `  on ${target.sheet.name}: CoS ${cos.cos} (${cos.formula}): works ${pct1(check.success)}${check.critical > 0 ? ` (Critical ${pct1(check.critical)})` : ''}`,
  ];
  const summary: string[] = cos === 'automatic' ? [] : [`${pct(check.success)}`];
  let damage: EffectOdds['damage'];
  let meanDamage = 0;
  let knockOut = 0;
  if (ability.damage !== undefined) {
    const weapon = weaponOf(user);
    const effect = ability.damage;
    const spec: Spec = {
      code: effect.share === undefined ? (effect.code ?? weapon.damage) : undefined,
      share: effect.share,
      damageType: effect.damageType,
      element: effect.element ?? (usesWeapon(ability) ? weapon.element : undefined),
      percents: effect.percent === 0 ? [] : [[ability.name, effect.percent]],
      skill: usesWeapon(ability) ? weapon.skill : undefined,
      ignoresArmor: effect.ignoresArmor,
      ignoresCap: effect.ignoresCap,
      pool: effect.pool,
    };
    const d = damageOdds(state, user, target, spec, check);
    lines.push(...d.lines);
    damage = d.range;
    meanDamage = d.meanDamage;
    knockOut = d.knockOut;
    summary.push(range(d.range));
    if (d.knockOut > 0) summary.push(`KO ${pct(d.knockOut)}`);
  }
  if (ability.heal !== undefined) {
    const heal = codeWorkedOut(ability.heal.code, variablesOf(state, user));
    damage = { min: heal.min, mean: heal.mean, max: heal.max };
    const room = target.sheet.stats.hp - target.hp;
    lines.push(
      `  heals ${heal.min} to ${heal.max}, mean ${heal.mean.toFixed(1)} (${target.sheet.name} is ${room} HP short of full)`,
    );
    summary.push(`heals ${range(heal)}`);
  }
  let status: number | undefined;
  for (const application of ability.inflicts) {
    const name = state.setup.statuses[application.status]?.name ?? application.status;
    const immune = target.sheet.immunities.includes(application.status);
    const own =
      application.cos.kind === 'automatic'
        ? AUTOMATIC_ODDS
        : (() => {
            const c = cosFor(state, user, target, application.cos);
            return c === 'automatic' ? AUTOMATIC_ODDS : checkOdds(state, c.cos);
          })();
    const lands = immune ? 0 : check.success * own.success;
    status ??= lands;
    lines.push(
      `  ${name} lands ${pct1(lands)}${immune ? ` (${target.sheet.name} is immune)` : ''}`,
    );
    summary.push(`${name} ${pct(lands)}`);
  }
  for (const cure of ability.cures) {
    const name = state.setup.statuses[cure]?.name ?? cure;
    const has = target.statuses.some((s) => s.status === cure);
    lines.push(`  cures ${name}${has ? '' : ` (${target.sheet.name} has none)`}`);
  }
  if (hasEffect(state, target, 'cannot-act') !== undefined && ability.damage !== undefined)
    lines.push(`  (${target.sheet.name} cannot act: damage may wake it)`);
  return {
    summary,
    lines,
    chance: check.success,
    ...(damage === undefined ? {} : { damage }),
    ...(status === undefined ? {} : { status }),
    meanDamage,
    knockOut,
  };
}

function taskCheckOdds(
  state: FfrpgState,
  actor: CombatantState,
  command: Extract<FfrpgCommand, { type: 'task-check' }>,
): ActionOdds | undefined {
  const rated = rate(actor, command);
  if (!rated.ok) return undefined;
  const { cos, formula } = rated.value;
  const head = `${actor.sheet.name}: CoS ${cos} (${formula})`;
  if (!taskCheckNeedsRoll(cos))
    return {
      summary: 'succeeds, no roll',
      lines: [head, '  a CoS of 100 or more succeeds without a roll'],
      chance: 1,
      exact: true,
    };
  const { botchAlwaysFails, ruleOf10Reading } = state.setup.options;
  let success = 0;
  let critical = 0;
  for (let roll = 1; roll <= 100; roll++) {
    const judged = judgePercentileRoll(cos, roll, {
      botchAlwaysFails,
      ruleOf10Reading,
      impossible: command.impossible,
    });
    if (judged.success) success++;
    if (judged.critical) critical++;
  }
  return {
    summary: `success ${pct(success / 100)}`,
    lines: [
      head,
      `  succeeds ${pct1(success / 100)} (Critical Success ${pct1(critical / 100)}), fails ${pct1(1 - success / 100)}`,
    ],
    chance: success / 100,
    exact: true,
  };
}
