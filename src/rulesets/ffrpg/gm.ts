import {
  combatantById,
  type DiceRoller,
  err,
  gm,
  ok,
  type Resolved,
  type Result,
} from '../../engine/index.js';
import { landDamage } from './actions.js';
import type { FfrpgCommand } from './commands.js';
import { computeDamage, type DamageResult } from './damage.js';
import { ELEMENT_ALIASES, ELEMENTS, type Element } from './elements.js';
import type { FfrpgEvent } from './events.js';
import { knockOut } from './knock-out.js';
import { canAct, Resolution } from './resolution.js';
import {
  type CombatantState,
  currentActor,
  type FfrpgState,
  isActive,
  moveOnCountdown,
  pendingTurn,
} from './state.js';
import { advance, battleOver, rollInitiative } from './timeline.js';

export type FfrpgGmCommand = Extract<
  FfrpgCommand,
  {
    type:
      | 'gm-set'
      | 'gm-status'
      | 'gm-add'
      | 'gm-remove'
      | 'gm-clock'
      | 'gm-skip'
      | 'gm-damage'
      | 'gm-heal'
      | 'gm-note';
  }
>;

export function isGmCommand(command: FfrpgCommand): command is FfrpgGmCommand {
  return gm.isGmCommand(command);
}

function basisOf(c: CombatantState): gm.AmountBasis {
  return { hp: c.hp, maxHp: c.sheet.stats.hp, mp: c.mp, maxMp: c.sheet.stats.mp };
}

/** The resources `gm-set` knows in FFRPG: current HP and MP (maximums never change). */
export const GM_RESOURCES = ['hp', 'mp'] as const;

/** GM commands that need a fight still going: they act on the countdown or deal damage. */
const NEEDS_A_FIGHT = new Set(['gm-add', 'gm-remove', 'gm-clock', 'gm-skip', 'gm-damage']);

/**
 * The GM's hand: allowed at any time, even between rounds. When it leaves the combatant whose
 * turn it is unable to act, the countdown moves on; when it leaves a side beaten, the battle ends.
 * Every refusal is an error value and changes nothing.
 */
export function gmCommand(
  state: FfrpgState,
  command: FfrpgGmCommand,
  dice: DiceRoller,
): Result<Resolved<FfrpgState, FfrpgEvent>> {
  if (state.phase === 'ended' && NEEDS_A_FIGHT.has(command.type))
    return err('battle/over', `the ${state.setup.mode} is over`);
  const r = new Resolution(state, dice);
  const done = decideGm(r, command);
  if (!done.ok) return done;
  // Before the first round nobody is beaten yet: the GM may still be setting the table.
  if (r.state.round === 0 || battleOver(r)) return ok(r.resolved());
  const actor = currentActor(r.state);
  if (actor !== undefined && !canAct(r.state, actor)) {
    r.emit({ type: 'turn-ended', actor: actor.id });
    advance(r);
  }
  return ok(r.resolved());
}

function target(state: FfrpgState, id: string): Result<CombatantState> {
  const c = combatantById(state.combatants, id);
  if (c !== undefined) return ok(c);
  const known = state.order.join(', ');
  return err('gm/unknown-combatant', `there is no combatant '${id}' (here: ${known})`);
}

function decideGm(r: Resolution, command: FfrpgGmCommand): Result<true> {
  if (command.type === 'gm-add') return add(r, command);
  const found = target(r.state, command.target);
  if (!found.ok) return found;
  const c = found.value;
  switch (command.type) {
    case 'gm-set':
      return set(r, c, command);
    case 'gm-status':
      return status(r, c, command);
    case 'gm-remove':
      if (c.fled) return err('gm/already-out', `${c.sheet.name} has already left the fight`);
      r.emit({ type: 'combatant-removed', target: c.id, reason: command.reason });
      return ok(true);
    case 'gm-clock':
      return clock(r, c, command);
    case 'gm-skip':
      return skip(r, c);
    case 'gm-damage':
      return damage(r, c, command);
    case 'gm-heal':
      return heal(r, c, command);
    case 'gm-note': {
      const note = gm.noteEvent(r.state.notes, c.id, command.text, c.sheet.name);
      if (!note.ok) return note;
      r.emit(note.value);
      return ok(true);
    }
  }
}

/** Current HP or MP, absolute or relative, clamped to 0..maximum (the event says so). */
function set(
  r: Resolution,
  c: CombatantState,
  command: Extract<FfrpgGmCommand, { type: 'gm-set' }>,
): Result<true> {
  const resource = command.resource.toLowerCase();
  if (resource !== 'hp' && resource !== 'mp')
    return err(
      'gm/unknown-resource',
      `FFRPG has no resource '${command.resource}': the GM sets ${GM_RESOURCES.join(' or ')}`,
    );
  if (command.key !== undefined)
    return err('gm/bad-key', `${resource.toUpperCase()} is not counted per anything`);
  const max = resource === 'hp' ? c.sheet.stats.hp : c.sheet.stats.mp;
  const current = resource === 'hp' ? c.hp : c.mp;
  const wanted = command.relative ? current + command.value : command.value;
  const value = Math.min(Math.max(wanted, 0), max);
  const revived = resource === 'hp' && value > 0 && c.down;
  r.emit({
    type: 'resource-set',
    target: c.id,
    resource,
    value,
    clamped: value !== wanted,
    revived,
  });
  // 0 HP knocks out as damage would, ending its Status Conditions.
  if (resource === 'hp' && value === 0 && !c.down) knockOut(r, c.id);
  return ok(true);
}

