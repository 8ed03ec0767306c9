import type { DiceRoller } from '../../engine/index.js';
import { ACTION_DICE, actionCheck, readActionDice, WILLING_DIFFICULTY } from './action-dice.js';
import type { CheckRecord } from './events.js';
import type { Element } from './model.js';
import { pendingName } from './names.js';
import type { FfviiiResolution } from './resolution.js';
import {
  actionValue,
  bestSkill,
  type CombatantState,
  dodgeRating,
  type PendingAttack,
  spiritAgainst,
  standing,
  weaponOf,
} from './state.js';

/** An attack on a target: it may dodge if it has a shot left to pay for it. */
export function declare(out: FfviiiResolution, dice: DiceRoller, pending: PendingAttack): void {
  const target = out.get(pending.target);
  if (target.id !== pending.actor && standing(target) && target.shot >= 1) {
    out.emit({ type: 'attack-declared', pending, action: pendingName(out.state, pending) });
  } else {
    resolvePending(out, dice, pending, false);
  }
}

export function check(
  out: FfviiiResolution,
  dice: DiceRoller,
  purpose: string,
  skill: string,
  av: number,
  difficulty: number,
  against: string,
): CheckRecord {
  // Boxcars are read from the two dice, so a total alone is not enough where several rolls give it.
  const roll = dice.roll(purpose, ACTION_DICE, {}, { readsFaces: true });
  const reading = readActionDice(roll.dice);
  const c = actionCheck(
    av,
    difficulty,
    roll.total,
    reading.boxcars,
    out.state.setup.options.boxcars,
  );
  // Every field written out: a spread here, once per check, was the costliest line of a
  // simulated FFVIII battle.
  return {
    actionValue: c.actionValue,
    difficulty: c.difficulty,
    roll: c.roll,
    result: c.result,
    success: c.success,
    margin: c.margin,
    boxcars: c.boxcars,
    criticalFailure: c.criticalFailure,
    skill,
    against,
    dice: roll,
  };
}

function defence(
  out: FfviiiResolution,
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

/** Damage through armour: Toughness for physical, Spirit (against the element) for magical. */
export function dealDamage(
  out: FfviiiResolution,
  source: string,
  targetId: string,
  rating: number,
  ratingText: string,
  type: 'physical' | 'magical',
  element: Element | undefined,
  margin: number,
  /** False where nothing was rolled to hit (a GM effect): no margin to show. */
  rolled = true,
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
  const breakdown = `${ratingText}${type === 'physical' && rolled ? ` + margin ${bonus}` : ''} - ${armourName} ${armour} = ${amount}`;
  out.emit({ type: 'damage-dealt', source, target: targetId, amount, hpAfter, breakdown });
}

/** Healing, never past the sheet's maximum HP. */
export function heal(
  out: FfviiiResolution,
  source: string,
  targetId: string,
  amount: number,
): void {
  const target = out.get(targetId);
  const hpAfter = Math.min(target.sheet.hp, target.hp + amount);
  out.emit({ type: 'healed', source, target: targetId, amount: hpAfter - target.hp, hpAfter });
}

/** Rolls a declared attack once its target has answered whether it dodges. */
export function resolvePending(
  out: FfviiiResolution,
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
