/**
 * The GM's commands in Shining Force's terms: HP, MP, items and their cracked state, the eight
 * statuses, a newcomer's place in the turn order and on the grid, and a unit put on a cell.
 * Each is decided into events on the Resolution, like any action, so it is logged, undone and
 * replayed the same way.
 */
import { err, gm, ok, type Result } from '../../engine/index.js';
import { cellName, DEFAULT_POISON, DEFAULT_TURNS, defeat } from './combat.js';
import type { NewcomerSheet, ShiningForceCommand } from './commands.js';
import { BAG_SLOTS, derived, equipped } from './derived.js';
import { cellIndex, combatantFrom, SKIPPED } from './evolve.js';
import { standingAt, terrainOf } from './field.js';
import { nameOfIndex } from './grid/cells.js';
import { type HeldItem, STATUSES, type StatusName } from './model.js';
import { attackDamage } from './rates.js';
import type { Resolution } from './resolution.js';
import {
  type CombatantState,
  combatantOf,
  currentActor,
  hasStatus,
  type ShiningForceState,
} from './state.js';
import { checkEnd, endTurn, nextTurn, turnOrderRoll } from './turns.js';

type GmCommandOf<T extends string> = Extract<ShiningForceCommand, { type: T }>;
export type ShiningForceGmCommand = Extract<
  ShiningForceCommand,
  { type: gm.GmCommandType | 'gm-move' }
>;

export function isShiningForceGm(command: ShiningForceCommand): command is ShiningForceGmCommand {
  // The prefix first: a player's command (every simulated one) then skips the search of the list.
  return command.type.startsWith('gm-') && (command.type === 'gm-move' || gm.isGmCommand(command));
}

/** Typed names the table uses for the eight statuses, besides the names themselves. */
const STATUS_WORDS: Readonly<Record<string, StatusName>> = {
  charm: 'charmed',
  confusion: 'confused',
  muddle: 'confused',
  paralysis: 'paralysed',
  paralyzed: 'paralysed',
  poisoned: 'poison',
  asleep: 'sleep',
  cursed: 'curse',
  freeze: 'frozen',
};

export function statusNamed(word: string): StatusName | undefined {
  const lower = word.toLowerCase();
  if ((STATUSES as readonly string[]).includes(lower)) return lower as StatusName;
  return Object.hasOwn(STATUS_WORDS, lower) ? STATUS_WORDS[lower] : undefined;
}

/** The combatant a GM command names: by id, or else by name as the table says it. */
export function gmTarget(state: ShiningForceState, who: string): Result<CombatantState> {
  const byId = combatantOf(state, who);
  if (byId !== undefined) return ok(byId);
  const found = gm.findCombatant(rosterOf(state), who);
  return found.ok ? ok(combatantOf(state, found.value)!) : found;
}

/** Every combatant's id and name, as the engine's GM helpers take them. */
function rosterOf(state: ShiningForceState): { id: string; name: string }[] {
  return state.combatants.map((c) => ({ id: c.id, name: c.sheet.name }));
}

function standing(c: CombatantState, what: string): Result<CombatantState> {
  if (c.left !== null) return err('gm/left', `${c.sheet.name} has left the battle (${c.left})`);
  if (c.defeated)
    return err('gm/defeated', `${c.sheet.name} is defeated: ${what} (gm hp raises them)`);
  return ok(c);
}

/** Decides a GM command, then moves the battle on as its change requires. */
export function resolveGm(r: Resolution, command: ShiningForceGmCommand): Result<true> {
  if (command.type === 'gm-add') {
    const added = add(r, command);
    if (!added.ok) return added;
    return settle(r);
  }
  const found = gmTarget(r.state, command.target);
  if (!found.ok) return found;
  const target = found.value;
  let done: Result<true>;
  switch (command.type) {
    case 'gm-note': {
      const event = gm.noteEvent(r.state.notes, target.id, command.text, target.sheet.name);
      if (!event.ok) return event;
      r.emit(event.value);
      return ok(true);
    }
    case 'gm-set':
      done = set(r, target, command);
      break;
    case 'gm-status':
      done = status(r, target, command);
      break;
    case 'gm-remove':
      done = remove(r, target, command.reason);
      break;
    case 'gm-clock':
      return clock(r, target, command);
    case 'gm-skip':
      return skip(r, target);
    case 'gm-damage':
      done = damage(r, target, command);
      break;
    case 'gm-heal':
      done = heal(r, target, command);
      break;
    case 'gm-move':
      done = place(r, target, command.to);
      break;
  }
  if (!done.ok) return done;
  return settle(r);
}

