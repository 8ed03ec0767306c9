import {
  type DiceRoller,
  decideByResolving,
  err,
  ok,
  Resolution,
  type Resolved,
  type Result,
} from '../../engine/index.js';
import { ACTION_DICE, actionCheck, readActionDice, WILLING_DIFFICULTY } from './action-dice.js';
import type { FfviiiCommand } from './commands.js';
import type { CheckRecord, FfviiiEvent, InitiativeRoll } from './events.js';
import { evolve } from './evolve.js';
import type { Element } from './model.js';
import {
  actionValue,
  bestSkill,
  type CarriedAction,
  type CombatantState,
  dodgeRating,
  type FfviiiState,
  inFight,
  type PendingAttack,
  spiritAgainst,
  standing,
} from './state.js';
import { reloadShots, summonShots, validate } from './validate.js';

/** "Normal combat actions ... take 4 shots": the longest action that never carries over. */
export const REGULAR_ACTION_SHOTS = 4;
export const INITIATIVE_DIE = '1d10';

/** The engine's Resolution, with combatants looked up by id. */
class Emitter extends Resolution<FfviiiState, FfviiiEvent> {
  constructor(state: FfviiiState, dice: DiceRoller) {
    super(state, dice, evolve);
  }
  get(id: string): CombatantState {
    return this.state.combatants[id]!;
  }
}

export const decide = decideByResolving(resolve);

