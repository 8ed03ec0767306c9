/**
 * The odds of every FFVIII action, exact from the dice engine's distribution of the Feng Shui
 * action dice (`fs`). Boxcars (both dice showing six on the first throw) are 1/36 of every
 * total's chance: after two first sixes each die goes on as a fresh exploding d6, so the total
 * of a boxcars roll is distributed as a whole fresh `fs`.
 */
import { diceDistribution } from '../../dice/index.js';
import type { ActionOdds } from '../system.js';
import { ACTION_DICE, WILLING_DIFFICULTY } from './action-dice.js';
import { REGULAR_ACTION_SHOTS } from './clock.js';
import type { FfviiiCommand } from './commands.js';
import { skillName } from './describe.js';
import type { Element } from './model.js';
import { carriedName, pendingName } from './names.js';
import {
  actionValue,
  bestSkill,
  type CombatantState,
  dodgeRating,
  type FfviiiState,
  gunToReload,
  inFight,
  itemUse,
  type PendingAttack,
  spiritAgainst,
  USE_ITEM_SHOTS,
  weaponOf,
} from './state.js';
import { reloadShots, summonShots } from './validate.js';

interface ActionDice {
  /** [total, probability], every total the engine enumerates. */
  readonly outcomes: readonly (readonly [number, number])[];
  /** Probability the engine leaves out by cutting explosions off at its depth limit. */
  readonly truncated: number;
}

let cached: ActionDice | undefined;

/** The exact distribution of `fs`, computed once. */
export function actionDice(): ActionDice {
  if (cached === undefined) {
    const d = diceDistribution(ACTION_DICE);
    cached = { outcomes: d.distribution, truncated: d.truncated };
  }
  return cached;
}

/** One action check, exactly: the margin of each success, and the chance of failing. */
export interface CheckOdds {
  /** [margin (result - difficulty, 0 or more), probability] of each successful total. */
  readonly hits: readonly (readonly [number, number])[];
  readonly success: number;
  /** Boxcars counted as a critical failure (a miss, with whatever the text says follows). */
  readonly criticalFailure: number;
}

export function checkOdds(state: FfviiiState, av: number, difficulty: number): CheckOdds {
  const always = state.setup.options.boxcars === 'always';
  const hits: [number, number][] = [];
  let success = 0;
  let criticalFailure = 0;
  for (const [total, p] of actionDice().outcomes) {
    const margin = av + total - difficulty;
    if (margin >= 0) {
      // Under `always`, boxcars fail whatever they total.
      const q = always ? (p * 35) / 36 : p;
      hits.push([margin, q]);
      success += q;
      if (always) criticalFailure += p / 36;
    } else {
      criticalFailure += p / 36;
    }
  }
  return { hits, success, criticalFailure };
}

/** What a hit does to the target: the HP it loses (or gains) for each margin. */
type Effect =
  | { readonly kind: 'damage'; readonly amount: (margin: number) => number; readonly text: string }
  | { readonly kind: 'heal'; readonly amount: number; readonly text: string }
  | { readonly kind: 'none'; readonly text: string };

/** The odds of one check on one target, with and without the target dodging. */
interface Resolution {
  readonly actor: CombatantState;
  readonly target: CombatantState;
  /** `Martial Arts AV 11 against Dodge 6`. */
  readonly against: string;
  readonly av: number;
  readonly difficulty: number;
  /** The difficulty when the target dodges; undefined where no dodge is possible. */
  readonly dodged?: number;
  readonly effect: Effect;
  /** What a critical failure brings, for the lines. */
  readonly onCritical: string;
}

function pct(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  if (p < 1 && p > 0.995) return '>99%';
  return `${Math.round(p * 100)}%`;
}

