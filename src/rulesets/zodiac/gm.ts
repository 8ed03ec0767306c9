import {
  combatantById,
  type DiceRoller,
  err,
  gm,
  ok,
  type Result,
  type RollRecord,
} from '../../engine/index.js';
import { dealDamage, gainHp, knockOut, loseHp } from './combat.js';
import type { ZodiacGmCommand } from './commands.js';
import { ELEMENTS, type Element } from './elements.js';
import type { GmResourceName } from './events.js';
import { combatantFromSheet } from './evolve.js';
import { Resolution, type Resolved } from './resolution.js';
import {
  type CombatantState,
  effectiveSpeed,
  hasStatus,
  isStanding,
  type ZodiacState,
} from './state.js';
import { clearedByUnconsciousness, STATUS_IDS, STATUSES, type StatusId } from './statuses.js';
import { settleAfterGm } from './timeline.js';

/** Speed Points the GM may set: more than any round's gain, a bound for a typo. */
export const MAX_SP = 9999;
/** Potions a combatant may carry of one kind, as a sheet may. */
export const MAX_ITEMS = 99;

/** What `gm <resource>` sets in ZODIAC, in the table's words. */
export const GM_RESOURCES: readonly GmResourceName[] = ['hp', 'mp', 'sp', 'item'];

/**
 * The GM's hand, allowed at any time (adding, skipping and moving on the clock only while the
 * battle is on). When it leaves the combatant whose turn it is unable to act, the turn passes;
 * when it leaves one side standing, the battle ends.
 */
export function gmCommand(
  state: ZodiacState,
  command: ZodiacGmCommand,
  dice: DiceRoller,
): Result<Resolved> {
  const r = new Resolution(state, dice);
  const done = command.type === 'gm-add' ? add(r, command) : onTarget(r, command);
  if (!done.ok) return done;
  settleAfterGm(r);
  return ok(r.resolved());
}

type Targeted = Exclude<ZodiacGmCommand, { type: 'gm-add' }>;

function onTarget(r: Resolution, command: Targeted): Result<true> {
  const state = r.state;
  const target = combatantById(state.combatants, command.target);
  if (target === undefined) {
    const known = state.order.join(', ');
    return err(
      'gm/unknown-combatant',
      `there is no combatant '${command.target}' (here: ${known})`,
    );
  }
  const name = target.sheet.name;
  if (command.type === 'gm-note') {
    const note = gm.noteEvent(state.notes, target.id, command.text, name);
    if (!note.ok) return note;
    r.emit(note.value);
    return ok(true);
  }
  if (target.gone !== null) return err('gm/gone', `${name} has left the fight (${target.gone})`);
  if (state.phase === 'ended' && (command.type === 'gm-skip' || command.type === 'gm-clock'))
    return err('battle/over', 'the battle is over');
  switch (command.type) {
    case 'gm-set':
      return setResource(r, target, command.resource, command.key, command.value, command.relative);
    case 'gm-clock':
      return setResource(r, target, 'sp', undefined, command.value, command.relative);
    case 'gm-status':
      return status(r, target, command);
    case 'gm-remove':
      r.emit({ type: 'combatant-removed', target: target.id, reason: command.reason });
      return ok(true);
    case 'gm-skip':
      if (target.dead) return err('gm/dead', `${name} is dead: no turns come`);
      if (state.skips.includes(target.id))
        return err('gm/already-skipping', `${name}'s next turn passes already`);
      r.emit({ type: 'skip-ordered', target: target.id });
      return ok(true);
    case 'gm-damage':
    case 'gm-heal':
      return effect(r, target, command);
    case 'gm-death':
      if (target.dead) return err('action/already-dead', `${name} is dead already`);
      for (const s of target.statuses)
        if (clearedByUnconsciousness(s.status))
          r.emit({
            type: 'status-ended',
            target: target.id,
            status: s.status,
            reason: 'knocked-out',
          });
      r.emit({ type: 'died', target: target.id });
      return ok(true);
  }
}

