/**
 * The GM's commands in FFVIII's terms: its resources (HP, the next shot, shot debt, ammunition,
 * Spellshards in the Spell Matrix, items; no MP), its clock (the next shot), how a newcomer
 * enters it (an initiative roll, mid-round), and damage through Toughness or Spirit.
 */
import {
  combatantById,
  type DiceRoller,
  err,
  gm,
  ok,
  type Resolved,
  type Result,
} from '../../engine/index.js';
import { dealDamage, heal } from './attacks.js';
import { INITIATIVE_DIE, REGULAR_ACTION_SHOTS, settle } from './clock.js';
import type { FfviiiCommand } from './commands.js';
import type { FfviiiEvent, GmResourceName } from './events.js';
import { GM_RESOURCES } from './events.js';
import { type CombatantSheet, ELEMENTS, type Element, STATUS_NAME } from './model.js';
import { FfviiiResolution } from './resolution.js';
import { sheetProblem } from './sheet-problem.js';
import type { CombatantState, FfviiiState } from './state.js';

export type FfviiiGmCommand = Extract<FfviiiCommand, { type: gm.GmCommandType }>;

/** Whether a command is one of the GM's. */
export function isFfviiiGm(command: FfviiiCommand): command is FfviiiGmCommand {
  return gm.isGmCommand(command);
}

/** The most a resource can hold, and what a keyed one is counted per. */
interface Range {
  readonly current: number;
  readonly min: number;
  readonly max: number;
  readonly why: string;
}

/** The id `gm add` would give a newcomer now, and its name: `iron-giant-2`, "Iron Giant 2". */
export function newcomerId(
  state: FfviiiState,
  sheet: { readonly id: string; readonly name: string },
  name: string | undefined,
): gm.RosterEntry {
  const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
  return gm.newcomerIdentity(roster, { id: sheet.id, name: sheet.name }, name);
}

/** decide for a GM command: every refusal before the first event, then settle as any command. */
export function resolveGm(
  state: FfviiiState,
  command: FfviiiGmCommand,
  dice: DiceRoller,
): Result<Resolved<FfviiiState, FfviiiEvent>> {
  if (state.phase === 'ended') return err('battle/over', 'the battle is over');
  const out = new FfviiiResolution(state, dice);
  if (command.type === 'gm-add') {
    const added = add(out, dice, command);
    if (!added.ok) return added;
  } else {
    const target = combatantById(state.combatants, command.target);
    if (target === undefined)
      return err('gm/unknown-combatant', `nobody called '${command.target}' is in this fight`);
    if (command.type === 'gm-note') {
      const note = gm.noteEvent(state.notes, target.id, command.text, target.sheet.name);
      if (!note.ok) return note;
      out.emit(note.value);
      return ok(out.resolved());
    }
    if (target.fled) return err('gm/left-the-fight', `${target.sheet.name} has left the fight`);
    const done = onTarget(out, dice, command, target);
    if (!done.ok) return done;
  }
  settle(out);
  return ok(out.resolved());
}

function onTarget(
  out: FfviiiResolution,
  dice: DiceRoller,
  command: Exclude<FfviiiGmCommand, { type: 'gm-add' | 'gm-note' }>,
  target: CombatantState,
): Result<true> {
  const state = out.state;
  const name = target.sheet.name;
  switch (command.type) {
    case 'gm-set':
      return set(out, target, command.resource, command.key, command.value, command.relative);
    case 'gm-clock':
      return set(out, target, 'shots', undefined, command.value, command.relative);
    case 'gm-status': {
      if (!STATUS_NAME.test(command.status))
        return err(
          'gm/unknown-status',
          `'${command.status.slice(0, 40)}' is not a status name (one lower-case word, hyphens allowed)`,
        );
      if (command.remove) {
        if (command.timer !== undefined)
          return err('gm/usage', 'a timer goes with a status inflicted, not one ended');
        if (!Object.hasOwn(target.statuses, command.status))
          return err('gm/unknown-status', `${name} has no status '${command.status}'`);
        out.emit({ type: 'status-ended', target: target.id, status: command.status, reason: 'gm' });
        return ok(true);
      }
      const rounds =
        command.timer === undefined || command.timer === 'infinite' ? null : command.timer;
      out.emit({ type: 'status-set', target: target.id, status: command.status, rounds });
      return ok(true);
    }
    case 'gm-remove':
      if (state.pending !== null && [state.pending.actor, state.pending.target].includes(target.id))
        out.emit({
          type: 'attack-cancelled',
          reason: `${name} ${command.reason === 'fled' ? 'fled' : 'was sent off'}`,
        });
      out.emit({ type: 'combatant-left', target: target.id, reason: command.reason });
      return ok(true);
    case 'gm-skip': {
      if (state.phase === 'dodge')
        return err('action/awaiting-dodge', 'an attack waits on its target to dodge or not');
      if (state.phase !== 'shots' || target.shot !== state.shot || target.down)
        return err(
          'gm/not-its-shot',
          state.phase === 'shots'
            ? `${name} does not act on shot ${state.shot}: move it with gm clock instead`
            : 'no shot is being played: begin the round first',
        );
      // It loses the action it would have taken: the shots of a regular action pass.
      const shot = Math.max(0, target.shot - REGULAR_ACTION_SHOTS);
      out.emit({ type: 'turn-skipped', target: target.id, shot });
      return ok(true);
    }
    case 'gm-damage':
    case 'gm-heal': {
      if (target.down)
        return command.type === 'gm-damage'
          ? err('gm/target-down', `${name} is down already`)
          : healTarget(out, dice, command, target);
      return command.type === 'gm-damage'
        ? damageTarget(out, dice, command, target)
        : healTarget(out, dice, command, target);
    }
  }
}

