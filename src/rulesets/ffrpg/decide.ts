import {
  combatantById,
  type DiceRoller,
  decideByResolving,
  type Resolved as EngineResolved,
  err,
  ok,
  type Result,
} from '../../engine/index.js';
import { applyAbilityEffects, attack } from './actions.js';
import {
  parseConditionalModifier,
  resolveOpposedCheck,
  taskCheckNeedsRoll,
} from './checks/index.js';
import type { FfrpgCommand } from './commands.js';
import type { FfrpgEvent } from './events.js';
import { gmCommand, isGmCommand } from './gm.js';
import type { Ability, Attribute } from './model.js';
import { AUTOMATIC, canAct, NO_TRIGGERS, Resolution } from './resolution.js';
import { attributeRating } from './skills.js';
import {
  type CombatantState,
  currentActor,
  currentEntry,
  type FfrpgState,
  isActive,
} from './state.js';
import { advance, beginRound, endRound } from './timeline.js';

/** Checks a command against the battle and resolves it into events; see Ruleset.decide. */
export const decide = decideByResolving(resolve);

export type Resolved = EngineResolved<FfrpgState, FfrpgEvent>;

/** decide, with the state the events lead to (the Resolution has it already). */
export function resolve(
  state: FfrpgState,
  command: FfrpgCommand,
  dice: DiceRoller,
): Result<Resolved> {
  if (isGmCommand(command)) return gmCommand(state, command, dice);
  if (state.phase === 'ended') return err('battle/over', `the ${state.setup.mode} is over`);
  const r = new Resolution(state, dice);
  if (command.type === 'end-scene') {
    if (state.setup.mode !== 'scene')
      return err('battle/not-a-scene', 'a battle ends when a side is beaten, not by end-scene');
    // "Once all action has been resolved and the Scene ends, the effects of Status Conditions
    // are resolved": a Scene ended mid-round still has its Status Phase.
    if (state.phase === 'action') endRound(r);
    r.emit({ type: 'scene-ended', round: state.round });
    return ok(r.resolved());
  }
  if (command.type === 'begin-round') {
    if (state.phase !== 'initiative') {
      return err('battle/round-in-progress', `round ${state.round} is still in its Action Phase`);
    }
    beginRound(r);
    return ok(r.resolved());
  }
  if (command.type === 'opposed-check') {
    // Rolled at once by everyone in it, in a Scene or in battle: it takes nobody's turn.
    const checked = opposedCheck(r, command);
    return checked.ok ? ok(r.resolved()) : checked;
  }
  if (
    command.type === 'task-check' &&
    (command.called || (state.setup.mode === 'scene' && state.phase === 'initiative'))
  ) {
    // A check the GM calls for (spotting the ambush, keeping one's footing) takes nobody's
    // turn (docs/rulings.md). "Otherwise, participants decide among themselves who takes the
    // lead": outside a countdown anyone in the Scene may make a Task Check.
    const actor = combatantById(state.combatants, command.actor);
    if (actor === undefined)
      return err('action/unknown-combatant', `there is no combatant '${command.actor}'`);
    if (!canAct(state, actor)) return err('action/cannot-act', `${actor.sheet.name} cannot act`);
    const checked = taskCheck(r, actor, command);
    return checked.ok ? ok(r.resolved()) : checked;
  }
  if (state.phase !== 'action')
    return err('battle/no-round', 'begin a round first: everyone rolls Initiative');
  const actor = combatantById(state.combatants, command.actor);
  if (actor === undefined)
    return err('action/unknown-combatant', `there is no combatant '${command.actor}'`);
  const current = currentActor(state);
  if (current?.id !== actor.id) {
    const whose =
      current === undefined ? 'nobody is waiting to act' : `it is ${current.sheet.name}'s turn`;
    return err('action/not-your-turn', `${actor.sheet.name} cannot act now: ${whose}`);
  }
  if (!canAct(state, actor)) return err('action/cannot-act', `${actor.sheet.name} cannot act`);
  switch (command.type) {
    case 'attack': {
      const target = liveTarget(state, command.target);
      if (!target.ok) return target;
      if (target.value.side === actor.side) {
        return err(
          'action/friendly-target',
          `${actor.sheet.name} will not attack an ally, ${target.value.sheet.name}`,
        );
      }
      attack(r, actor.id, target.value.id, false, NO_TRIGGERS);
      break;
    }
    case 'use-ability': {
      const used = useAbility(r, actor, command.ability, command.target);
      if (!used.ok) return used;
      break;
    }
    case 'task-check': {
      const checked = taskCheck(r, actor, command);
      if (!checked.ok) return checked;
      break;
    }
    case 'pass':
      break;
    case 'flee':
      r.emit({ type: 'fled', actor: actor.id });
      break;
  }
  r.emit({ type: 'turn-ended', actor: actor.id });
  advance(r);
  return ok(r.resolved());
}