function setResource(
  r: Resolution,
  target: CombatantState,
  resource: string,
  key: string | undefined,
  value: number,
  relative: boolean,
): Result<true> {
  const name = target.sheet.name;
  if (!(GM_RESOURCES as readonly string[]).includes(resource))
    return err(
      'gm/unknown-resource',
      `ZODIAC has no resource '${resource}' (resources: ${GM_RESOURCES.join(', ')})`,
    );
  const which = resource as GmResourceName;
  if (which !== 'item' && key !== undefined)
    return err('gm/bad-key', `${resource} is not counted per anything: leave out '${key}'`);
  if (which === 'item') {
    if (key === undefined) return err('gm/needs-key', 'name the Potion: gm item <who> <item> <n>');
    if (!Object.hasOwn(r.state.setup.items, key)) {
      const known = Object.keys(r.state.setup.items).join(', ') || 'none';
      return err('gm/unknown-item', `there is no Potion '${key}' here (Potions: ${known})`);
    }
  }
  if (which === 'hp' && target.dead) return err('gm/dead', `${name} is dead: beyond revival`);
  const before =
    which === 'hp'
      ? target.hp
      : which === 'mp'
        ? target.mp
        : which === 'sp'
          ? target.sp
          : (target.items[key!] ?? 0);
  const max =
    which === 'hp'
      ? target.maxHp
      : which === 'mp'
        ? target.sheet.stats.mp
        : which === 'sp'
          ? MAX_SP
          : MAX_ITEMS;
  const wanted = relative ? before + value : value;
  const after = Math.min(max, Math.max(0, wanted));
  r.emit({
    type: 'resource-set',
    target: target.id,
    resource: which,
    key: which === 'item' ? key! : null,
    before,
    after,
    clamped: after !== wanted,
  });
  if (which === 'hp') {
    // HP above 0 brings the Unconscious back; 0 knocks out, Reraise and all.
    if (after > 0 && target.unconscious)
      r.emit({ type: 'revived', target: target.id, hp: after, cause: 'the GM' });
    else if (after === 0 && isStanding(target)) knockOut(r, target.id);
  }
  return ok(true);
}

function status(
  r: Resolution,
  target: CombatantState,
  command: Extract<Targeted, { type: 'gm-status' }>,
): Result<true> {
  const name = target.sheet.name;
  if (!(STATUS_IDS as readonly string[]).includes(command.status))
    return err(
      'gm/unknown-status',
      `ZODIAC has no status '${command.status}' (statuses: ${STATUS_IDS.join(', ')})`,
    );
  const id = command.status as StatusId;
  const info = STATUSES[id];
  if (target.dead) return err('gm/dead', `${name} is dead`);
  if (command.remove && command.timer !== undefined)
    return err('gm/usage', 'a timer goes with inflicting a status, not ending one');
  if (id === 'unconscious' || id === 'stun') {
    if (command.timer !== undefined)
      return err(
        'gm/no-timer',
        id === 'stun'
          ? 'Stun lasts its next turn only: it takes no timer'
          : 'Unconscious takes no timer',
      );
  }
  if (id === 'unconscious') {
    if (command.remove) {
      if (!target.unconscious) return err('gm/no-such-status', `${name} is not unconscious`);
      r.emit({ type: 'revived', target: target.id, hp: 1, cause: 'the GM' });
    } else {
      if (!isStanding(target)) return err('gm/no-such-status', `${name} is unconscious already`);
      knockOut(r, target.id);
    }
    return ok(true);
  }
  if (command.remove) {
    if (!hasStatus(target, id))
      return err('gm/no-such-status', `${name} does not have ${info.name}`);
    r.emit({ type: 'status-ended', target: target.id, status: id, reason: 'cured' });
    return ok(true);
  }
  if (info.timed && command.timer === undefined)
    return err(
      'gm/needs-timer',
      `${info.name} is Temporary: give its duration in ticks (or infinite)`,
    );
  // Death Sentence counts rounds: "until the end of the next combat round" unless told.
  const sentence = id === 'death-sentence';
  const timer = command.timer === 'infinite' ? null : (command.timer ?? null);
  r.emit({
    type: 'status-inflicted',
    target: target.id,
    status: id,
    ticks: sentence ? null : timer,
    untilRound: sentence
      ? command.timer === 'infinite'
        ? null
        : r.state.round + (timer ?? 1)
      : null,
  });
  return ok(true);
}

