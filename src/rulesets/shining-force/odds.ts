/**
 * The odds of every action a Shining Force turn offers, exact: each d100 has a hundred faces
 * and the variance's d15 fifteen, so every outcome is counted rather than sampled.
 */

import { withArticle } from '../grammar.js';
import type { ActionOdds } from '../system.js';
import { CRACK_MAX, cannotCounter, effectTargets } from './combat.js';
import type { ShiningForceCommand } from './commands.js';
import { slotOf } from './decide.js';
import { armament, derived } from './derived.js';
import type { Effect, Infliction } from './model.js';
import { attackDamage, effectDamage, isCounter, isCritical, isHit, statusChance } from './rates.js';
import { type CombatantState, combatantOf, hasStatus, type ShiningForceState } from './state.js';

/** A distribution: value to probability. */
type Dist = Map<number, number>;

/**
 * The damage variance (the second and fifth d100, then a d15): 1-33 takes 1d15% off, 34-66
 * nothing, 67-100 adds 1d15%.
 */
export const VARIANCE: readonly (readonly [percent: number, p: number])[] = (() => {
  const out: [number, number][] = [];
  for (let k = 15; k >= 1; k--) out.push([-k, 33 / 100 / 15]);
  out.push([0, 34 / 100]);
  for (let k = 1; k <= 15; k++) out.push([k, 33 / 100 / 15]);
  return out;
})();

/** Faces of a d100 (1-100) for which `test` holds, as a chance. */
function d100Chance(test: (roll: number) => boolean): number {
  let n = 0;
  for (let roll = 1; roll <= 100; roll++) if (test(roll)) n++;
  return n / 100;
}

function add(dist: Dist, value: number, p: number): void {
  if (p > 0) dist.set(value, (dist.get(value) ?? 0) + p);
}

function stats(dist: Dist): { min: number; mean: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let mean = 0;
  let total = 0;
  for (const [v, p] of dist) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    mean += v * p;
    total += p;
  }
  return total === 0 ? { min: 0, mean: 0, max: 0 } : { min, mean: mean / total, max };
}

function atLeast(dist: Dist, hp: number): number {
  let p = 0;
  for (const [v, q] of dist) if (v >= hp) p += q;
  return unit(p);
}

/** A sum of chances kept within 0..1 (floating point may stray by an ulp). */
function unit(p: number): number {
  return Math.min(1, Math.max(0, p));
}

/** A chance as a percent for a table: whole where it is, else one decimal. */
export function pct(p: number): string {
  const n = p * 100;
  if (Math.abs(n - Math.round(n)) < 1e-9) return `${Math.round(n)}%`;
  if (n > 0 && n < 0.1) return '<0.1%';
  return `${n.toFixed(1)}%`;
}

function range(d: { min: number; max: number }): string {
  return d.min === d.max ? `${d.min}` : `${d.min}-${d.max}`;
}

/** The critical an attack strikes with, by level, over the one to four critical d100s. */
function criticals(
  state: ShiningForceState,
  attacker: CombatantState,
): { level: 1 | 2 | 3 | 'special' | null; percent: number | null; p: number }[] {
  const { criticalDamagePercent, criticalRatePercent } = state.setup.options;
  const a = derived(state.setup, attacker);
  const rolls: { level: 1 | 2 | 3 | 'special'; percent: number; chance: number }[] = [];
  for (let level = 1; level <= attacker.sheet.mastery; level++) {
    const rate = Math.floor((a.critical * criticalRatePercent[level - 1]!) / 100);
    rolls.push({
      level: level as 1 | 2 | 3,
      percent: criticalDamagePercent[level - 1]!,
      chance: d100Chance((roll) => isCritical(roll, rate)),
    });
  }
  const special = armament(state.setup, attacker)?.item?.specialCritical;
  if (special !== undefined)
    rolls.push({
      level: 'special',
      percent: special.damagePercent,
      chance: d100Chance((roll) => isCritical(roll, special.rate)),
    });
  const out = new Map<
    string,
    { level: 1 | 2 | 3 | 'special' | null; percent: number | null; p: number }
  >();
  for (let mask = 0; mask < 1 << rolls.length; mask++) {
    let p = 1;
    let best: { level: 1 | 2 | 3 | 'special'; percent: number } | null = null;
    for (const [i, roll] of rolls.entries()) {
      const success = (mask & (1 << i)) !== 0;
      p *= success ? roll.chance : 1 - roll.chance;
      // The strongest critical rolled strikes; the first of equals (as the attack picks).
      if (success && (best === null || roll.percent > best.percent)) best = roll;
    }
    if (p === 0) continue;
    const key = best === null ? 'none' : String(best.level);
    const known = out.get(key);
    if (known === undefined)
      out.set(key, { level: best?.level ?? null, percent: best?.percent ?? null, p });
    else known.p += p;
  }
  return [...out.values()];
}