function liveTarget(state: FfrpgState, id: string): Result<CombatantState> {
  const target = combatantById(state.combatants, id);
  if (target === undefined) return err('action/unknown-target', `there is no combatant '${id}'`);
  if (target.down) return err('action/target-down', `${target.sheet.name} is already down`);
  if (target.fled) return err('action/target-fled', `${target.sheet.name} has fled`);
  return ok(target);
}

/** The targets an ability's Target type reaches from this user, or why not. */
export function targetsFor(
  state: FfrpgState,
  user: CombatantState,
  ability: Ability,
  target: string | undefined,
): Result<string[]> {
  const active = state.order.map((id) => state.combatants[id]!).filter(isActive);
  switch (ability.target) {
    case 'self':
      return ok([user.id]);
    case 'party':
      return ok(active.filter((c) => c.side === user.side).map((c) => c.id));
    case 'all':
      return ok(active.map((c) => c.id));
    case 'group': {
      const side = state.setup.sides.find((s) => s.id === target);
      if (side === undefined) {
        const sides = state.setup.sides.map((s) => s.id).join(', ');
        return err('action/bad-target', `${ability.name} targets a Group: name a side (${sides})`);
      }
      return ok(active.filter((c) => c.side === side.id).map((c) => c.id));
    }
    case 'single': {
      if (target === undefined) return err('action/bad-target', `${ability.name} needs a target`);
      const one = liveTarget(state, target);
      return one.ok ? ok([one.value.id]) : one;
    }
  }
}

function useAbility(
  r: Resolution,
  actor: CombatantState,
  abilityId: string,
  target: string | undefined,
): Result<true> {
  const state = r.state;
  const ability = state.setup.abilities[abilityId];
  if (ability === undefined || !actor.sheet.abilities.includes(abilityId)) {
    const known = actor.sheet.abilities.join(', ') || 'none';
    return err(
      'action/unknown-ability',
      `${actor.sheet.name} has no ability '${abilityId}' (has: ${known})`,
    );
  }
  if (ability.type === 'reaction' || ability.type === 'support') {
    return err(
      'action/not-an-action',
      `${ability.name} is a ${ability.type === 'reaction' ? 'Reaction' : 'Support'} ability: it works by itself`,
    );
  }
  if (ability.mpCost > actor.mp) {
    return err(
      'action/not-enough-mp',
      `${ability.name} costs ${ability.mpCost} MP; ${actor.sheet.name} has ${actor.mp}`,
    );
  }
  const hpCost = Math.floor((actor.sheet.stats.hp * ability.cost.hpPercent) / 100);
  if (hpCost > 0 && hpCost >= actor.hp) {
    return err(
      'action/not-enough-hp',
      `${ability.name} costs ${hpCost} HP; ${actor.sheet.name} has ${actor.hp} and would fall`,
    );
  }
  const targets = targetsFor(state, actor, ability, target);
  if (!targets.ok) return targets;
  const paid = [ability.mpCost > 0 ? `${ability.mpCost} MP` : '', hpCost > 0 ? `${hpCost} HP` : '']
    .filter(Boolean)
    .join(' and ');
  r.emit({
    type: 'ability-used',
    actor: actor.id,
    ability: abilityId,
    targets: targets.value,
    mpAfter: actor.mp - ability.mpCost,
    hpAfter: actor.hp - hpCost,
    paid: paid || 'nothing',
  });
  if (ability.type === 'slow' || ability.slow) {
    const count = currentEntry(r.state)?.count ?? 0;
    r.emit({
      type: 'ability-charging',
      cursor: r.state.cursor,
      charging: {
        id: `r${r.state.round}-${actor.id}-${abilityId}`,
        actor: actor.id,
        ability: abilityId,
        targets: targets.value,
        // Resolves within the round at the latest, before the Status Phase (docs/rulings.md).
        resolvesAt: Math.max(count - (ability.chargeTime ?? 0), 0),
      },
    });
    return ok(true);
  }
  applyAbilityEffects(r, actor.id, abilityId, targets.value, NO_TRIGGERS);
  return ok(true);
}