/** decide, and the state its events lead to. */
export function resolve(
  state: FfviiiState,
  command: FfviiiCommand,
  dice: DiceRoller,
): Result<Resolved<FfviiiState, FfviiiEvent>> {
  const refused = validate(state, command);
  if (refused !== undefined) return err(refused.code, refused.message);
  const out = new Emitter(state, dice);
  switch (command.type) {
    case 'begin-round':
      beginRound(out, dice);
      break;
    case 'use-power':
      out.emit({ type: 'power-used', actor: command.actor, power: command.power });
      return ok(out.resolved());
    case 'attack': {
      const actor = out.get(command.actor);
      const weapon = weaponOf(actor, command.weapon)!;
      // A weapon slower than a regular action can carry over like any longer action.
      const carry = { type: 'attack', weapon: weapon.id, target: command.target } as const;
      if (spend(out, actor, weapon.shots, `Attack with ${weapon.name}`, command.target, carry))
        declare(out, dice, {
          type: 'attack',
          actor: actor.id,
          target: command.target,
          shots: weapon.shots,
          weapon: weapon.id,
        });
      break;
    }
    case 'cast': {
      const actor = out.get(command.actor);
      const spell = state.setup.spells[command.spell]!;
      spend(out, actor, REGULAR_ACTION_SHOTS, `Cast ${spell.name}`, command.target, null);
      const pending: PendingAttack = {
        type: 'cast',
        actor: actor.id,
        target: command.target,
        shots: REGULAR_ACTION_SHOTS,
        spell: command.spell,
      };
      if (spell.willing) resolvePending(out, dice, pending, false);
      else declare(out, dice, pending);
      break;
    }
    case 'draw':
      spend(out, out.get(command.actor), REGULAR_ACTION_SHOTS, 'Draw', command.target, null);
      resolveDraw(out, dice, command.actor, command.target, command.spell);
      break;
    case 'sense':
      spend(out, out.get(command.actor), 2, 'Sense Spellshards', command.target, null);
      resolveSense(out, dice, command.actor, command.target);
      break;
    case 'reload': {
      const actor = out.get(command.actor);
      const weapon = gunToReload(actor, command.weapon)!;
      const shots = reloadShots(weapon.gun!.kind);
      if (
        spend(out, actor, shots, `Reload ${weapon.name}`, null, {
          type: 'reload',
          weapon: weapon.id,
        })
      )
        out.emit({
          type: 'reloaded',
          actor: actor.id,
          weapon: weapon.id,
          ammo: weapon.gun!.capacity,
        });
      break;
    }
    case 'use-item': {
      const actor = out.get(command.actor);
      const item = state.setup.items[command.item]!;
      spend(out, actor, 3, `Use ${item.name}`, command.target, null);
      const skill =
        command.skill ?? bestSkill(actor.sheet, ['guns', 'weapon-focus', 'martial-arts']).skill;
      const pending: PendingAttack = {
        type: 'use-item',
        actor: actor.id,
        target: command.target,
        shots: 3,
        item: command.item,
        skill,
      };
      if (item.willing) resolvePending(out, dice, pending, false);
      else declare(out, dice, pending);
      break;
    }
    case 'summon': {
      const actor = out.get(command.actor);
      const gf = state.setup.guardianForces[command.gf]!;
      const shots = summonShots(state, actor, command.gf);
      const now = spend(out, actor, shots, `Summon ${gf.name}`, command.target, {
        type: 'summon',
        gf: command.gf,
        target: command.target,
      });
      if (now)
        declare(out, dice, {
          type: 'summon',
          actor: actor.id,
          target: command.target,
          shots,
          gf: command.gf,
          carried: false,
        });
      break;
    }
    case 'complete': {
      const actor = out.get(command.actor);
      const carried = actor.carrying!;
      out.emit({
        type: 'action-completed',
        actor: actor.id,
        action: carriedName(state, actor, carried),
      });
      if (carried.type === 'summon') {
        const target = command.target ?? carried.target;
        declare(out, dice, {
          type: 'summon',
          actor: actor.id,
          target,
          shots: 0,
          gf: carried.gf,
          carried: true,
        });
      } else if (carried.type === 'attack') {
        declare(out, dice, {
          type: 'attack',
          actor: actor.id,
          target: command.target ?? carried.target,
          shots: 0,
          weapon: carried.weapon,
        });
      } else {
        const weapon = weaponOf(actor, carried.weapon);
        if (weapon?.gun !== undefined)
          out.emit({
            type: 'reloaded',
            actor: actor.id,
            weapon: weapon.id,
            ammo: weapon.gun.capacity,
          });
      }
      break;
    }
    case 'wait':
      spend(out, out.get(command.actor), command.shots, 'Wait', null, null);
      break;
    case 'pass': {
      const actor = out.get(command.actor);
      spend(out, actor, actor.shot, 'Pass', null, null);
      break;
    }
    case 'dodge':
    case 'take-it': {
      const pending = state.pending!;
      const target = out.get(pending.target);
      const dodge = command.type === 'dodge';
      out.emit({
        type: 'dodge-chosen',
        actor: target.id,
        dodge,
        shot: dodge ? Math.max(0, target.shot - 1) : target.shot,
      });
      resolvePending(out, dice, pending, dodge);
      break;
    }
    case 'flee':
      out.emit({ type: 'fled', actor: command.actor });
      break;
    case 'gm-adjust':
      out.emit({
        type: 'gm-adjusted',
        target: command.target,
        // HP never above the sheet's (a heal would otherwise take the excess away again).
        ...(command.hp === undefined
          ? {}
          : { hp: Math.min(command.hp, out.get(command.target).sheet.hp) }),
        ...(command.shot === undefined ? {} : { shot: command.shot }),
        ...(command.debt === undefined ? {} : { debt: command.debt }),
      });
      break;
  }
  settle(out);
  return ok(out.resolved());
}

/**
 * Initiative: "each player rolls a 10 sided dice and adds the resultant number to their Speed
 * stat. The initiative dice does not explode", less shot debt carried over ("he rolls ... a 13.
 * However, he's 6 shots in debt from the last round, and so he has to reduce his initiative to
 * 7"). The highest sets the round's number of shots.
 */