function statusOf(
  state: ShiningForceState,
  source: CombatantState,
  target: CombatantState,
  what: { chance: number },
): number {
  const chance = statusChance(
    what.chance,
    derived(state.setup, source).luck,
    derived(state.setup, target).luck,
    state.setup.options.statusLuck,
  );
  return d100Chance((roll) => roll <= chance);
}

/** The five d100s of an attack, counted: hit, damage, criticals, counter, counter damage. */
function attackOdds(
  state: ShiningForceState,
  actor: CombatantState,
  target: CombatantState,
): ActionOdds | undefined {
  const setup = state.setup;
  const arms = armament(setup, actor);
  if (arms === undefined) return undefined;
  const a = derived(setup, actor);
  const d = derived(setup, target);
  const { minimumDamage } = setup.options;
  const illusion = hasStatus(actor, 'illusion') !== undefined;
  const hit = d100Chance((roll) => isHit(roll, d.evade, illusion));
  const crits = criticals(state, actor);
  const noCrit = crits.find((c) => c.level === null)?.p ?? 0;
  const damage: Dist = new Map();
  // A rider (a monster's bite, a weapon's special critical) works on a target left standing.
  const rider =
    arms.item === null ? actor.sheet.attack?.inflicts : arms.item.specialCritical?.inflicts;
  let riderLands = 0;
  for (const c of crits)
    for (const [v, p] of VARIANCE) {
      const amount = attackDamage(a.attack, d.defence, v, c.percent, minimumDamage).amount;
      add(damage, amount, c.p * p);
      const rides = arms.item === null ? true : c.level === 'special';
      if (rider !== undefined && rides && amount < target.hp) riderLands += c.p * p;
    }
  const dmg = stats(damage);
  const knockOut = unit(hit * atLeast(damage, target.hp));
  const why = cannotCounter(state, target, actor);
  const counterRoll = d100Chance((roll) => isCounter(roll, d.counter));
  // "Critical hits cannot be countered"; "A character cannot evade and attack and then counter".
  const counter = why === undefined ? hit * noCrit * counterRoll : 0;
  const back: Dist = new Map();
  for (const [v, p] of VARIANCE)
    add(back, attackDamage(d.attack, a.defence, v, null, minimumDamage).amount, p);
  const backStats = stats(back);
  const counterKo = counter * atLeast(back, actor.hp);
  const status =
    rider === undefined ? undefined : hit * riderLands * statusOf(state, actor, target, rider);
  const critLine = crits
    .filter((c) => c.level !== null)
    .map(
      (c) =>
        `${c.level === 'special' ? 'special' : `level ${c.level}`} ${pct(c.p)} (${c.percent}%)`,
    )
    .join(', ');
  const lines = [
    `${actor.sheet.name} attacks ${target.sheet.name} with ${arms.name}: hits ${pct(hit)} (evade ${d.evade}${illusion ? ', Illusion: half as accurate' : ''})`,
    `  damage ${range(dmg)}, mean ${dmg.mean.toFixed(1)} on a hit (ATT ${a.attack} - DEF ${d.defence}, ±15%)`,
    `  critical: ${critLine === '' ? 'none' : critLine}`,
    `  knocks ${target.sheet.name} out: ${pct(knockOut)} (${target.hp} HP)`,
    why === undefined
      ? `  counter ${pct(counter)} (rate ${d.counter}%, not after a critical): ${range(backStats)} to ${actor.sheet.name}, KO ${pct(counterKo)}`
      : `  counter 0%: ${target.sheet.name} cannot strike back (${why})`,
  ];
  if (rider !== undefined && status !== undefined) lines.push(`  ${rider.status} ${pct(status)}`);
  if (setup.options.crackOnAttack && arms.slot !== null)
    lines.push(
      `  ${arms.name} ${actor.items[arms.slot]?.cracked ? 'is cracked: it breaks after this blow' : `cracks ${CRACK_MAX}% of blows`}`,
    );
  return {
    summary: `hit ${pct(hit)} · ${range(dmg)} · KO ${pct(knockOut)} · ctr ${pct(counter)}`,
    lines,
    target: target.id,
    chance: hit,
    damage: dmg,
    meanDamage: hit * dmg.mean,
    knockOut,
    ...(status === undefined ? {} : { status }),
    exact: true,
  };
}