/**
 * After a GM change: a side with nobody standing has lost; the one whose turn it is, if it can
 * no longer act (defeated, gone, asleep), loses the rest of its turn and the next one begins.
 */
function settle(r: Resolution): Result<true> {
  if (r.state.round === 0 || r.state.result !== null) return ok(true);
  if (checkEnd(r)) return ok(true);
  const actor = currentActor(r.state);
  if (actor === undefined) return ok(true);
  if (actor.defeated || hasStatus(actor, 'sleep') !== undefined) {
    if (!actor.defeated) r.emit({ type: 'turn-lost', actor: actor.id, reason: 'asleep' });
    endTurn(r, actor.id);
    nextTurn(r);
  }
  return ok(true);
}

/** A value set or changed, clamped to its range; `clamped` says the GM asked for more. */
function clampTo(
  current: number,
  value: number,
  relative: boolean,
  max: number,
): { after: number; clamped: boolean } {
  const wanted = relative ? current + value : value;
  const after = Math.max(0, Math.min(max, wanted));
  return { after, clamped: after !== wanted };
}

const RESOURCES = ['hp', 'mp', 'item', 'cracked'] as const;

function set(r: Resolution, target: CombatantState, command: GmCommandOf<'gm-set'>): Result<true> {
  const resource = command.resource.toLowerCase();
  if (resource === 'hp' || resource === 'mp') {
    if (command.key !== undefined)
      return err('gm/bad-key', `${resource} is not counted per anything: leave out the key`);
    if (target.left !== null)
      return err('gm/left', `${target.sheet.name} has left the battle (${target.left})`);
    const max = resource === 'hp' ? target.sheet.stats.hp : target.sheet.stats.mp;
    const before = resource === 'hp' ? target.hp : target.mp;
    const { after, clamped } = clampTo(before, command.value, command.relative, max);
    const raised = resource === 'hp' && after > 0 && target.defeated;
    // Another unit may have stepped onto the cell it fell on: it stands up on the free cell
    // nearest, never on a taken one.
    let moveTo: number | null = null;
    if (raised && standingAt(r.state, target.cell) !== undefined) {
      moveTo = nearestFreeCell(r.state, target.cell);
      if (moveTo === null)
        return err('gm/no-room', `every cell is taken: ${target.sheet.name} has nowhere to stand`);
    }
    r.emit({ type: 'points-set', target: target.id, resource, before, after, clamped });
    // "If an individual's hit points are reduced to 0, they are defeated"; above 0 again, back.
    if (resource === 'hp' && after === 0) defeat(r, target.id, null);
    if (raised) {
      if (moveTo !== null)
        r.emit({
          type: 'placed',
          target: target.id,
          from: cellName(r, target.cell),
          to: cellName(r, moveTo),
        });
      r.emit({ type: 'revived', target: target.id });
    }
    return ok(true);
  }
  if (resource !== 'item' && resource !== 'cracked')
    return err(
      'gm/unknown-resource',
      `Shining Force has no resource '${command.resource}' (resources: ${RESOURCES.join(', ')})`,
    );
  if (command.key === undefined)
    return err('gm/no-key', `${resource} is counted per item: name the item`);
  // The item by id, or by name as the table says it (`medical herb`).
  const wanted = command.key.toLowerCase();
  const found = Object.entries(r.state.setup.items).find(
    ([id, i]) => id === wanted || i.name.toLowerCase() === wanted,
  );
  if (found === undefined)
    return err('gm/unknown-key', `there is no item '${command.key}' in this battle`);
  const [id, item] = found;
  if (target.left !== null)
    return err('gm/left', `${target.sheet.name} has left the battle (${target.left})`);
  return resource === 'item'
    ? setItemCount(r, target, id, command.value, command.relative)
    : setCracked(r, target, id, item.name, command.value, command.relative);
}