function beginRound(out: Emitter, dice: DiceRoller): void {
  const initiative: InitiativeRoll[] = [];
  for (const id of out.state.order) {
    const c = out.get(id);
    if (!inFight(c)) continue;
    const roll = dice.roll(`initiative:${id}`, INITIATIVE_DIE);
    const speed = c.sheet.attributes.speed;
    const total = roll.total + speed + c.initiativeBonus - c.debt;
    initiative.push({
      id,
      roll,
      speed,
      bonus: c.initiativeBonus,
      debt: c.debt,
      initiative: total,
      debtLeft: Math.max(0, -total),
    });
  }
  const shots = initiative.reduce((most, r) => Math.max(most, r.initiative), 0);
  out.emit({ type: 'round-began', round: out.state.round + 1, initiative, shots });
}

/**
 * Pays an action's shots. "If the action is a regular 4 Shot combat action, or shorter, the
 * character can take the action normally, and ignore the lack of extra shots"; a longer one
 * without the shots for it starts now and carries the missing shots into the next round as
 * debt. Returns whether the action happens now (false: it was carried over).
 */
function spend(
  out: Emitter,
  actor: CombatantState,
  cost: number,
  action: string,
  target: string | null,
  carry: CarriedAction | null,
): boolean {
  const carries = cost > REGULAR_ACTION_SHOTS && cost > actor.shot && carry !== null;
  out.emit({
    type: 'action-taken',
    actor: actor.id,
    action,
    target,
    cost,
    shot: Math.max(0, actor.shot - cost),
    debt: carries ? cost - actor.shot : 0,
    carrying: carries ? carry : null,
  });
  return !carries;
}

/** An attack on a target: it may dodge if it has a shot left to pay for it. */
function declare(out: Emitter, dice: DiceRoller, pending: PendingAttack): void {
  const target = out.get(pending.target);
  if (target.id !== pending.actor && standing(target) && target.shot >= 1) {
    out.emit({ type: 'attack-declared', pending, action: pendingName(out.state, pending) });
  } else {
    resolvePending(out, dice, pending, false);
  }
}

function check(
  out: Emitter,
  dice: DiceRoller,
  purpose: string,
  skill: string,
  av: number,
  difficulty: number,
  against: string,
): CheckRecord {
  const roll = dice.roll(purpose, ACTION_DICE);
  const reading = readActionDice(roll.dice);
  return {
    ...actionCheck(av, difficulty, roll.total, reading.boxcars, out.state.setup.options.boxcars),
    skill,
    against,
    dice: roll,
  };
}

function defence(
  out: Emitter,
  target: CombatantState,
  kind: 'dodge' | 'magic-evade',
  dodging: boolean,
): { value: number; text: string } {
  const bonus = dodging ? out.state.setup.options.dodgeBonus : 0;
  const base =
    kind === 'dodge' ? dodgeRating(out.state, target) : target.sheet.attributes.magicEvade;
  const name = kind === 'dodge' ? 'Dodge' : 'Magic Evade';
  return {
    value: base + bonus,
    text: dodging ? `${name} ${base} + ${bonus} (dodging)` : `${name} ${base}`,
  };
}

function dealDamage(
  out: Emitter,
  source: string,
  targetId: string,
  rating: number,
  ratingText: string,
  type: 'physical' | 'magical',
  element: Element | undefined,
  margin: number,
): void {
  const target = out.get(targetId);
  // "Physical damage is reduced by the target's Toughness, magical damage is reduced by the
  // target's Spirit"; "Accuracy counts, but only on physical attacks."
  const armour =
    type === 'physical' ? target.sheet.attributes.toughness : spiritAgainst(target, element);
  const armourName =
    type === 'physical'
      ? 'Toughness'
      : element !== undefined && armour !== target.sheet.attributes.spirit
        ? `Spirit against ${element}`
        : 'Spirit';
  const bonus = type === 'physical' ? Math.max(0, margin) : 0;
  const amount = Math.max(0, rating + bonus - armour);
  const hpAfter = Math.max(0, target.hp - amount);
  const breakdown = `${ratingText}${type === 'physical' ? ` + margin ${bonus}` : ''} - ${armourName} ${armour} = ${amount}`;
  out.emit({ type: 'damage-dealt', source, target: targetId, amount, hpAfter, breakdown });
}

