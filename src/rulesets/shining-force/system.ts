import { err, gm, ok, type Result } from '../../engine/index.js';
import type { EncounterView, GameSystem } from '../system.js';
import { shiningForceCampaign } from './campaign/index.js';
import { DEFAULT_TURNS } from './combat.js';
import type { ShiningForceCommand } from './commands.js';
import {
  type EncounterSpec,
  encounterSpecSchema,
  STARTER_CONTENT_DIR,
  shiningForceKinds,
  shiningForceNewcomer,
  shiningForceSetupFrom,
} from './content.js';
import { derived } from './derived.js';
import { describeEvents } from './describe.js';
import type { ShiningForceEvent } from './events.js';
import { movesOf, terrainOf } from './field.js';
import { gmTarget } from './gm.js';
import { MAX_SIDE, nameOfIndex } from './grid/cells.js';
import { type HeldItem, type ShiningForceSetup, STATUSES } from './model.js';
import { odds } from './odds.js';
import { rolls, shiningForceOrderRolls } from './rolls.js';
import { shiningForce } from './ruleset.js';
import { type CombatantState, combatantOf, currentActor, type ShiningForceState } from './state.js';

/** One letter per combatant on the board: Force members in capitals, monsters in lower case. */
const MARKS = new WeakMap<ShiningForceSetup, Map<string, string>>();

function marksOf(state: ShiningForceState): Map<string, string> {
  let marks = MARKS.get(state.setup);
  if (marks === undefined) {
    marks = new Map();
    MARKS.set(state.setup, marks);
  }
  // Newcomers (`gm add`) get theirs when first drawn: the same letters in every state after.
  if (marks.size < state.combatants.length) {
    const used = new Set<string>([...Object.keys(state.setup.battlefield.terrain), '+']);
    for (const mark of marks.values()) used.add(mark);
    for (const c of state.combatants) {
      const { id } = c;
      if (marks.has(id)) continue;
      const letters = `${c.sheet.name}${id}abcdefghijklmnopqrstuvwxyz0123456789`.replace(
        /[^A-Za-z0-9]/g,
        '',
      );
      let mark = '?';
      for (const ch of letters) {
        const m = c.force ? ch.toUpperCase() : ch.toLowerCase();
        if (!used.has(m)) {
          mark = m;
          break;
        }
      }
      used.add(mark);
      marks.set(id, mark);
    }
  }
  return marks;
}

/** The parts of the board that depend on the battlefield alone, kept per setup. */
interface BoardFrame {
  readonly header: string;
  /** Each row's symbols, and the row as drawn when no one stands on it. */
  readonly cells: readonly (readonly string[])[];
  readonly bareLines: readonly string[];
  readonly terrain: string;
}

const FRAMES = new WeakMap<ShiningForceSetup, BoardFrame>();

function boardFrame(setup: ShiningForceSetup): BoardFrame {
  let frame = FRAMES.get(setup);
  if (frame === undefined) {
    const { width } = terrainOf(setup);
    const cells = setup.battlefield.rows.map((row) => [...row]);
    frame = {
      header: `    ${Array.from({ length: width }, (_, x) => String.fromCharCode(65 + x)).join(' ')}`,
      cells,
      bareLines: cells.map((row, y) => rowLine(y, row)),
      terrain: Object.entries(setup.battlefield.terrain)
        .map(
          ([ch, t]) =>
            `${ch} ${t.name}${t.cost === null ? ' (impassable)' : t.cost > 1 ? ` (${t.cost} to enter)` : ''}`,
        )
        .join(', '),
    };
    FRAMES.set(setup, frame);
  }
  return frame;
}

function rowLine(y: number, row: readonly string[]): string {
  return `${String(y + 1).padStart(3)} ${row.join(' ')}`;
}

/**
 * The battlefield as text: column letters across, row numbers down, each combatant by its
 * letter, terrain by its symbol, and `+` on the cells the one whose turn it is can move to.
 * Only the rows someone stands on (or can move to) are drawn anew: the simulator asks for a
 * view after every battle.
 */
export function drawBoard(state: ShiningForceState): string[] {
  const { width, height } = terrainOf(state.setup);
  const frame = boardFrame(state.setup);
  const marks = marksOf(state);
  const drawn: (string[] | undefined)[] = [];
  const put = (cell: number, mark: string) => {
    const y = Math.floor(cell / width);
    let row = drawn[y];
    if (row === undefined) {
      row = frame.cells[y]!.slice();
      drawn[y] = row;
    }
    row[cell % width] = mark;
  };
  const actor = currentActor(state);
  const moving = actor !== undefined && state.step === 'move';
  if (moving) {
    for (const cell of movesOf(state, actor, derived(state.setup, actor).movement).cells)
      put(cell, '+');
  }
  const legend: string[] = [];
  for (const c of state.combatants) {
    if (c.defeated) continue;
    const mark = marks.get(c.id)!;
    put(c.cell, mark);
    legend.push(`${mark} ${c.sheet.name} ${nameOfIndex(width, c.cell)}`);
  }
  const lines = [frame.header];
  for (let y = 0; y < height; y++) {
    const row = drawn[y];
    lines.push(row === undefined ? frame.bareLines[y]! : rowLine(y, row));
  }
  lines.push(`    ${legend.join(', ')}`);
  lines.push(`    ${frame.terrain}${moving ? ', + can move here' : ''}`);
  return lines;
}

