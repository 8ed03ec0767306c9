import type { Variables } from '../../dice/index.js';
import { gm } from '../../engine/index.js';
import { rollSlot } from '../roll-slot.js';
import type { OrderRolls, RollSlot } from '../system.js';
import { usesWeapon, weaponOf } from './actions.js';
import type { FfrpgCommand } from './commands.js';
import { targetsFor } from './decide.js';
import type { Ability, ReactionTrigger } from './model.js';
import { goesOffAtOnce } from './odds.js';
import { variablesOf } from './resolution.js';
import type { CombatantState, FfrpgState } from './state.js';
import { currentEntry, isActive } from './state.js';

/**
 * Every roll a command may ask for, whatever the dice say: a damage roll is listed with its hit,
 * a counter-attack with the Reaction that may set it off. Beyond the action itself, any command
 * that moves the countdown on may see a Slow ability go off, so the dice of every charge still
 * waiting are listed too: a Slow ability's dice are rolled when its Charge Time runs out.
 */
export function ffrpgRolls(state: FfrpgState, command: FfrpgCommand): RollSlot[] {
  const out = new Rolls();
  switch (command.type) {
    case 'begin-round':
      return initiativeSlots(state, state.setup.options.playersRollInitiative);
    case 'attack': {
      const actor = own(state, command.actor);
      const target = own(state, command.target);
      if (actor && target) attackRolls(state, actor, target, new Set(), out);
      break;
    }
    case 'use-ability': {
      const actor = own(state, command.actor);
      const ability = actor && ownAbility(state, command.ability);
      if (actor && ability) {
        const targets = targetsFor(state, actor, ability, command.target);
        const slow = ability.type === 'slow' || ability.slow;
        const count = currentEntry(state)?.count ?? 0;
        const resolvesAt = Math.max(count - (ability.chargeTime ?? 0), 0);
        if (targets.ok && (!slow || goesOffAtOnce(state, resolvesAt)))
          effectRolls(state, actor, ability, targets.value, out);
      }
      break;
    }
    case 'task-check':
      out.add('check', 'd%', command.actor);
      if (command.called) return out.list();
      break;
    case 'opposed-check':
      for (const p of command.participants) out.add(`opposed:${p.actor}`, 'd%', p.actor);
      return out.list();
    case 'gm-damage':
    case 'gm-heal':
      if (typeof command.amount === 'string')
        out.add(`gm:${command.target}`, command.amount, undefined);
      break;
    case 'gm-add':
      if (state.phase === 'action') {
        const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
        const sheet = command.newcomer;
        const { id } = gm.newcomerIdentity(
          roster,
          { id: sheet.id, name: sheet.name },
          command.name,
        );
        out.add(`initiative:${id}`, '1d10+SPD', undefined, { SPD: sheet.attributes.SPD });
      }
      break;
    default:
      break;
  }
  chargeRolls(state, out);
  return out.list();
}

/** Each active combatant's Initiative, the next Initiative Phase's: its own when `own`. */
function initiativeSlots(state: FfrpgState, own: boolean): RollSlot[] {
  return state.order
    .filter((id) => isActive(state.combatants[id]!))
    .map((id) =>
      rollSlot(`initiative:${id}`, '1d10+SPD', own ? id : undefined, spd(state.combatants[id]!)),
    );
}

/**
 * "Anybody involved in the scene—PC, NPC, or otherwise—rolls a d10 and adds the result to their
 * SPD Attribute": each player its own character's, when the option is on (it is by default).
 */
export function ffrpgOrderRolls(state: FfrpgState): OrderRolls {
  const on = state.setup.options.playersRollInitiative;
  const slots = on && state.phase !== 'ended' ? initiativeSlots(state, true) : [];
  return {
    option: 'playersRollInitiative',
    on,
    name: 'Initiative',
    slots,
    variables: Object.fromEntries(
      slots.map((s) => [s.purpose, spd(state.combatants[s.roller!]!)] as const),
    ),
  };
}

/**
 * Purposes in the order first met, each once: the first names the roller, as the engine asks
 * the first for the bare purpose and numbers the later ones.
 */