function amountFor(
  out: FfviiiResolution,
  command: Extract<FfviiiGmCommand, { type: 'gm-damage' | 'gm-heal' }>,
  target: CombatantState,
  dice: DiceRoller,
): Result<number> {
  const amount = command.amount;
  if (typeof amount === 'object' && (amount.of === 'mp' || amount.of === 'max-mp'))
    return err('gm/no-mp', 'FFVIII has no MP: take a share of hp or max-hp');
  const resolved = gm.resolveGmAmount(
    amount,
    { hp: target.hp, maxHp: target.sheet.hp, mp: 0, maxMp: 0 },
    dice,
    target.id,
  );
  if (!resolved.ok) return resolved;
  // The roll goes into the log, so a save replays the same amount.
  const { roll } = resolved.value;
  if (roll !== undefined) out.emit({ type: 'gm-amount-rolled', target: target.id, roll });
  return ok(resolved.value.amount);
}

/**
 * GM damage through the text's pipeline: with an element it is magical and meets the Spirit the
 * target has against it; without one it is physical and meets Toughness (a falling rock, a
 * trap). No margin: nothing was rolled to hit. `raw` skips the armour.
 */
function damageTarget(
  out: FfviiiResolution,
  dice: DiceRoller,
  command: Extract<FfviiiGmCommand, { type: 'gm-damage' }>,
  target: CombatantState,
): Result<true> {
  const element = command.element;
  if (element !== undefined && !(ELEMENTS as readonly string[]).includes(element))
    return err(
      'gm/unknown-element',
      `'${element.slice(0, 40)}' is not an element (elements: ${ELEMENTS.join(', ')})`,
    );
  const amount = amountFor(out, command, target, dice);
  if (!amount.ok) return amount;
  if (command.raw) {
    out.emit({
      type: 'damage-dealt',
      source: 'gm',
      target: target.id,
      amount: amount.value,
      hpAfter: Math.max(0, target.hp - amount.value),
      breakdown: `GM ${amount.value}, raw`,
    });
  } else {
    const type = element === undefined ? 'physical' : 'magical';
    dealDamage(
      out,
      'gm',
      target.id,
      amount.value,
      `GM ${amount.value}`,
      type,
      element as Element | undefined,
      0,
      false,
    );
  }
  return ok(true);
}

/** GM healing: never past the sheet's maximum, raw or not; HP given to the fallen raise them. */
function healTarget(
  out: FfviiiResolution,
  dice: DiceRoller,
  command: Extract<FfviiiGmCommand, { type: 'gm-heal' }>,
  target: CombatantState,
): Result<true> {
  const amount = amountFor(out, command, target, dice);
  if (!amount.ok) return amount;
  heal(out, 'gm', target.id, amount.value);
  if (target.down && out.get(target.id).hp > 0) out.emit({ type: 'stood-up', target: target.id });
  return ok(true);
}