/** Consumable items held (Medical Herbs, Healing Seeds): what a fight uses up. */
export function consumablesHeld(setup: ShiningForceSetup, items: readonly HeldItem[]): number {
  let held = 0;
  for (const h of items) if (setup.items[h.item]?.consumable === true) held++;
  return held;
}

function view(state: ShiningForceState): EncounterView {
  const actor = currentActor(state);
  const { width } = terrainOf(state.setup);
  const timing =
    state.result !== null
      ? `Over after round ${state.round}`
      : state.round === 0
        ? 'Before the battle'
        : `Round ${state.round}${actor === undefined ? '' : `, ${actor.sheet.name} ${state.step === 'move' ? 'to move and act' : 'to act'}`}`;
  return {
    timing,
    order: state.order.map((id, i) => {
      const c = combatantOf(state, id)!;
      const mark = i === state.cursor && state.step !== null ? '>' : ' ';
      const out = c.left !== null ? ` (${c.left})` : c.defeated ? ' (defeated)' : '';
      const skip = state.skipping.includes(id) ? ' (skips its turn)' : '';
      return `${mark} ${i + 1}. ${c.sheet.name}${out}${out === '' && i < state.cursor ? ' (done)' : ''}${skip}`;
    }),
    actor: actor?.id ?? null,
    sides: state.setup.sides.map((s) => ({ id: s.id, name: s.name })),
    clock: {
      round: state.round,
      turn: state.step === null ? null : state.cursor + 1,
      step: state.step,
    },
    combatants: state.combatants.map((c) => {
      const { id } = c;
      const statuses: { id?: string; name: string; timer: string }[] = [];
      for (const s of c.statuses)
        statuses.push({
          id: s.status,
          name: s.status,
          timer: s.turns === null ? '∞' : String(s.turns),
        });
      for (const h of c.items)
        if (h.cracked)
          statuses.push({
            name: `cracked ${state.setup.items[h.item]?.name ?? h.item}`,
            timer: '-',
          });
      const place = c.defeated ? -1 : state.order.indexOf(id);
      return {
        id,
        name: c.sheet.name,
        side: c.side,
        hp: c.hp,
        maxHp: c.sheet.stats.hp,
        mp: c.mp,
        maxMp: c.sheet.stats.mp,
        out: c.defeated,
        fled: c.left === 'fled',
        items: consumablesHeld(state.setup, c.items),
        notes: gm.notesOf(state.notes, id),
        clock: { turn: place < 0 ? null : place + 1, cell: nameOfIndex(width, c.cell) },
        statuses,
      };
    }),
    board: drawBoard(state),
  };
}

/** The combatant a typed name or id means, and the text after it: `goblin 2 c4` -> Goblin 2, `c4`. */
function combatantAndRest(
  state: ShiningForceState,
  text: string,
): { who: string; found: CombatantState | undefined; rest: string } | undefined {
  const lower = text.toLowerCase();
  let best: { found: CombatantState; length: number } | undefined;
  for (const c of state.combatants) {
    for (const name of [c.id, c.sheet.name.toLowerCase()])
      if ((lower === name || lower.startsWith(`${name} `)) && name.length > (best?.length ?? 0))
        best = { found: c, length: name.length };
  }
  if (best !== undefined)
    return { who: best.found.id, found: best.found, rest: text.slice(best.length).trim() };
  const [first, ...rest] = text.split(/\s+/);
  return first === undefined
    ? undefined
    : { who: first.toLowerCase(), found: undefined, rest: rest.join(' ') };
}

/**
 * Typed actions beyond the numbered list: `move max c4` (or `move goblin 2 to c4`, or `move c4`
 * for the one whose turn it is), and the
 * free equipment changes `equip max spear`, `unequip max ring`, `drop max herb` (item by id or
 * name).
 */