/**
 * Damage or healing as a GM effect: through the pipeline (Defend, Barrier or MBarrier, Mini,
 * the element, Stone, the Damage Cap; Zombie reverses healing) unless raw. Without an attacker
 * the damage is physical, or magical when it has an element (rulings).
 */
function effect(
  r: Resolution,
  target: CombatantState,
  command: Extract<Targeted, { type: 'gm-damage' | 'gm-heal' }>,
): Result<true> {
  const name = target.sheet.name;
  if (!isStanding(target))
    return err(
      'gm/target-down',
      `${name} is unconscious: ${command.type === 'gm-heal' ? 'healing has no effect (gm hp revives)' : 'damage has no effect'}`,
    );
  let element: Element | undefined;
  if (command.type === 'gm-damage' && command.element !== undefined) {
    if (!(ELEMENTS as readonly string[]).includes(command.element))
      return err(
        'gm/unknown-element',
        `'${command.element}' is not an element (elements: ${ELEMENTS.join(', ')})`,
      );
    element = command.element as Element;
  }
  const basis = { hp: target.hp, maxHp: target.maxHp, mp: target.mp, maxMp: target.sheet.stats.mp };
  const resolved = gm.resolveGmAmount(command.amount, basis, r.dice, target.id);
  if (!resolved.ok) return resolved;
  const { amount, roll } = resolved.value;
  const rolled = roll ?? null;
  const cause = 'the GM';
  if (command.type === 'gm-heal') {
    if (!command.raw) {
      gainHp(r, null, target.id, amount, rolled, cause);
      return ok(true);
    }
    const hpAfter = Math.min(target.maxHp, target.hp + amount);
    r.emit({
      type: 'healed',
      source: null,
      target: target.id,
      roll: rolled,
      amount: hpAfter - target.hp,
      hpAfter,
      cause,
    });
    return ok(true);
  }
  if (command.raw) {
    loseHp(r, null, target.id, amount, rolled, r.explain ? `${amount}, raw` : '', cause);
    return ok(true);
  }
  dealDamage(r, null, target.id, {
    roll: { roll: rolled, base: amount, note: r.explain && rolled !== null ? rolled.text : '' },
    kind: element === undefined ? 'physical' : 'magical',
    element,
    dealt: [],
    cause,
  });
  return ok(true);
}

/**
 * A newcomer joins `side` under a unique id and name. Mid-round it enters with what a combatant
 * gets at the start of a round (its Speed, and in round 1 the extra 1d8), and takes its first
 * turn from the next tick, whose order is set when it begins; before the battle it rolls with
 * everyone (rulings).
 */
function add(r: Resolution, command: Extract<ZodiacGmCommand, { type: 'gm-add' }>): Result<true> {
  const state = r.state;
  if (state.phase === 'ended') return err('battle/over', 'the battle is over');
  const side = state.setup.sides.find((s) => s.id === command.side);
  if (side === undefined)
    return err(
      'gm/unknown-side',
      `there is no side '${command.side}' (sides: ${state.setup.sides.map((s) => s.id).join(', ')})`,
    );
  const sheet = command.newcomer;
  for (const tech of sheet.techs)
    if (!Object.hasOwn(state.setup.techs, tech))
      return err('gm/unknown-tech', `${sheet.name} knows '${tech}', a Tech this encounter lacks`);
  for (const item of Object.keys(sheet.items))
    if (!Object.hasOwn(state.setup.items, item))
      return err(
        'gm/unknown-item',
        `${sheet.name} carries '${item}', a Potion this encounter lacks`,
      );
  const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
  const identity = gm.newcomerIdentity(roster, { id: sheet.id, name: sheet.name }, command.name);
  const joined = { ...sheet, id: identity.id, name: identity.name };
  const entering = combatantFromSheet(state.setup, joined, side.id, state.round);
  let sp = 0;
  let roll: RollRecord | null = null;
  if (state.phase === 'ticks' && isStanding(entering)) {
    roll = state.round === 1 ? r.dice.roll(`sp:${identity.id}`, '1d8') : null;
    sp = effectiveSpeed(entering) + (roll?.total ?? 0);
  }
  r.emit({ type: 'combatant-joined', side: side.id, sheet: joined, sp, roll });
  return ok(true);
}