class Rolls {
  private readonly slots = new Map<string, RollSlot>();
  /** `roller` undefined: the table's roll; `variables`, the numbers it is rolled with. */
  add(purpose: string, notation: string, roller: string | undefined, variables?: Variables): void {
    if (this.slots.has(purpose)) return;
    this.slots.set(purpose, rollSlot(purpose, notation, roller, variables));
  }
  list(): RollSlot[] {
    return [...this.slots.values()];
  }
}

/** Initiative is "1d10 + Speed": the slot shows the combatant's SPD in its place. */
function spd(c: CombatantState): Variables {
  return { SPD: c.sheet.attributes.SPD };
}

function own(state: FfrpgState, id: string): CombatantState | undefined {
  return Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

function ownAbility(state: FfrpgState, id: string): Ability | undefined {
  return Object.hasOwn(state.setup.abilities, id) ? state.setup.abilities[id] : undefined;
}

/** The charges still waiting on this round's countdown: any may go off as it moves on. */
function chargeRolls(state: FfrpgState, out: Rolls): void {
  if (state.phase !== 'action') return;
  for (let i = state.cursor + 1; i < state.timeline.length; i++) {
    const entry = state.timeline[i]!;
    if (entry.kind !== 'charge') continue;
    const charging = state.charging.find((c) => c.id === entry.id);
    const actor = charging && own(state, charging.actor);
    const ability = charging && ownAbility(state, charging.ability);
    if (charging && actor && ability) effectRolls(state, actor, ability, charging.targets, out);
  }
}

function attackRolls(
  state: FfrpgState,
  actor: CombatantState,
  target: CombatantState,
  chain: ReadonlySet<ReactionTrigger>,
  out: Rolls,
): void {
  const weapon = weaponOf(actor);
  out.add(`hit:${target.id}`, 'd%', actor.id);
  out.add(`damage:${target.id}`, weapon.damage, actor.id, variablesOf(state, actor, weapon.skill));
  const damaged = weapon.damageType === 'physical' ? 'physical-damage' : 'magical-damage';
  reactionRolls(state, target, actor, ['attacked', damaged], chain, out);
}

function effectRolls(
  state: FfrpgState,
  user: CombatantState,
  ability: Ability,
  targets: readonly string[],
  out: Rolls,
): void {
  for (const id of targets) {
    const target = own(state, id);
    if (target === undefined) continue;
    if (ability.cos.kind !== 'automatic') out.add(`effect:${id}`, 'd%', user.id);
    const damage = ability.damage;
    const weapon = weaponOf(user);
    if (damage !== undefined && damage.share === undefined) {
      const skill = usesWeapon(ability) ? weapon.skill : undefined;
      const variables = variablesOf(state, user, skill);
      out.add(`damage:${id}`, damage.code ?? weapon.damage, user.id, variables);
    }
    if (ability.heal !== undefined)
      out.add(`heal:${id}`, ability.heal.code, user.id, variablesOf(state, user));
    for (const application of ability.inflicts)
      if (application.cos.kind !== 'automatic')
        out.add(`status:${application.status}:${id}`, 'd%', user.id);
    const triggers: ReactionTrigger[] = [];
    if (damage !== undefined)
      triggers.push(damage.damageType === 'physical' ? 'physical-damage' : 'magical-damage');
    if (ability.type === 'magic') triggers.push('spell-cast-at');
    reactionRolls(state, target, user, triggers, new Set(), out);
  }
}

function reactionRolls(
  state: FfrpgState,
  reactor: CombatantState,
  against: CombatantState,
  triggers: readonly ReactionTrigger[],
  chain: ReadonlySet<ReactionTrigger>,
  out: Rolls,
): void {
  for (const id of reactor.sheet.abilities) {
    const ability = ownAbility(state, id);
    if (ability?.type !== 'reaction' || ability.trigger === undefined) continue;
    if (!triggers.includes(ability.trigger) || chain.has(ability.trigger)) continue;
    if (ability.cos.kind !== 'automatic') out.add(`reaction:${id}`, 'd%', reactor.id);
    if (ability.reaction === 'counter-attack')
      attackRolls(state, reactor, against, new Set(chain).add(ability.trigger), out);
  }
}