function parseAction(state: ShiningForceState, text: string): ShiningForceCommand | undefined {
  const verb = /^(move|equip|unequip|drop)\s+(.+)$/i.exec(text.trim());
  if (verb === null) return undefined;
  // `move c4`: the one whose turn it is, unless a combatant is called so.
  const bare = /^(?:to\s+)?([a-z]\d{1,2})$/i.exec(verb[2]!)?.[1];
  const actor = currentActor(state);
  if (
    verb[1]!.toLowerCase() === 'move' &&
    bare !== undefined &&
    actor !== undefined &&
    combatantOf(state, bare.toLowerCase()) === undefined &&
    Number(bare.slice(1)) <= MAX_SIDE
  )
    return { type: 'move', actor: actor.id, to: bare.toUpperCase() };
  const type = verb[1]!.toLowerCase() as 'move' | 'equip' | 'unequip' | 'drop';
  const parsed = combatantAndRest(state, verb[2]!);
  if (parsed === undefined) return undefined;
  if (type === 'move') {
    const cell = /^(?:to\s+)?([a-z]\d{1,2})$/i.exec(parsed.rest)?.[1]?.toUpperCase();
    if (cell === undefined || Number(cell.slice(1)) > MAX_SIDE) return undefined;
    return { type: 'move', actor: parsed.who, to: cell };
  }
  const wanted = parsed.rest.toLowerCase();
  if (wanted === '') return undefined;
  const held = parsed.found?.items.find(
    (h) => h.item === wanted || state.setup.items[h.item]?.name.toLowerCase() === wanted,
  );
  return { type, actor: parsed.who, item: held?.item ?? wanted };
}

/** The Shining Force tabletop system for the tools: encounter files, the board, descriptions. */
export const shiningForceSystem: GameSystem<
  ShiningForceSetup,
  ShiningForceState,
  ShiningForceCommand,
  ShiningForceEvent,
  EncounterSpec
> = {
  ruleset: shiningForce,
  kinds: shiningForceKinds,
  starterContent: STARTER_CONTENT_DIR,
  encounterSpec: encounterSpecSchema,
  setupFrom: shiningForceSetupFrom,
  view,
  brief(state) {
    return {
      actor: currentActor(state)?.id ?? null,
      combatants: state.combatants.map((c) => ({
        id: c.id,
        side: c.side,
        hp: c.hp,
        out: c.defeated,
      })),
    };
  },
  describe: describeEvents,
  damageOf(event) {
    if (event.type === 'damage-dealt' || event.type === 'effect-damage')
      return { source: event.source, target: event.target, amount: event.amount };
    if (event.type === 'gm-damage-dealt')
      return { source: 'gm', target: event.target, amount: event.amount };
    return undefined;
  },
  rounds: (state) => state.round,
  odds,
  rolls,
  orderRolls: shiningForceOrderRolls,
  gm: {
    resources: [
      {
        name: 'item',
        key: 'item',
        help: 'how many of an item it carries (more go to the bag, fewer leave the bag first)',
      },
      {
        name: 'cracked',
        key: 'item',
        flag: true,
        help: 'whether its item has cracked (the copy in hand first)',
      },
    ],
    clock: "place in this round's turn order, 1 first",
    mp: true,
    elements: [],
    examples: [
      'gm hp goblin -5',
      'gm mp tao 10',
      'gm item max medical-herb +1',
      'gm cracked max bronze-lance yes',
      'gm status goblin +sleep 2',
      'gm status hans -poison',
      'gm add goblin to runefaust as Goblin 3',
      'gm clock dark-mage 1',
      'gm skip ken',
      'gm damage max 12',
      'gm heal lowe 2d4 raw',
      'gm note ken behind the rock',
      'gm move max c4',
    ],
    extra: ['gm move <who> <cell>                   put a unit on a cell (not its move)'],
  },
  gmMenu: () => ({
    statuses: STATUSES.map((id) => ({
      id,
      name: id,
      timer: 'optional' as const,
      usual: DEFAULT_TURNS[id] ?? null,
    })),
    freeStatuses: false,
    timerUnit: 'turns',
    clock: { key: 'turn', label: 'Turn', min: 1 },
    counters: [],
    grid: true,
  }),
  newcomer: shiningForceNewcomer,
  gmStatuses: () => SF_STATUSES,
  campaign: shiningForceCampaign,
  parseGm,
  parseAction,
};

/** `gm move <who> <cell>`: Shining Force's own GM command; undefined for any other line. */
function parseGm(state: ShiningForceState, line: string): Result<ShiningForceCommand> | undefined {
  const words = line.trim().split(/\s+/);
  if (words[0]?.toLowerCase() !== 'move') return undefined;
  const usage = err('gm/usage', 'gm move <who> <cell>, e.g. gm move max c4');
  if (words.length < 3) return usage;
  const cell = words.at(-1)!;
  if (!/^[a-z]\d{1,2}$/i.test(cell)) return usage;
  const who = gmTarget(state, words.slice(1, -1).join(' '));
  if (!who.ok) return who;
  return ok({ type: 'gm-move', target: who.value.id, to: cell.toUpperCase() });
}

const SF_STATUSES: readonly gm.RosterEntry[] = STATUSES.map((id) => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
}));