/**
 * How many of an item a combatant carries: more go to the bag (as far as its four slots
 * allow), fewer come out of the bag first and only then out of the hand.
 */
function setItemCount(
  r: Resolution,
  target: CombatantState,
  itemId: string,
  value: number,
  relative: boolean,
): Result<true> {
  const before = target.items.filter((h) => h.item === itemId).length;
  const room = BAG_SLOTS - target.items.filter((h) => !h.equipped).length;
  const { after, clamped } = clampTo(before, value, relative, before + room);
  let items: HeldItem[] = [...target.items];
  for (let n = before; n < after; n++)
    items.push({ item: itemId, cracked: false, equipped: false });
  for (let n = before; n > after; n--) {
    let at = lastIndex(items, (h) => h.item === itemId && !h.equipped);
    if (at < 0) at = lastIndex(items, (h) => h.item === itemId);
    items = items.filter((_, i) => i !== at);
  }
  r.emit({ type: 'items-set', target: target.id, item: itemId, before, after, clamped, items });
  // A cursed item taken out of the hand takes its Curse with it.
  const curse = hasStatus(r.combatant(target.id), 'curse');
  if (curse !== undefined && after < before) {
    const still = r
      .combatant(target.id)
      .items.some((h) => h.equipped && r.state.setup.items[h.item]?.curse !== undefined);
    if (!still) r.emit({ type: 'status-ended', target: target.id, status: 'curse', reason: 'gm' });
  }
  return ok(true);
}

function lastIndex<T>(list: readonly T[], test: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}

/** An item's cracked state, yes (1) or no (0): the copy in hand first, then one in the bag. */
function setCracked(
  r: Resolution,
  target: CombatantState,
  itemId: string,
  name: string,
  value: number,
  relative: boolean,
): Result<true> {
  if (relative || (value !== 0 && value !== 1)) return err('gm/bad-value', 'cracked is yes or no');
  const cracked = value === 1;
  const copies = target.items
    .map((h, slot) => ({ h, slot }))
    .filter(({ h }) => h.item === itemId)
    .sort((a, b) => Number(b.h.equipped) - Number(a.h.equipped));
  if (copies.length === 0) return err('gm/no-item', `${target.sheet.name} carries no ${name}`);
  const pick = copies.find(({ h }) => h.cracked !== cracked);
  if (pick === undefined)
    return err(
      'gm/no-change',
      `${target.sheet.name}'s ${name} is ${cracked ? 'cracked' : 'sound'} already`,
    );
  r.emit({ type: 'item-cracked-set', target: target.id, item: itemId, slot: pick.slot, cracked });
  return ok(true);
}