function heal(out: Emitter, source: string, targetId: string, amount: number): void {
  const target = out.get(targetId);
  const hpAfter = Math.min(target.sheet.hp, target.hp + amount);
  out.emit({ type: 'healed', source, target: targetId, amount: hpAfter - target.hp, hpAfter });
}

/** Rolls a declared attack once its target has answered whether it dodges. */
function resolvePending(
  out: Emitter,
  dice: DiceRoller,
  pending: PendingAttack,
  dodging: boolean,
): void {
  const actor = out.get(pending.actor);
  const target = out.get(pending.target);
  const setup = out.state.setup;
  switch (pending.type) {
    case 'attack': {
      const weapon = weaponOf(actor, pending.weapon)!;
      if (weapon.gun !== undefined)
        out.emit({
          type: 'round-fired',
          actor: actor.id,
          weapon: weapon.id,
          left: Math.max(0, (actor.ammo[weapon.id] ?? 0) - 1),
        });
      const { skill, actionValue: av } = bestSkill(actor.sheet, weapon.skills);
      const against = defence(out, target, 'dodge', dodging);
      const result = check(
        out,
        dice,
        `attack:${target.id}`,
        skill,
        av,
        against.value,
        against.text,
      );
      out.emit({ type: 'check-rolled', actor: actor.id, target: target.id, check: result });
      if (result.success) {
        const strength = weapon.damage.strength ? actor.sheet.attributes.strength : 0;
        const rating = strength + weapon.damage.bonus;
        const text = weapon.damage.strength
          ? `Strength ${strength} + ${weapon.damage.bonus}`
          : `${rating}`;
        dealDamage(out, actor.id, target.id, rating, text, 'physical', undefined, result.margin);
      } else if (result.criticalFailure) {
        out.emit({
          type: 'critical-failure',
          actor: actor.id,
          target: target.id,
          consequence:
            'the attack misses; the text suggests hitting a friend, dropping the weapon or breaking a crucial bit of equipment: the GM decides',
        });
      }
      return;
    }
    case 'cast': {
      const spell = setup.spells[pending.spell]!;
      out.emit({
        type: 'spell-spent',
        actor: actor.id,
        spell: pending.spell,
        left: Math.max(0, (actor.matrix[pending.spell] ?? 0) - 1),
      });
      const av = actionValue(actor.sheet, 'sorcery');
      const against = spell.willing
        ? { value: WILLING_DIFFICULTY, text: 'a willing target' }
        : defence(out, target, 'magic-evade', dodging);
      const result = check(
        out,
        dice,
        `cast:${target.id}`,
        'sorcery',
        av,
        against.value,
        against.text,
      );
      out.emit({ type: 'check-rolled', actor: actor.id, target: target.id, check: result });
      const rating = av + spell.power;
      const text = `Sorcery ${av} + ${spell.power}`;
      if (result.success) {
        if (spell.effect === 'heal') heal(out, actor.id, target.id, rating);
        else dealDamage(out, actor.id, target.id, rating, text, 'magical', spell.element, 0);
      } else if (result.criticalFailure) {
        // "Critical failures usualy explode in the caster's face in a particularly unpleasant way."
        out.emit({
          type: 'critical-failure',
          actor: actor.id,
          target: target.id,
          consequence:
            spell.effect === 'damage'
              ? `${spell.name} explodes in the caster's face`
              : `${spell.name} fizzles unpleasantly`,
        });
        if (spell.effect === 'damage')
          dealDamage(out, actor.id, actor.id, rating, text, 'magical', spell.element, 0);
      }
      return;
    }
    case 'use-item': {
      const item = setup.items[pending.item]!;
      out.emit({
        type: 'item-spent',
        actor: actor.id,
        item: pending.item,
        left: Math.max(0, (actor.items[pending.item] ?? 0) - 1),
      });
      const apply = (on: string, margin: number): void => {
        if (item.effect.kind === 'heal') heal(out, actor.id, on, item.effect.amount);
        else
          dealDamage(
            out,
            actor.id,
            on,
            item.effect.rating,
            `${item.name} ${item.effect.rating}`,
            item.effect.type,
            item.effect.element,
            margin,
          );
      };
      // "Potions and other 'normal' items can be used automaticaly."
      if (item.willing) {
        apply(target.id, 0);
        return;
      }
      const av = actionValue(actor.sheet, pending.skill);
      const against = defence(out, target, 'dodge', dodging);
      const result = check(
        out,
        dice,
        `item:${target.id}`,
        pending.skill,
        av,
        against.value,
        against.text,
      );
      out.emit({ type: 'check-rolled', actor: actor.id, target: target.id, check: result });
      if (result.success) apply(target.id, result.margin);
      else if (result.criticalFailure && item.dangerous) {
        out.emit({
          type: 'critical-failure',
          actor: actor.id,
          target: target.id,
          consequence: `${item.name} goes off in the user's hands`,
        });
        apply(actor.id, 0);
      }
      // Otherwise "On a failure, or critical failure, the item is usualy just lost."
      return;
    }
    case 'summon': {
      const gf = setup.guardianForces[pending.gf]!;
      const av = actionValue(actor.sheet, 'sorcery');
      const against = defence(out, target, 'magic-evade', dodging);
      const result = check(
        out,
        dice,
        `summon:${target.id}`,
        'sorcery',
        av,
        against.value,
        against.text,
      );
      out.emit({ type: 'check-rolled', actor: actor.id, target: target.id, check: result });
      if (result.success)
        dealDamage(
          out,
          actor.id,
          target.id,
          gf.ability.rating,
          `${gf.ability.name} ${gf.ability.rating}`,
          'magical',
          gf.ability.element,
          0,
        );
      else if (result.criticalFailure)
        out.emit({
          type: 'critical-failure',
          actor: actor.id,
          target: target.id,
          consequence: `${gf.name} does not answer the call`,
        });
      return;
    }
  }
}