function status(
  r: Resolution,
  c: CombatantState,
  command: Extract<FfrpgGmCommand, { type: 'gm-status' }>,
): Result<true> {
  const definition = r.state.setup.statuses[command.status];
  if (definition === undefined || !Object.hasOwn(r.state.setup.statuses, command.status)) {
    const known = Object.keys(r.state.setup.statuses).join(', ') || 'none';
    return err(
      'gm/unknown-status',
      `there is no Status Condition '${command.status}' (known: ${known})`,
    );
  }
  if (command.remove) {
    if (!c.statuses.some((s) => s.status === command.status))
      return err('gm/no-such-status', `${c.sheet.name} does not have ${definition.name}`);
    r.emit({ type: 'status-ended', target: c.id, status: command.status, reason: 'cured' });
    return ok(true);
  }
  r.emit({
    type: 'status-inflicted',
    target: c.id,
    status: command.status,
    timer: command.timer ?? definition.timer,
  });
  return ok(true);
}

/**
 * A newcomer joins its side from its sheet. Between rounds it simply joins and rolls Initiative
 * with everyone at the next Initiative Phase. Mid-round it rolls d10 + SPD at once and enters
 * the countdown on its count, after whoever is already on it; if the countdown is already
 * below its count, it acts from the next round (docs/rulings.md).
 */
function add(r: Resolution, command: Extract<FfrpgGmCommand, { type: 'gm-add' }>): Result<true> {
  const state = r.state;
  const side = state.setup.sides.find((s) => s.id === command.side);
  if (side === undefined) {
    const sides = state.setup.sides.map((s) => s.id).join(', ');
    return err('gm/unknown-side', `there is no side '${command.side}' (sides: ${sides})`);
  }
  const sheet = command.newcomer;
  const unknown = [
    ...sheet.abilities.filter((a) => !Object.hasOwn(state.setup.abilities, a)),
    ...sheet.statuses.map((s) => s.status).filter((s) => !Object.hasOwn(state.setup.statuses, s)),
  ];
  if (unknown.length > 0)
    return err(
      'gm/invalid-newcomer',
      `${sheet.name} uses what this encounter does not know: ${unknown.join(', ')}`,
    );
  const roster = state.order.map((id) => ({ id, name: state.combatants[id]!.sheet.name }));
  const identity = gm.newcomerIdentity(roster, { id: sheet.id, name: sheet.name }, command.name);
  const hp = Math.min(sheet.hp ?? sheet.stats.hp, sheet.stats.hp);
  const combatant: CombatantState = {
    id: identity.id,
    side: side.id,
    sheet: { ...sheet, id: identity.id, name: identity.name },
    hp,
    mp: Math.min(sheet.mp ?? sheet.stats.mp, sheet.stats.mp),
    statuses: sheet.statuses.map((s) => ({
      status: s.status,
      timer: s.timer ?? state.setup.statuses[s.status]!.timer,
    })),
    down: hp <= 0,
    fled: false,
    level: sheet.level,
    xp: sheet.xp,
  };
  if (state.phase !== 'action' || !isActive(combatant)) {
    r.emit({ type: 'combatant-joined', combatant, initiative: null, at: null });
    return ok(true);
  }
  const initiative = rollInitiative(r, combatant);
  const place = moveOnCountdown(state, combatant.id, initiative.initiative);
  r.emit({
    type: 'combatant-joined',
    combatant,
    initiative,
    at: place.passed ? null : place.at,
  });
  return ok(true);
}

/** The combatant's Initiative on this round's countdown: where its turn waits. */
function clock(
  r: Resolution,
  c: CombatantState,
  command: Extract<FfrpgGmCommand, { type: 'gm-clock' }>,
): Result<true> {
  const state = r.state;
  if (state.phase !== 'action')
    return err(
      'gm/no-countdown',
      'Initiative is rolled when a round begins: there is no countdown to move yet',
    );
  if (!isActive(c)) return err('gm/target-out', `${c.sheet.name} is out of the fight`);
  const pending = pendingTurn(state, c.id);
  if (pending === undefined && state.timeline.some((e) => e.kind === 'combatant' && e.id === c.id))
    return err('gm/already-acted', `${c.sheet.name} has acted this round already`);
  const now = state.timeline[state.cursor]?.count ?? 0;
  const from = pending === undefined ? now : state.timeline[pending]!.count;
  const count = command.relative ? from + command.value : command.value;
  if (count < 0) return err('gm/bad-clock', `Initiative counts down to 0, not ${count}`);
  const place = moveOnCountdown(state, c.id, count);
  if (place.passed)
    return err(
      'gm/clock-passed',
      `the countdown is at ${now}: Initiative ${count} has passed this round`,
    );
  r.emit({ type: 'initiative-set', target: c.id, count, at: place.at });
  // Moving the one whose turn it is delays it: the countdown goes on to the next entry.
  if (pending === state.cursor) advance(r);
  return ok(true);
}