function status(
  r: Resolution,
  target: CombatantState,
  command: GmCommandOf<'gm-status'>,
): Result<true> {
  const name = statusNamed(command.status);
  if (name === undefined)
    return err(
      'gm/unknown-status',
      `Shining Force has no status '${command.status}' (statuses: ${STATUSES.join(', ')})`,
    );
  const alive = standing(target, 'a status cannot be put on them');
  if (!alive.ok) return alive;
  if (command.remove) {
    if (hasStatus(target, name) === undefined)
      return err('gm/no-status', `${target.sheet.name} is not ${name}`);
    r.emit({ type: 'status-ended', target: target.id, status: name, reason: 'gm' });
    return ok(true);
  }
  const turns =
    command.timer === undefined
      ? DEFAULT_TURNS[name]
      : command.timer === 'infinite'
        ? null
        : command.timer;
  let extra: { amount?: number; side?: string } = {};
  if (name === 'poison') extra = { amount: DEFAULT_POISON };
  if (name === 'charmed') {
    // Charmed: "the status inflicter controls the charmed target(s)". Put on by the GM, the
    // first other side in the battle's order controls it (docs/rulings.md).
    const side = r.state.setup.sides.find((s) => s.id !== target.side);
    extra = { side: side!.id };
  }
  let curse: CombatantState['statuses'][number]['curse'];
  if (name === 'curse') {
    // A Curse "has a certain effect as determined by the item causing": it needs the item.
    for (const type of ['weapon', 'accessory'] as const) {
      curse ??= equipped(r.state.setup, target, type)?.item.curse;
    }
    if (curse === undefined)
      return err(
        'gm/no-curse',
        `a Curse does what its cursed item does: ${target.sheet.name} wears no cursed item`,
      );
  }
  r.emit({
    type: 'status-inflicted',
    target: target.id,
    instance: {
      status: name,
      turns,
      ...(extra.amount === undefined ? {} : { amount: extra.amount }),
      ...(extra.side === undefined ? {} : { side: extra.side }),
      ...(curse === undefined ? {} : { curse }),
    },
    chance: null,
    roll: null,
    gm: true,
  });
  return ok(true);
}

function remove(r: Resolution, target: CombatantState, reason: 'fled' | 'dismissed'): Result<true> {
  if (target.left !== null)
    return err('gm/left', `${target.sheet.name} has left the battle (${target.left})`);
  r.emit({ type: 'combatant-left', target: target.id, reason });
  return ok(true);
}

/**
 * Its place in this round's turn order (1 is first). The one whose turn it is may only wait
 * for a later place: its turn is put off and the next one begins. Anyone else moves freely:
 * moved before the one acting now, it has had its turn this round; after, it has it to come.
 */
function clock(
  r: Resolution,
  target: CombatantState,
  command: GmCommandOf<'gm-clock'>,
): Result<true> {
  const { state } = r;
  if (state.round === 0)
    return err('gm/no-order', 'the turn order is rolled when the battle begins');
  const alive = standing(target, 'it has no place in the order');
  if (!alive.ok) return alive;
  const from = state.order.indexOf(target.id);
  if (from < 0)
    return err(
      'gm/not-in-order',
      `${target.sheet.name} has no place in this round's order: it takes one next round`,
    );
  const wanted = command.relative ? from + command.value : command.value - 1;
  const to = Math.max(0, Math.min(state.order.length - 1, wanted));
  const acting = currentActor(state)?.id === target.id;
  if (acting && to < from)
    return err(
      'gm/clock-past',
      `${target.sheet.name} is acting now: it can wait for a later place, not an earlier one`,
    );
  const order = state.order.filter((id) => id !== target.id);
  order.splice(to, 0, target.id);
  const delayed = acting && to > from;
  const current = state.order[state.cursor];
  const cursor = delayed ? from - 1 : current === undefined ? state.cursor : order.indexOf(current);
  r.emit({
    type: 'order-set',
    target: target.id,
    from: from + 1,
    to: to + 1,
    clamped: to !== wanted,
    order,
    cursor,
    delayed,
  });
  if (delayed) nextTurn(r);
  return ok(true);
}

/** Its turn passes without an action: now, if it is acting, or else its next turn. */
function skip(r: Resolution, target: CombatantState): Result<true> {
  const alive = standing(target, 'it has no turn to skip');
  if (!alive.ok) return alive;
  if (currentActor(r.state)?.id === target.id) {
    r.emit({ type: 'turn-lost', actor: target.id, reason: SKIPPED });
    endTurn(r, target.id);
    nextTurn(r);
    return ok(true);
  }
  if (r.state.skipping.includes(target.id))
    return err('gm/skipping', `${target.sheet.name}'s next turn passes already`);
  r.emit({ type: 'skip-ordered', target: target.id });
  return ok(true);
}

/**
 * A trap or an event: through the damage rules it strikes as a blow of that Attack (Attack
 * minus Defence, never below the minimum damage); raw, exactly the amount. Shining Force has
 * no elements.
 */