/**
 * Draw Spellshards: "the final result must equal or exceed the target's Spirit or Magic Evade,
 * whichever is higher ... Critical failures prevent the character from ever drawing from that
 * particular monster again."
 */
function resolveDraw(
  out: Emitter,
  dice: DiceRoller,
  actorId: string,
  targetId: string,
  spell: string,
): void {
  const actor = out.get(actorId);
  const target = out.get(targetId);
  const { spirit, magicEvade } = target.sheet.attributes;
  const higher = spirit >= magicEvade ? `Spirit ${spirit}` : `Magic Evade ${magicEvade}`;
  const av = actionValue(actor.sheet, 'sorcery');
  const result = check(
    out,
    dice,
    `draw:${targetId}`,
    'sorcery',
    av,
    Math.max(spirit, magicEvade),
    higher,
  );
  out.emit({ type: 'check-rolled', actor: actorId, target: targetId, check: result });
  if (result.success) {
    const stock = Math.min(100, (actor.matrix[spell] ?? 0) + out.state.setup.options.shardsPerDraw);
    out.emit({ type: 'shard-drawn', actor: actorId, target: targetId, spell, stock });
  } else if (result.criticalFailure) {
    out.emit({ type: 'draw-barred', actor: actorId, target: targetId });
  }
}

/**
 * Sense Spellshards: Awareness against Magic Evade; success names every draw-capable shard; a
 * critical failure bars sensing that monster "for a full moon cycle" (longer than any fight).
 */