function skip(r: Resolution, c: CombatantState): Result<true> {
  const state = r.state;
  if (state.phase !== 'action')
    return err('gm/no-countdown', 'there are no turns to skip between rounds');
  if (currentActor(state)?.id === c.id) {
    r.emit({ type: 'turn-skipped', cursor: state.cursor, actor: c.id, reason: 'the GM skips it' });
    advance(r);
    return ok(true);
  }
  const pending = pendingTurn(state, c.id);
  if (pending === undefined)
    return err('gm/no-turn', `${c.sheet.name} has no turn left this round`);
  r.emit({ type: 'turn-cancelled', actor: c.id, at: pending });
  return ok(true);
}

/** An element named as the text or a table does (`wind` is Air). */
function elementNamed(name: string): Element | undefined {
  const key = name.trim().toLowerCase();
  if ((ELEMENTS as readonly string[]).includes(key)) return key as Element;
  return Object.hasOwn(ELEMENT_ALIASES, key) ? ELEMENT_ALIASES[key] : undefined;
}

/**
 * GM damage (a trap, a fixed event): through the pipeline it has an element's affinity, the
 * Damage Cap and the Rule of 1, but no ARM or barrier, since it is neither Physical nor
 * Magical (docs/rulings.md); `raw` takes the amount as it is. A share of MP damages MP.
 */
function damage(
  r: Resolution,
  c: CombatantState,
  command: Extract<FfrpgGmCommand, { type: 'gm-damage' }>,
): Result<true> {
  if (!isActive(c)) return err('gm/target-out', `${c.sheet.name} is out of the fight`);
  const element = command.element === undefined ? undefined : elementNamed(command.element);
  if (command.element !== undefined && element === undefined)
    return err(
      'gm/unknown-element',
      `'${command.element}' is not an element (elements: ${ELEMENTS.join(', ')})`,
    );
  const amount = gm.resolveGmAmount(command.amount, basisOf(c), r.dice, c.id);
  if (!amount.ok) return amount;
  const pool = isMpShare(command.amount) ? 'mp' : 'hp';
  const base = amount.value.amount;
  const result: DamageResult = command.raw
    ? { amount: base, absorbed: false, breakdown: r.explain ? `${base} (raw)` : '' }
    : computeDamage({
        explain: r.explain,
        base,
        percents: [],
        armor: null,
        barriers: [],
        affinity: element === undefined ? undefined : c.sheet.affinities[element],
        cap: r.state.setup.options.damageCap,
      });
  landDamage(r, 'gm', c.id, result, amount.value.roll ?? null, pool);
  return ok(true);
}

function isMpShare(amount: gm.GmAmount): boolean {
  return typeof amount === 'object' && (amount.of === 'mp' || amount.of === 'max-mp');
}

/**
 * GM healing: never past the maximum. Through the rules it cannot raise a knocked-out
 * combatant (Cure cannot either); `raw` can, as `gm hp` can.
 */
function heal(
  r: Resolution,
  c: CombatantState,
  command: Extract<FfrpgGmCommand, { type: 'gm-heal' }>,
): Result<true> {
  if (c.fled) return err('gm/target-out', `${c.sheet.name} has left the fight`);
  if (c.down && !command.raw)
    return err(
      'gm/target-out',
      `${c.sheet.name} is knocked out: healing raw (or gm hp) brings ${c.sheet.name} back`,
    );
  const amount = gm.resolveGmAmount(command.amount, basisOf(c), r.dice, c.id);
  if (!amount.ok) return amount;
  const { amount: n, roll } = amount.value;
  if (isMpShare(command.amount)) {
    const value = Math.min(c.sheet.stats.mp, c.mp + n);
    r.emit({
      type: 'resource-set',
      target: c.id,
      resource: 'mp',
      value,
      clamped: false,
      revived: false,
    });
    return ok(true);
  }
  const hpAfter = Math.min(c.sheet.stats.hp, c.hp + n);
  if (c.down) {
    r.emit({
      type: 'resource-set',
      target: c.id,
      resource: 'hp',
      value: hpAfter,
      clamped: false,
      revived: hpAfter > 0,
    });
    return ok(true);
  }
  r.emit({
    type: 'healed',
    source: 'gm',
    target: c.id,
    roll: roll ?? null,
    amount: hpAfter - c.hp,
    hpAfter,
  });
  return ok(true);
}