/** What a spell or an item's use does to one combatant it touches. */
interface EffectOutcome {
  readonly damage?: { min: number; mean: number; max: number };
  readonly meanDamage: number;
  readonly knockOut: number;
  readonly status?: number;
  readonly heal?: number;
  readonly mp?: number;
}

function effectOn(
  state: ShiningForceState,
  user: CombatantState,
  target: CombatantState,
  effect: Effect,
): EffectOutcome {
  let survive = 1;
  let knockOut = 0;
  let damage: EffectOutcome['damage'];
  let meanDamage = 0;
  if (effect.damage !== undefined) {
    const dist: Dist = new Map();
    for (const [v, p] of VARIANCE) add(dist, effectDamage(effect.damage, v), p);
    damage = stats(dist);
    meanDamage = damage.mean;
    knockOut = atLeast(dist, target.hp);
    survive = 1 - knockOut;
  }
  if (effect.defeats !== undefined) {
    const chance = statusOf(state, user, target, { chance: effect.defeats });
    knockOut = unit(knockOut + survive * chance);
    survive *= 1 - chance;
  }
  const status =
    effect.inflicts === undefined
      ? undefined
      : survive * statusOf(state, user, target, effect.inflicts as Infliction);
  return {
    ...(damage === undefined ? {} : { damage }),
    meanDamage,
    knockOut,
    ...(status === undefined ? {} : { status }),
    ...(effect.heal === undefined ? {} : { heal: effect.heal }),
    ...(effect.restoreMp === undefined ? {} : { mp: effect.restoreMp }),
  };
}