function resolveSense(out: Emitter, dice: DiceRoller, actorId: string, targetId: string): void {
  const actor = out.get(actorId);
  const target = out.get(targetId);
  const av = actionValue(actor.sheet, 'awareness');
  const difficulty = target.sheet.attributes.magicEvade;
  const result = check(
    out,
    dice,
    `sense:${targetId}`,
    'awareness',
    av,
    difficulty,
    `Magic Evade ${difficulty}`,
  );
  out.emit({ type: 'check-rolled', actor: actorId, target: targetId, check: result });
  if (result.success)
    out.emit({
      type: 'shards-sensed',
      actor: actorId,
      target: targetId,
      spells: target.sheet.spellshards,
    });
  else if (result.criticalFailure)
    out.emit({ type: 'sense-barred', actor: actorId, target: targetId });
}

/**
 * After each command: while someone still acts on the called shot, wait for them ("Because the
 * characters are acting on the same shot, the actions take place simultaniously": one brought
 * to 0 HP still takes its action on that shot). When the shot is done, the fallen fall, the
 * battle may end, and the GM calls the next shot anyone acts on, or the round ends ("There is
 * no Shot 0").
 */
function settle(out: Emitter): void {
  if (out.state.phase === 'dodge' || out.state.phase === 'ended') return;
  const called = out.state.shot;
  if (called > 0) {
    for (const id of out.state.order) {
      const c = out.get(id);
      if (inFight(c) && c.shot === called) return;
    }
  }
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c) && c.hp <= 0) out.emit({ type: 'fell', target: id });
  }
  const standingSides = new Set<string>();
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c)) standingSides.add(c.side);
  }
  if (standingSides.size <= 1) {
    const winner = standingSides.size === 1 ? [...standingSides][0]! : null;
    const name = out.state.setup.sides.find((s) => s.id === winner)?.name;
    out.emit({
      type: 'battle-ended',
      winner,
      reason: winner === null ? 'nobody is left standing' : `${name} stand alone`,
    });
    return;
  }
  if (out.state.phase !== 'shots') return;
  let next = 0;
  for (const id of out.state.order) {
    const c = out.get(id);
    if (inFight(c) && c.shot > next && (called === 0 || c.shot < called)) next = c.shot;
  }
  if (next > 0) out.emit({ type: 'shot-called', shot: next });
  else out.emit({ type: 'round-ended', round: out.state.round });
}

export function weaponOf(
  c: CombatantState,
  id: string | undefined,
): CombatantState['sheet']['weapons'][number] | undefined {
  return id === undefined ? c.sheet.weapons[0] : c.sheet.weapons.find((w) => w.id === id);
}

export function gunToReload(
  c: CombatantState,
  id: string | undefined,
): CombatantState['sheet']['weapons'][number] | undefined {
  if (id !== undefined) return c.sheet.weapons.find((w) => w.id === id && w.gun !== undefined);
  return c.sheet.weapons.find((w) => w.gun !== undefined && (c.ammo[w.id] ?? 0) < w.gun.capacity);
}

export function carriedName(
  state: FfviiiState,
  actor: CombatantState,
  carried: CarriedAction,
): string {
  if (carried.type === 'summon')
    return `Summon ${state.setup.guardianForces[carried.gf]?.name ?? carried.gf}`;
  const weapon = weaponOf(actor, carried.weapon)?.name ?? carried.weapon;
  return carried.type === 'reload' ? `Reload ${weapon}` : `Attack with ${weapon}`;
}

export function pendingName(state: FfviiiState, pending: PendingAttack): string {
  switch (pending.type) {
    case 'attack': {
      const weapon = weaponOf(state.combatants[pending.actor]!, pending.weapon);
      return `Attack with ${weapon?.name ?? pending.weapon}`;
    }
    case 'cast':
      return `Cast ${state.setup.spells[pending.spell]?.name ?? pending.spell}`;
    case 'use-item':
      return `Use ${state.setup.items[pending.item]?.name ?? pending.item}`;
    case 'summon':
      return `${state.setup.guardianForces[pending.gf]?.ability.name ?? pending.gf}`;
  }
}