function pct1(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

function exactNote(): string {
  const t = actionDice().truncated;
  return `  exact from the distribution of fs (the dice engine cuts explosions off at its depth limit, leaving out ${t.toExponential(1)} of the probability)`;
}

/** Whether the called shot is over once these two combatants are on these shots. */
function shotEnds(state: FfviiiState, next: Readonly<Record<string, number>>): boolean {
  for (const id of state.order) {
    const c = state.combatants[id]!;
    if (!inFight(c)) continue;
    const shot = Object.hasOwn(next, id) ? next[id]! : c.shot;
    if (shot === state.shot) return false;
  }
  return true;
}

/**
 * Damage and knock-out odds of a check that resolves now. The target falls only when the shot
 * is over ("the actions take place simultaniously"), so a knock-out counts only then.
 */
function resolved(
  state: FfviiiState,
  r: Resolution,
  dodging: boolean,
  ends: boolean,
): {
  chance: number;
  criticalFailure: number;
  damage?: { min: number; mean: number; max: number };
  meanDamage: number;
  knockOut: number;
  /** The chance the target is at 0 HP after it, whether or not the shot is over. */
  zeroHp: number;
} {
  const difficulty = dodging && r.dodged !== undefined ? r.dodged : r.difficulty;
  const check = checkOdds(state, r.av, difficulty);
  const hp = r.target.hp;
  if (r.effect.kind === 'none')
    return {
      chance: check.success,
      criticalFailure: check.criticalFailure,
      meanDamage: 0,
      knockOut: ends && hp <= 0 ? 1 : 0,
      zeroHp: hp <= 0 ? 1 : 0,
    };
  if (r.effect.kind === 'heal') {
    const gained = Math.min(r.target.sheet.hp, hp + r.effect.amount) - hp;
    const stillDown = hp <= 0 && gained <= 0 ? 1 : hp <= 0 ? 1 - check.success : 0;
    return {
      chance: check.success,
      criticalFailure: check.criticalFailure,
      damage: { min: gained, mean: gained, max: gained },
      meanDamage: 0,
      knockOut: ends ? stillDown : 0,
      zeroHp: stillDown,
    };
  }
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  let sum = 0;
  let ko = 0;
  for (const [margin, p] of check.hits) {
    const amount = r.effect.amount(margin);
    min = Math.min(min, amount);
    max = Math.max(max, amount);
    sum += amount * p;
    if (amount >= hp) ko += p;
  }
  return {
    chance: check.success,
    criticalFailure: check.criticalFailure,
    ...(check.success > 0
      ? { damage: { min, mean: min === max ? min : sum / check.success, max } }
      : {}),
    meanDamage: sum,
    knockOut: ends ? ko : 0,
    zeroHp: ko,
  };
}

function physical(rating: number, toughness: number, text: string): Effect {
  return {
    kind: 'damage',
    amount: (margin) => Math.max(0, rating + margin - toughness),
    text: `${text} + margin - Toughness ${toughness}`,
  };
}

function magical(
  rating: number,
  target: CombatantState,
  element: Element | undefined,
  text: string,
): Effect {
  const spirit = spiritAgainst(target, element);
  const name =
    element !== undefined && spirit !== target.sheet.attributes.spirit
      ? `Spirit against ${element}`
      : 'Spirit';
  const amount = Math.max(0, rating - spirit);
  return { kind: 'damage', amount: () => amount, text: `${text} - ${name} ${spirit} = ${amount}` };
}

/** The check a pending attack (or one about to be declared) rolls, in the rules' terms. */
function resolutionOf(state: FfviiiState, pending: PendingAttack): Resolution | undefined {
  const actor = state.combatants[pending.actor];
  const target = state.combatants[pending.target];
  if (actor === undefined || target === undefined) return undefined;
  const bonus = state.setup.options.dodgeBonus;
  const dodge = dodgeRating(state, target);
  const evade = target.sheet.attributes.magicEvade;
  switch (pending.type) {
    case 'attack': {
      const weapon = weaponOf(actor, pending.weapon);
      if (weapon === undefined) return undefined;
      const { skill, actionValue: av } = bestSkill(actor.sheet, weapon.skills);
      const strength = weapon.damage.strength ? actor.sheet.attributes.strength : 0;
      const rating = strength + weapon.damage.bonus;
      return {
        actor,
        target,
        against: `${skillName(skill)} AV ${av} against Dodge ${dodge}`,
        av,
        difficulty: dodge,
        dodged: dodge + bonus,
        effect: physical(rating, target.sheet.attributes.toughness, `damage ${rating}`),
        onCritical: 'a miss, and the GM decides what goes wrong',
      };
    }
    case 'cast': {
      const spell = state.setup.spells[pending.spell];
      if (spell === undefined) return undefined;
      const av = actionValue(actor.sheet, 'sorcery');
      const rating = av + spell.power;
      const effect: Effect =
        spell.effect === 'heal'
          ? { kind: 'heal', amount: rating, text: `heals ${rating}` }
          : magical(rating, target, spell.element, `damage ${rating}`);
      return spell.willing
        ? {
            actor,
            target,
            against: `Sorcery AV ${av}, any positive result (a willing target)`,
            av,
            difficulty: WILLING_DIFFICULTY,
            effect,
            onCritical: `${spell.name} fizzles`,
          }
        : {
            actor,
            target,
            against: `Sorcery AV ${av} against Magic Evade ${evade}`,
            av,
            difficulty: evade,
            dodged: evade + bonus,
            effect,
            onCritical:
              spell.effect === 'damage'
                ? `${spell.name} explodes in the caster's face`
                : `${spell.name} fizzles`,
          };
    }
    case 'use-item': {
      const item = state.setup.items[pending.item];
      if (item === undefined) return undefined;
      const av = actionValue(actor.sheet, pending.skill);
      const e = item.effect;
      const effect: Effect =
        e.kind === 'heal'
          ? { kind: 'heal', amount: e.amount, text: `heals ${e.amount}` }
          : e.type === 'physical'
            ? physical(e.rating, target.sheet.attributes.toughness, `damage ${e.rating}`)
            : magical(e.rating, target, e.element, `damage ${e.rating}`);
      return {
        actor,
        target,
        against: `${skillName(pending.skill)} AV ${av} against Dodge ${dodge}`,
        av,
        difficulty: dodge,
        dodged: dodge + bonus,
        effect,
        onCritical: item.dangerous
          ? `${item.name} goes off in the user's hands`
          : `${item.name} is lost`,
      };
    }
    case 'summon': {
      const gf = state.setup.guardianForces[pending.gf];
      if (gf === undefined) return undefined;
      const av = actionValue(actor.sheet, 'sorcery');
      return {
        actor,
        target,
        against: `Sorcery AV ${av} against Magic Evade ${evade}`,
        av,
        difficulty: evade,
        dodged: evade + bonus,
        effect: magical(
          gf.ability.rating,
          target,
          gf.ability.element,
          `${gf.ability.name} ${gf.ability.rating}`,
        ),
        onCritical: `${gf.name} does not answer the call`,
      };
    }
  }
}

function damageText(damage: { min: number; max: number } | undefined): string {
  if (damage === undefined) return '';
  return damage.min === damage.max ? `${damage.min}` : `${damage.min}-${damage.max}`;
}

/**
 * Damage for the one-line summary: a fixed amount as it is; one that grows with the margin
 * (exploding dice, no real maximum) as its mean on a hit.
 */
function damageShort(
  r: Resolution,
  damage: { min: number; mean: number; max: number } | undefined,
): string {
  if (damage === undefined) return '';
  if (r.effect.kind === 'heal') return `+${damage.min} HP`;
  return damage.min === damage.max ? `${damage.min} dmg` : `avg ${damage.mean.toFixed(1)} dmg`;
}

/**
 * An attack about to be declared: resolves now when its target has no shot left to dodge with
 * (or is the actor), otherwise waits on the target's answer, and then the dice roll with it.
 */
function declaredOdds(
  state: FfviiiState,
  pending: PendingAttack,
  actorShotAfter: number,
  cost: string,
): ActionOdds | undefined {
  const r = resolutionOf(state, pending);
  if (r === undefined) return undefined;
  const canDodge = r.target.id !== r.actor.id && r.target.hp > 0 && r.target.shot >= 1;
  const willing = r.dodged === undefined;
  const what = pendingName(state, pending);
  const head = `${r.actor.sheet.name}: ${what} on ${r.target.sheet.name}: ${r.against}`;
  if (!willing && canDodge) {
    const taken = resolved(state, r, false, false);
    const dodged = resolved(state, r, true, false);
    return {
      summary: `hit ${pct(taken.chance)} (${pct(dodged.chance)} if dodged)${taken.damage ? ` · ${damageShort(r, taken.damage)}` : ''}`,
      lines: [
        head,
        `  ${r.target.sheet.name} chooses to dodge or take it first; the dice roll with the answer`,
        `  lands ${pct1(taken.chance)} if taken; ${pct1(dodged.chance)} if dodged (difficulty ${r.dodged}, costs ${r.target.sheet.name} 1 shot)`,
        ...effectLines(r, taken, dodged),
        `  critical failure (boxcars) ${pct1(taken.criticalFailure)}: ${r.onCritical}`,
        `  costs ${cost}`,
        exactNote(),
      ],
      target: r.target.id,
      chance: taken.chance,
      ...(taken.damage ? { damage: taken.damage } : {}),
      // Nothing is rolled until the target answers: this command itself deals nothing.
      meanDamage: 0,
      knockOut: 0,
      cost,
      exact: true,
    };
  }
  const ends = shotEnds(state, { [r.actor.id]: actorShotAfter });
  const now = resolved(state, r, false, ends);
  return oddsNow(
    r,
    now,
    cost,
    head,
    willing ? '' : `  ${r.target.sheet.name} has no shot left to dodge with`,
  );
}

function effectLines(
  r: Resolution,
  taken: ReturnType<typeof resolved>,
  dodged?: ReturnType<typeof resolved>,
): string[] {
  if (r.effect.kind === 'none') return [];
  if (r.effect.kind === 'heal')
    return [
      `  ${r.effect.text}: ${r.target.sheet.name} gains ${taken.damage?.min ?? 0} HP (of ${r.target.sheet.hp})`,
    ];
  const lines = [
    `  ${r.effect.text}: ${damageText(taken.damage) || '0'} on a hit, mean ${(taken.damage?.mean ?? 0).toFixed(1)}; ${r.target.sheet.name} has ${r.target.hp} HP`,
  ];
  lines.push(
    `  ${r.target.sheet.name} brought to 0 HP: ${pct1(taken.zeroHp)}${dodged === undefined ? '' : ` if taken, ${pct1(dodged.zeroHp)} if dodged`}`,
  );
  return lines;
}

function oddsNow(
  r: Resolution,
  now: ReturnType<typeof resolved>,
  cost: string,
  head: string,
  note: string,
): ActionOdds {
  const damage = damageShort(r, now.damage);
  const verb = r.effect.kind === 'heal' ? 'works' : 'hit';
  const parts = [
    `${verb} ${pct(now.chance)}`,
    ...(damage === '' ? [] : [damage]),
    ...(now.knockOut > 0 ? [`KO ${pct(now.knockOut)}`] : []),
  ];
  return {
    summary: parts.join(' · '),
    lines: [
      head,
      ...(note === '' ? [] : [note]),
      `  succeeds ${pct1(now.chance)}`,
      ...effectLines(r, now),
      `  out of the fight once the shot is over: ${pct1(now.knockOut)}`,
      `  critical failure (boxcars) ${pct1(now.criticalFailure)}: ${r.onCritical}`,
      `  costs ${cost}`,
      exactNote(),
    ],
    target: r.target.id,
    chance: now.chance,
    ...(now.damage ? { damage: now.damage } : {}),
    meanDamage: now.meanDamage,
    knockOut: now.knockOut,
    cost,
    exact: true,
  };
}

/**
 * The odds of an action the legal actions list offers; undefined for what has no chance in it
 * (beginning a round, a power, waiting, passing, fleeing, the GM's commands).
 */
export function ffviiiOdds(state: FfviiiState, command: FfviiiCommand): ActionOdds | undefined {
  switch (command.type) {
    case 'attack': {
      const actor = state.combatants[command.actor];
      const weapon = actor === undefined ? undefined : weaponOf(actor, command.weapon);
      if (actor === undefined || weapon === undefined) return undefined;
      const pending: PendingAttack = {
        type: 'attack',
        actor: actor.id,
        target: command.target,
        shots: weapon.shots,
        weapon: weapon.id,
      };
      if (weapon.shots > REGULAR_ACTION_SHOTS && weapon.shots > actor.shot)
        return carried(state, pending, weapon.shots);
      return declaredOdds(
        state,
        pending,
        Math.max(0, actor.shot - weapon.shots),
        `${weapon.shots} shots`,
      );
    }
    case 'cast': {
      const actor = state.combatants[command.actor];
      if (actor === undefined) return undefined;
      const pending: PendingAttack = {
        type: 'cast',
        actor: actor.id,
        target: command.target,
        shots: 4,
        spell: command.spell,
      };
      const odds = declaredOdds(
        state,
        pending,
        Math.max(0, actor.shot - REGULAR_ACTION_SHOTS),
        `4 shots, 1 ${state.setup.spells[command.spell]?.name ?? command.spell}`,
      );
      return odds;
    }
    case 'use-item': {
      const actor = state.combatants[command.actor];
      const item = state.setup.items[command.item];
      if (actor === undefined || item === undefined) return undefined;
      const pending = itemUse(actor, command);
      const cost = `${USE_ITEM_SHOTS} shots, 1 ${item.name}`;
      if (!item.willing)
        return declaredOdds(state, pending, Math.max(0, actor.shot - USE_ITEM_SHOTS), cost);
      return automaticItem(state, pending, actor, cost);
    }
    case 'summon': {
      const actor = state.combatants[command.actor];
      if (actor === undefined) return undefined;
      const shots = summonShots(state, actor, command.gf);
      const pending: PendingAttack = {
        type: 'summon',
        actor: actor.id,
        target: command.target,
        shots,
        gf: command.gf,
        carried: false,
      };
      const link = actor.sheet.guardianForces.find((g) => g.gf === command.gf);
      const gf = state.setup.guardianForces[command.gf];
      const cost = `${shots} shots (${gf?.summonShots ?? 0} to summon - compatibility ${link?.compatibility ?? 0}, + ${gf?.ability.shots ?? 0} for ${gf?.ability.name ?? 'its ability'})`;
      if (shots > REGULAR_ACTION_SHOTS && shots > actor.shot) return carried(state, pending, shots);
      return declaredOdds(state, pending, Math.max(0, actor.shot - shots), cost);
    }
    case 'complete': {
      const actor = state.combatants[command.actor];
      const carrying = actor?.carrying;
      if (actor === undefined || carrying === undefined || carrying === null) return undefined;
      if (carrying.type === 'reload')
        return certain(
          `${actor.sheet.name} completes ${carriedName(state, actor, carrying)}`,
          'no shots this round (paid as debt)',
        );
      const target = command.target ?? carrying.target;
      const pending: PendingAttack =
        carrying.type === 'attack'
          ? { type: 'attack', actor: actor.id, target, shots: 0, weapon: carrying.weapon }
          : { type: 'summon', actor: actor.id, target, shots: 0, gf: carrying.gf, carried: true };
      // Completing takes no shots of this round: the actor still acts on this shot after it.
      return declaredOdds(state, pending, actor.shot, 'no shots this round (paid as debt)');
    }
    case 'dodge':
    case 'take-it':
      return answerOdds(state, command.type === 'dodge');
    case 'draw': {
      const actor = state.combatants[command.actor];
      const target = state.combatants[command.target];
      if (actor === undefined || target === undefined) return undefined;
      const { spirit, magicEvade } = target.sheet.attributes;
      const difficulty = Math.max(spirit, magicEvade);
      const av = actionValue(actor.sheet, 'sorcery');
      const check = checkOdds(state, av, difficulty);
      const spell = state.setup.spells[command.spell]?.name ?? command.spell;
      return checkOnly(state, actor, target, check, {
        summary: `draw ${pct(check.success)}`,
        head: `${actor.sheet.name} draws ${spell} from ${target.sheet.name}: Sorcery AV ${av} against the higher of Spirit ${spirit} and Magic Evade ${magicEvade}`,
        success: `draws ${state.setup.options.shardsPerDraw} ${spell}`,
        critical: `${actor.sheet.name} can never draw from ${target.sheet.name} again`,
        cost: '4 shots',
        shotAfter: Math.max(0, actor.shot - REGULAR_ACTION_SHOTS),
      });
    }
    case 'sense': {
      const actor = state.combatants[command.actor];
      const target = state.combatants[command.target];
      if (actor === undefined || target === undefined) return undefined;
      const evade = target.sheet.attributes.magicEvade;
      const av = actionValue(actor.sheet, 'awareness');
      const check = checkOdds(state, av, evade);
      return checkOnly(state, actor, target, check, {
        summary: `sense ${pct(check.success)}`,
        head: `${actor.sheet.name} senses ${target.sheet.name}'s Spellshards: Awareness AV ${av} against Magic Evade ${evade}`,
        success: 'names every Spellshard it holds',
        critical: `no sensing ${target.sheet.name} for a full moon cycle`,
        cost: '2 shots',
        shotAfter: Math.max(0, actor.shot - 2),
      });
    }
    case 'reload': {
      const actor = state.combatants[command.actor];
      const weapon = actor === undefined ? undefined : gunToReload(actor, command.weapon);
      if (actor === undefined || weapon?.gun === undefined) return undefined;
      const shots = reloadShots(weapon.gun.kind);
      const carries = shots > REGULAR_ACTION_SHOTS && shots > actor.shot;
      return certain(
        `${actor.sheet.name} reloads ${weapon.name} to ${weapon.gun.capacity} rounds${carries ? `: ${shots - actor.shot} shots carry over as debt, and it completes next round` : ''}`,
        `${shots} shots`,
      );
    }
    default:
      return undefined;
  }
}

/** An action with no dice: it happens. */
function certain(line: string, cost: string): ActionOdds {
  return {
    summary: `no roll · ${cost}`,
    lines: [line, '  no roll: it happens', `  costs ${cost}`],
    chance: 1,
    cost,
    exact: true,
  };
}

/** A longer action without the shots for it: it starts now and lands next round. */
function carried(state: FfviiiState, pending: PendingAttack, shots: number): ActionOdds {
  const actor = state.combatants[pending.actor]!;
  const debt = shots - actor.shot;
  const cost = `${shots} shots, ${debt} of them as debt`;
  return {
    summary: `carries over · ${debt} shots debt`,
    lines: [
      `${actor.sheet.name}: ${pendingName(state, pending)}: ${shots} shots with ${actor.shot} left`,
      `  starts now and completes next round; ${debt} shots of debt come off the next initiative`,
      '  nothing is rolled now: the odds are those of completing it then',
      `  costs ${cost}`,
    ],
    target: pending.target,
    meanDamage: 0,
    knockOut: 0,
    cost,
    exact: true,
  };
}

/** A Potion or other "normal" item on a willing target: "used automaticaly". */
function automaticItem(
  state: FfviiiState,
  pending: Extract<PendingAttack, { type: 'use-item' }>,
  actor: CombatantState,
  cost: string,
): ActionOdds | undefined {
  const item = state.setup.items[pending.item]!;
  const target = state.combatants[pending.target];
  if (target === undefined) return undefined;
  const ends = shotEnds(state, { [actor.id]: Math.max(0, actor.shot - 3) });
  const e = item.effect;
  const head = `${actor.sheet.name} uses ${item.name} on ${target.sheet.name}: no roll for a willing target`;
  if (e.kind === 'heal') {
    const gained = Math.min(target.sheet.hp, target.hp + e.amount) - target.hp;
    const down = target.hp <= 0 && gained <= 0 && ends ? 1 : 0;
    return {
      summary: `no roll · +${gained} HP`,
      lines: [
        head,
        `  heals ${e.amount}: ${target.sheet.name} gains ${gained} HP (${target.hp} of ${target.sheet.hp})`,
        `  costs ${cost}`,
      ],
      target: target.id,
      chance: 1,
      damage: { min: gained, mean: gained, max: gained },
      meanDamage: 0,
      knockOut: down,
      cost,
      exact: true,
    };
  }
  const armour =
    e.type === 'physical' ? target.sheet.attributes.toughness : spiritAgainst(target, e.element);
  const amount = Math.max(0, e.rating - armour);
  const ko = amount >= target.hp && ends ? 1 : 0;
  return {
    summary: `no roll · ${amount} dmg${ko ? ' · KO' : ''}`,
    lines: [
      head,
      `  damage ${e.rating} - ${e.type === 'physical' ? 'Toughness' : 'Spirit'} ${armour} = ${amount}`,
      `  costs ${cost}`,
    ],
    target: target.id,
    chance: 1,
    damage: { min: amount, mean: amount, max: amount },
    meanDamage: amount,
    knockOut: ko,
    cost,
    exact: true,
  };
}

/** A check with no damage in it (Draw, Sense): its chance and its critical failure. */
function checkOnly(
  state: FfviiiState,
  actor: CombatantState,
  target: CombatantState,
  check: CheckOdds,
  text: {
    summary: string;
    head: string;
    success: string;
    critical: string;
    cost: string;
    shotAfter: number;
  },
): ActionOdds {
  const ends = shotEnds(state, { [actor.id]: text.shotAfter });
  return {
    summary: `${text.summary} · crit ${pct(check.criticalFailure)}`,
    lines: [
      text.head,
      `  succeeds ${pct1(check.success)}: ${text.success}`,
      `  critical failure (boxcars) ${pct1(check.criticalFailure)}: ${text.critical}`,
      `  costs ${text.cost}`,
      exactNote(),
    ],
    target: target.id,
    chance: check.success,
    meanDamage: 0,
    knockOut: ends && target.hp <= 0 ? 1 : 0,
    cost: text.cost,
    exact: true,
  };
}

/**
 * The target's answer to a declared attack: the chance it lands either way, and what the dodge
 * costs ("they subtract 1 from the next shot they would have been able to act on").
 */
function answerOdds(state: FfviiiState, dodge: boolean): ActionOdds | undefined {
  const pending = state.pending;
  if (state.phase !== 'dodge' || pending === null) return undefined;
  const r = resolutionOf(state, pending);
  if (r === undefined) return undefined;
  const shotAfter = dodge ? Math.max(0, r.target.shot - 1) : r.target.shot;
  const ends = shotEnds(state, { [r.target.id]: shotAfter });
  const mine = resolved(state, r, dodge, ends);
  const other = resolved(
    state,
    r,
    !dodge,
    shotEnds(state, { [r.target.id]: dodge ? r.target.shot : Math.max(0, r.target.shot - 1) }),
  );
  const what = pendingName(state, pending);
  const cost = dodge
    ? `1 shot: ${r.target.sheet.name} acts next on ${shotAfter === 0 ? 'no shot this round' : `shot ${shotAfter}`}`
    : 'nothing';
  const damage = damageShort(r, mine.damage);
  const parts = [
    `lands ${pct(mine.chance)}`,
    ...(damage === '' ? [] : [damage]),
    ...(dodge ? ['-1 shot'] : mine.knockOut > 0 ? [`KO ${pct(mine.knockOut)}`] : []),
  ];
  return {
    summary: parts.join(' · '),
    lines: [
      `${r.target.sheet.name} ${dodge ? 'dodges' : 'takes'} ${r.actor.sheet.name}'s ${what}: ${r.against}`,
      `  lands ${pct1(mine.chance)} ${dodge ? 'dodging' : 'taken'} (difficulty ${dodge ? r.dodged : r.difficulty}); ${pct1(other.chance)} ${dodge ? 'taken' : 'dodging'}`,
      ...effectLines(r, mine),
      `  out of the fight once the shot is over: ${pct1(mine.knockOut)}`,
      `  costs ${cost}`,
      exactNote(),
    ],
    target: r.target.id,
    chance: mine.chance,
    ...(mine.damage ? { damage: mine.damage } : {}),
    meanDamage: mine.meanDamage,
    knockOut: mine.knockOut,
    cost,
    exact: true,
  };
}