/** What a resource of this combatant holds now and may hold; an error for what it has not. */
function rangeOf(
  state: FfviiiState,
  c: CombatantState,
  resource: GmResourceName,
  key: string | undefined,
): Result<Range> {
  const keyed = resource === 'ammo' || resource === 'shards' || resource === 'item';
  if (keyed && key === undefined)
    return err(
      'gm/missing-key',
      `name the ${resource === 'ammo' ? 'gun' : resource === 'shards' ? 'spell' : 'item'}: gm ${resource} <who> <${resource === 'ammo' ? 'weapon' : resource === 'shards' ? 'spell' : 'item'}> <n>`,
    );
  if (!keyed && key !== undefined)
    return err('gm/unexpected-key', `${resource} is not counted per weapon, spell or item`);
  const name = c.sheet.name;
  switch (resource) {
    case 'hp':
      return ok({ current: c.hp, min: 0, max: c.sheet.hp, why: `the maximum is ${c.sheet.hp}` });
    case 'shots':
      if (c.down)
        return err(
          'gm/target-down',
          `${name} is down: give it HP first (it acts from the next round)`,
        );
      if (state.phase === 'initiative')
        return err(
          'gm/between-rounds',
          'between rounds the next shot comes from initiative: set it once the round has begun (or set debt)',
        );
      // The clock only counts down: a shot already passed never comes round again, so the
      // latest a combatant can be put is the shot now being played.
      return ok({
        current: c.shot,
        min: 0,
        max: state.shot,
        why: `it is shot ${state.shot}, and the shot clock only counts down`,
      });
    case 'debt':
      return ok({ current: c.debt, min: 0, max: 99, why: 'shot debt is 0 to 99' });
    case 'ammo': {
      const gun = c.sheet.weapons.find((w) => w.id === key && w.gun !== undefined);
      if (gun?.gun === undefined)
        return err(
          'gm/unknown-key',
          `${name} carries no gun '${key!.slice(0, 40)}' (guns: ${gunsOf(c) || 'none'})`,
        );
      return ok({
        current: c.ammo[gun.id] ?? 0,
        min: 0,
        max: gun.gun.capacity,
        why: `${gun.name} holds ${gun.gun.capacity}`,
      });
    }
    case 'shards':
      if (!Object.hasOwn(state.setup.spells, key!))
        return err('gm/unknown-key', `there is no spell '${key!.slice(0, 40)}'`);
      return ok({
        current: Object.hasOwn(c.matrix, key!) ? c.matrix[key!]! : 0,
        min: 0,
        max: 100,
        why: 'a Spell Matrix holds 0 to 100 of a spell',
      });
    case 'item':
      if (!Object.hasOwn(state.setup.items, key!))
        return err('gm/unknown-key', `there is no item '${key!.slice(0, 40)}'`);
      return ok({
        current: Object.hasOwn(c.items, key!) ? c.items[key!]! : 0,
        min: 0,
        max: 99,
        why: 'a character carries 0 to 99 of an item',
      });
  }
}

function gunsOf(c: CombatantState): string {
  return c.sheet.weapons
    .filter((w) => w.gun !== undefined)
    .map((w) => w.id)
    .join(', ');
}

/**
 * Sets a resource, absolute or relative, clamped to what it can hold (the event says so). HP
 * given back to the fallen raise them; HP set to 0 fells at the end of the shot, as damage does.
 */
function set(
  out: FfviiiResolution,
  c: CombatantState,
  resource: string,
  key: string | undefined,
  value: number,
  relative: boolean,
): Result<true> {
  if (resource === 'mp') return err('gm/no-mp', 'FFVIII has no MP');
  if (!(GM_RESOURCES as readonly string[]).includes(resource))
    return err(
      'gm/unknown-resource',
      `'${resource.slice(0, 40)}' is not an FFVIII resource (${GM_RESOURCES.join(', ')})`,
    );
  const name = resource as GmResourceName;
  const range = rangeOf(out.state, c, name, key);
  if (!range.ok) return range;
  const { current, min, max, why } = range.value;
  const requested = relative ? current + value : value;
  const clamped = Math.min(max, Math.max(min, requested));
  out.emit({
    type: 'gm-set',
    target: c.id,
    resource: name,
    ...(key === undefined ? {} : { key }),
    value: clamped,
    ...(clamped === requested
      ? {}
      : { requested, clamp: requested < min ? `it cannot go below ${min}` : why }),
  });
  if (name === 'hp' && clamped > 0 && c.down) out.emit({ type: 'stood-up', target: c.id });
  return ok(true);
}

/**
 * A newcomer joins a side. Between rounds it simply rolls initiative with everyone; mid-round it
 * rolls its own (d10 + Speed) and acts on that shot, or on the shot now being played when that
 * one has already passed (docs/rulings.md).
 */
function add(
  out: FfviiiResolution,
  dice: DiceRoller,
  command: Extract<FfviiiGmCommand, { type: 'gm-add' }>,
): Result<true> {
  const state = out.state;
  const side = state.setup.sides.find((s) => s.id === command.side);
  if (side === undefined)
    return err(
      'gm/unknown-side',
      `there is no side '${command.side.slice(0, 40)}' (sides: ${state.setup.sides.map((s) => s.id).join(', ')})`,
    );
  const problem = sheetProblem(state.setup, command.newcomer);
  if (problem !== undefined) return err('gm/invalid-newcomer', problem);
  const identity = newcomerId(state, command.newcomer, command.name);
  const sheet: CombatantSheet = { ...command.newcomer, id: identity.id, name: identity.name };
  if (state.phase === 'initiative') {
    out.emit({ type: 'combatant-joined', side: side.id, sheet, initiative: null, shot: 0 });
    return ok(true);
  }
  const roll = dice.roll(`initiative:${sheet.id}`, INITIATIVE_DIE);
  const speed = sheet.attributes.speed;
  const initiative = roll.total + speed;
  out.emit({
    type: 'combatant-joined',
    side: side.id,
    sheet,
    initiative: { id: sheet.id, roll, speed, bonus: 0, debt: 0, initiative, debtLeft: 0 },
    shot: Math.max(0, Math.min(initiative, state.shot)),
  });
  return ok(true);
}