export interface RatedCheck {
  readonly rating: { readonly name: string; readonly value: number };
  readonly modifier: number;
  readonly cos: number;
  readonly formula: string;
}

/** The CoS of a check on a Skill or an Attribute Rating (3 x Attribute + 10) with a Conditional Modifier. */
export function rate(
  actor: CombatantState,
  choice: {
    skill?: string | undefined;
    attribute?: Attribute | undefined;
    modifier: number | string;
  },
): Result<RatedCheck> {
  if ((choice.skill === undefined) === (choice.attribute === undefined)) {
    return err('action/bad-check', 'a Task Check names either a skill or an attribute');
  }
  const modifier = parseConditionalModifier(choice.modifier);
  if (!modifier.ok) return err('action/bad-check', modifier.error.message);
  let rating: { name: string; value: number };
  if (choice.skill !== undefined) {
    const value = actor.sheet.skills[choice.skill];
    if (value === undefined) {
      const known = Object.keys(actor.sheet.skills).join(', ') || 'none';
      return err(
        'action/unknown-skill',
        `${actor.sheet.name} has no Skill '${choice.skill}' (has: ${known})`,
      );
    }
    rating = { name: choice.skill, value };
  } else {
    const attribute = choice.attribute!;
    rating = {
      name: `${attribute} Rating`,
      value: attributeRating(actor.sheet.attributes[attribute]) ?? 0,
    };
  }
  const m = modifier.value;
  const formula = `${rating.name} ${rating.value} ${m >= 0 ? '+' : '-'} ${Math.abs(m)}`;
  return ok({ rating, modifier: m, cos: rating.value + m, formula });
}

/** A Task Check on the combatant's turn: "Rodger: Rolls against Speed, please." */
function taskCheck(
  r: Resolution,
  actor: CombatantState,
  command: Extract<FfrpgCommand, { type: 'task-check' }>,
): Result<true> {
  const rated = rate(actor, command);
  if (!rated.ok) return rated;
  const { rating, modifier, cos, formula } = rated.value;
  const check = taskCheckNeedsRoll(cos)
    ? r.check('check', cos, formula, command.impossible)
    : { ...AUTOMATIC, cos, formula };
  r.emit({
    type: 'task-checked',
    actor: actor.id,
    task: command.task ?? rating.name,
    rating,
    modifier,
    check,
  });
  return ok(true);
}

/**
 * An Opposed Task Check: "every party involved must roll, even if their CoS is 100 or higher.
 * Whoever scores the farthest below the modified CoS for their Task Check wins."
 */
function opposedCheck(
  r: Resolution,
  command: Extract<FfrpgCommand, { type: 'opposed-check' }>,
): Result<true> {
  const participants: Extract<FfrpgEvent, { type: 'opposed-checked' }>['participants'][number][] =
    [];
  const seen = new Set<string>();
  for (const p of command.participants) {
    const actor = combatantById(r.state.combatants, p.actor);
    if (actor === undefined)
      return err('action/unknown-combatant', `there is no combatant '${p.actor}'`);
    if (seen.has(actor.id))
      return err('action/bad-check', `${actor.sheet.name} is in the contest twice`);
    seen.add(actor.id);
    if (!canAct(r.state, actor)) return err('action/cannot-act', `${actor.sheet.name} cannot act`);
    const rated = rate(actor, p);
    if (!rated.ok) return rated;
    const { rating, modifier, cos, formula } = rated.value;
    participants.push({
      actor: actor.id,
      rating,
      modifier,
      check: r.check(`opposed:${actor.id}`, cos, formula),
    });
  }
  const { botchAlwaysFails, ruleOf10Reading } = r.state.setup.options;
  const result = resolveOpposedCheck(
    participants.map((p) => ({ id: p.actor, cos: p.check.cos, roll: p.check.roll?.total ?? 0 })),
    { botchAlwaysFails, ruleOf10Reading },
  );
  r.emit({
    type: 'opposed-checked',
    task: command.task ?? 'Opposed Task Check',
    participants,
    outcome:
      result.outcome === 'winner'
        ? { result: 'winner', winner: result.winner }
        : { result: 'stalemate', reason: result.reason, reroll: result.reroll },
  });
  return ok(true);
}

export { canAct };