function damage(
  r: Resolution,
  target: CombatantState,
  command: GmCommandOf<'gm-damage'>,
): Result<true> {
  if (command.element !== undefined)
    return err('gm/unknown-element', `Shining Force has no elements ('${command.element}')`);
  const alive = standing(target, 'they take no more damage');
  if (!alive.ok) return alive;
  const amount = gm.resolveGmAmount(command.amount, basisOf(target), r.dice, target.id);
  if (!amount.ok) return amount;
  const base = amount.value.amount;
  let dealt = base;
  let breakdown = `${base} raw`;
  if (!command.raw && base > 0) {
    const d = derived(r.state.setup, target);
    const blow = attackDamage(base, d.defence, 0, null, r.state.setup.options.minimumDamage);
    dealt = blow.amount;
    breakdown = blow.steps.join(', ').replace(/^ATT /, 'GM ');
  }
  const hpAfter = Math.max(0, target.hp - dealt);
  r.emit({
    type: 'gm-damage-dealt',
    target: target.id,
    amount: dealt,
    hpAfter,
    breakdown,
    roll: amount.value.roll ?? null,
  });
  if (hpAfter === 0) defeat(r, target.id, null);
  return ok(true);
}

/** Healing as a GM effect, up to maximum HP; the defeated are raised with `gm hp` instead. */
function heal(
  r: Resolution,
  target: CombatantState,
  command: GmCommandOf<'gm-heal'>,
): Result<true> {
  const alive = standing(target, 'healing does not raise them');
  if (!alive.ok) return alive;
  const amount = gm.resolveGmAmount(command.amount, basisOf(target), r.dice, target.id);
  if (!amount.ok) return amount;
  const hpAfter = Math.min(target.sheet.stats.hp, target.hp + amount.value.amount);
  r.emit({
    type: 'gm-healed',
    target: target.id,
    amount: hpAfter - target.hp,
    hpAfter,
    roll: amount.value.roll ?? null,
  });
  return ok(true);
}

function basisOf(c: CombatantState): gm.AmountBasis {
  return { hp: c.hp, maxHp: c.sheet.stats.hp, mp: c.mp, maxMp: c.sheet.stats.mp };
}

/** `gm move`: a unit put on a cell whatever the movement cost; never onto rock, water or a unit. */
function place(r: Resolution, target: CombatantState, to: string): Result<true> {
  const alive = standing(target, 'the defeated stay where they fell');
  if (!alive.ok) return alive;
  const cell = cellIndex(r.state.setup, to);
  if (cell < 0) return err('gm/off-the-field', `${to.toUpperCase()} is not on the battlefield`);
  const free = freeCell(r.state, cell);
  if (!free.ok) return free;
  r.emit({
    type: 'placed',
    target: target.id,
    from: cellName(r, target.cell),
    to: cellName(r, cell),
  });
  return ok(true);
}

function freeCell(state: ShiningForceState, cell: number): Result<true> {
  const terrain = terrainOf(state.setup);
  const name = cellNameOf(state, cell);
  if ((terrain.costs[cell] ?? 0) <= 0) return err('gm/impassable', `${name} is impassable`);
  const there = standingAt(state, cell);
  if (there !== undefined) return err('gm/occupied', `${there.sheet.name} stands on ${name}`);
  return ok(true);
}

function cellNameOf(state: ShiningForceState, cell: number): string {
  return nameOfIndex(terrainOf(state.setup).width, cell);
}