function effectOdds(
  state: ShiningForceState,
  actor: CombatantState,
  target: CombatantState,
  effect: Effect,
  what: { verb: string; name: string; cost: string; wear?: string },
): ActionOdds {
  const touched = effectTargets(state, actor, effect, target.cell);
  const main = effectOn(state, actor, target, effect);
  const parts: string[] = [];
  if (main.damage !== undefined) parts.push(range(main.damage));
  if (main.heal !== undefined) parts.push(`heal ${main.heal}`);
  if (main.mp !== undefined) parts.push(`+${main.mp} MP`);
  if (effect.cures.length > 0) parts.push(`cures ${effect.cures.join('/')}`);
  if (effect.defeats !== undefined || main.damage !== undefined)
    parts.push(`KO ${pct(main.knockOut)}`);
  if (main.status !== undefined) parts.push(`${effect.inflicts!.status} ${pct(main.status)}`);
  if (what.wear !== undefined) parts.push(what.wear);
  const lines = [
    `${actor.sheet.name} ${what.verb} ${what.name} at ${target.sheet.name} (${what.cost})`,
  ];
  for (const id of touched.length === 0 ? [target.id] : touched) {
    const c = combatantOf(state, id)!;
    const o = id === target.id ? main : effectOn(state, actor, c, effect);
    const bits: string[] = [];
    if (o.damage !== undefined)
      bits.push(`damage ${range(o.damage)}, mean ${o.damage.mean.toFixed(1)} (no Defence, ±15%)`);
    if (effect.defeats !== undefined || o.damage !== undefined)
      bits.push(`knocked out ${pct(o.knockOut)} (${c.hp} HP)`);
    if (o.heal !== undefined)
      bits.push(`heals ${o.heal} (to ${Math.min(c.sheet.stats.hp, c.hp + o.heal)} HP)`);
    if (o.mp !== undefined) bits.push(`restores ${o.mp} MP`);
    for (const s of effect.cures) if (hasStatus(c, s) !== undefined) bits.push(`cures ${s}`);
    if (o.status !== undefined) bits.push(`${effect.inflicts!.status} ${pct(o.status)} (vs Luck)`);
    lines.push(`  ${c.sheet.name}: ${bits.join('; ') || 'no effect'}`);
  }
  if (what.wear !== undefined) lines.push(`  ${what.wear}`);
  const chance =
    effect.damage !== undefined ||
    effect.heal !== undefined ||
    effect.restoreMp !== undefined ||
    effect.cures.length > 0
      ? 1
      : effect.defeats !== undefined
        ? main.knockOut
        : (main.status ?? 1);
  return {
    summary: parts.join(' · ') || 'no roll',
    lines,
    target: target.id,
    chance,
    ...(main.damage === undefined
      ? main.heal === undefined
        ? {}
        : { damage: { min: main.heal, mean: main.heal, max: main.heal } }
      : { damage: main.damage }),
    meanDamage: main.meanDamage,
    knockOut: main.knockOut,
    ...(main.status === undefined ? {} : { status: main.status }),
    cost: what.cost,
    exact: true,
  };
}

function noRoll(line: string): ActionOdds {
  return { summary: 'no roll', lines: [line], exact: true };
}

/** Odds of a command the legal actions list offers; undefined for moves and the first roll. */
export function odds(
  state: ShiningForceState,
  command: ShiningForceCommand,
): ActionOdds | undefined {
  if (command.type === 'begin-battle' || command.type === 'move') return undefined;
  if (!('actor' in command)) return undefined;
  const actor = combatantOf(state, command.actor);
  if (actor === undefined) return undefined;
  switch (command.type) {
    case 'attack': {
      const target = combatantOf(state, command.target);
      return target === undefined ? undefined : attackOdds(state, actor, target);
    }
    case 'cast': {
      const target = combatantOf(state, command.target);
      const spell = Object.hasOwn(state.setup.spells, command.spell)
        ? state.setup.spells[command.spell]
        : undefined;
      if (target === undefined || spell === undefined) return undefined;
      return effectOdds(state, actor, target, spell, {
        verb: 'casts',
        name: spell.name,
        cost: `${spell.mpCost} MP of ${actor.mp}`,
      });
    }
    case 'use': {
      const target = combatantOf(state, command.target);
      const item = Object.hasOwn(state.setup.items, command.item)
        ? state.setup.items[command.item]
        : undefined;
      if (target === undefined || item?.use === undefined) return undefined;
      const held = actor.items[slotOf(actor, command.item)];
      const wear = item.consumable
        ? 'used up'
        : held?.cracked
          ? 'cracked: breaks after this use'
          : `cracks ${CRACK_MAX}%`;
      return effectOdds(state, actor, target, item.use, {
        verb: 'uses',
        name: item.name,
        cost: item.consumable ? withArticle(item.name) : `${item.name}, kept`,
        wear,
      });
    }
    case 'stay':
      return noRoll(`${actor.sheet.name} stays: no dice; the turn ends`);
    case 'give':
      return noRoll(`${actor.sheet.name} gives an item: no dice; the turn ends`);
    case 'equip':
    case 'unequip':
    case 'drop':
      return noRoll(`${command.type} is free: no dice, and the turn goes on`);
    default:
      return undefined;
  }
}