/** The free passable cell nearest (in steps across the grid) to `from`, the first in reading order on a tie. */
function nearestFreeCell(state: ShiningForceState, from: number): number | null {
  const { width, height, costs } = terrainOf(state.setup);
  let best: number | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let cell = 0; cell < width * height; cell++) {
    if ((costs[cell] ?? 0) <= 0 || standingAt(state, cell) !== undefined) continue;
    const distance =
      Math.abs((from % width) - (cell % width)) +
      Math.abs(Math.floor(from / width) - Math.floor(cell / width));
    if (distance < bestDistance) {
      best = cell;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The free passable cell nearest (in steps across the grid) to a standing member of the side,
 * the first in reading order on a tie; null when every cell is taken.
 */
export function arrivalCell(state: ShiningForceState, side: string): number | null {
  const { width, height, costs } = terrainOf(state.setup);
  const taken = new Set<number>();
  const friends: number[] = [];
  for (const c of state.combatants) {
    if (c.defeated) continue;
    taken.add(c.cell);
    if (c.side === side) friends.push(c.cell);
  }
  let best: number | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let cell = 0; cell < width * height; cell++) {
    if ((costs[cell] ?? 0) <= 0 || taken.has(cell)) continue;
    let distance = friends.length === 0 ? 0 : Number.POSITIVE_INFINITY;
    for (const f of friends) {
      const steps =
        Math.abs((f % width) - (cell % width)) +
        Math.abs(Math.floor(f / width) - Math.floor(cell / width));
      distance = Math.min(distance, steps);
    }
    if (distance < bestDistance) {
      best = cell;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * `gm add`: the newcomer stands on the free cell nearest its side (or the cell its sheet
 * names) and, in a round under way, rolls for the turn order as everyone did at the round's
 * start, taking its place among those yet to act; before the battle it rolls with everyone.
 */
function add(r: Resolution, command: GmCommandOf<'gm-add'>): Result<true> {
  const { state } = r;
  const sheet: NewcomerSheet = command.newcomer;
  const side = state.setup.sides.find((s) => s.id === command.side);
  if (side === undefined)
    return err(
      'gm/unknown-side',
      `there is no side '${command.side}' (sides: ${state.setup.sides.map((s) => s.id).join(', ')})`,
    );
  const known = knownContent(state, sheet);
  if (!known.ok) return known;
  const identity = gm.newcomerIdentity(
    rosterOf(state),
    { id: sheet.id, name: sheet.name },
    command.name,
  );
  let cell: number;
  if (sheet.at !== undefined) {
    cell = cellIndex(state.setup, sheet.at);
    if (cell < 0) return err('gm/off-the-field', `${sheet.at} is not on the battlefield`);
    const free = freeCell(state, cell);
    if (!free.ok) return free;
  } else {
    const found = arrivalCell(state, side.id);
    if (found === null) return err('gm/no-room', 'every cell of the battlefield is taken');
    cell = found;
  }
  const at = cellNameOf(state, cell);
  const combatant = combatantFrom(
    state.setup,
    { ...sheet, id: identity.id, name: identity.name, at },
    side,
  );
  let roll = null;
  let value = null;
  let place = null;
  if (state.round > 0 && state.result === null && !combatant.defeated) {
    const rolled = turnOrderRoll(r, combatant);
    roll = rolled.roll;
    value = rolled.value;
    // Among those yet to act, after every one whose value is as high or higher.
    place = state.order.length;
    for (let i = state.cursor + 1; i < state.order.length; i++) {
      const other = state.turnValues[state.order[i]!] ?? 0;
      if (value > other) {
        place = i;
        break;
      }
    }
  }
  r.emit({ type: 'combatant-joined', combatant, at, roll, value, place });
  return ok(true);
}

/** A newcomer's items, spells and attack must be ones this battle's setup knows. */
function knownContent(state: ShiningForceState, sheet: NewcomerSheet): Result<true> {
  const { setup } = state;
  for (const held of sheet.items)
    if (!Object.hasOwn(setup.items, held.item))
      return err('gm/unknown-content', `${sheet.name} carries an unknown item '${held.item}'`);
  for (const spell of sheet.spells)
    if (!Object.hasOwn(setup.spells, spell))
      return err('gm/unknown-content', `${sheet.name} knows an unknown spell '${spell}'`);
  if (sheet.attack !== undefined && !Object.hasOwn(setup.patterns, sheet.attack.range))
    return err('gm/unknown-content', `${sheet.name} attacks with an unknown range`);
  if (sheet.items.filter((h) => !h.equipped).length > BAG_SLOTS)
    return err('gm/unknown-content', `${sheet.name} carries more than ${BAG_SLOTS} items`);
  return ok(true);
}
