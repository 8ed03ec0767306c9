/**
 * The encounter builder's choices, and the encounter file they make: a plain object the page
 * writes out as YAML, so a built fight goes through every check a file does on the server.
 * Pure: no DOM, so its rules are tested without a browser.
 */
import type { OptionValue } from './options.js';

export interface DraftCombatant {
  /** Unique within the draft; the page's key for it. */
  readonly key: number;
  readonly sheet: 'character' | 'monster';
  /** The content id. */
  readonly ref: string;
  /** Shining Force: its cell, `C4`. */
  readonly at?: string;
  /** A monster's maximum HP in this fight, in place of its sheet's (`maxHp:`): a tune's answer. */
  readonly maxHp?: number;
}

export interface DraftSide {
  readonly key: number;
  readonly name: string;
  readonly combatants: readonly DraftCombatant[];
}

export interface DraftEvent {
  readonly key: number;
  readonly name: string;
  readonly initiative: number;
  /** Absent: the first round. */
  readonly round?: number;
}

export interface Draft {
  readonly system: string;
  readonly name: string;
  readonly sides: readonly DraftSide[];
  /** The key of the players' side: first in the file, and marked where the system marks it. */
  readonly players: number | null;
  /** Only the options the GM changed: the rest stay the system's defaults. */
  readonly options: Readonly<Record<string, OptionValue>>;
  /** FFRPG: a battle or a Scene; its level table for level-ups after a victory; fixed events. */
  readonly mode: 'battle' | 'scene';
  readonly levelTable: string | null;
  readonly events: readonly DraftEvent[];
  /** Shining Force: the battlefield's rows, in the default terrain's letters. */
  readonly rows: readonly string[];
}

/** The field that marks the players' side, where the system's encounter spec has one. */
const PLAYERS_FLAG: Readonly<Record<string, string>> = {
  ffrpg: 'party',
  zodiac: 'party',
  'shining-force': 'force',
};

export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A slug not yet taken, `base`, `base-2`, ... */
function unique(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Sides in the file's order: the players' side first (FFVIII knows it only by that). */
export function orderedSides(draft: Draft): DraftSide[] {
  const players = draft.sides.filter((s) => s.key === draft.players);
  return [...players, ...draft.sides.filter((s) => s.key !== draft.players)];
}

/**
 * Who each pick is in the file, by its key: a sheet that fights more than once gets an id and
 * a name of its own from its second time on (`goblin-2`, "Goblin 2"), as the examples do.
 */
export function combatantNames(
  draft: Draft,
  names: ReadonlyMap<string, string>,
): Map<number, { readonly id?: string; readonly name: string }> {
  const taken = new Set<string>(draft.sides.flatMap((s) => s.combatants.map((c) => c.ref)));
  const seen = new Map<string, number>();
  const named = new Map<number, { id?: string; name: string }>();
  for (const side of orderedSides(draft)) {
    for (const c of side.combatants) {
      const times = (seen.get(c.ref) ?? 0) + 1;
      seen.set(c.ref, times);
      const name = names.get(c.ref) ?? c.ref;
      named.set(
        c.key,
        times > 1 ? { id: unique(`${c.ref}-${times}`, taken), name: `${name} ${times}` } : { name },
      );
    }
  }
  return named;
}

/** The encounter file the choices make. */
export function encounterFile(
  draft: Draft,
  names: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const sideIds = new Set<string>();
  const named = combatantNames(draft, names);
  const flag = PLAYERS_FLAG[draft.system];
  const sides = orderedSides(draft).map((side, i) => {
    const combatants = side.combatants.map((c) => {
      const entry: Record<string, unknown> = { [c.sheet]: c.ref };
      const own = named.get(c.key);
      if (own?.id !== undefined) {
        entry.id = own.id;
        entry.name = own.name;
      }
      if (draft.system === 'shining-force' && c.at !== undefined) entry.at = c.at;
      if (c.sheet === 'monster' && c.maxHp !== undefined) entry.maxHp = c.maxHp;
      return entry;
    });
    return {
      id: unique(slug(side.name) || `side-${i + 1}`, sideIds),
      name: side.name.trim() || `Side ${i + 1}`,
      ...(flag !== undefined && side.key === draft.players ? { [flag]: true } : {}),
      combatants,
    };
  });
  const eventIds = new Set<string>();
  return {
    format: 1,
    ruleset: draft.system,
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    ...(draft.system === 'shining-force' ? { battlefield: { rows: [...draft.rows] } } : {}),
    ...(draft.system === 'ffrpg' && draft.mode === 'scene' ? { mode: 'scene' } : {}),
    sides,
    ...(draft.system === 'ffrpg' && draft.levelTable !== null
      ? { levelTable: draft.levelTable }
      : {}),
    ...(draft.system === 'ffrpg' && draft.events.length > 0
      ? {
          events: draft.events.map((e, i) => ({
            id: unique(slug(e.name) || `event-${i + 1}`, eventIds),
            name: e.name.trim() || `Event ${i + 1}`,
            initiative: e.initiative,
            ...(e.round === undefined ? {} : { round: e.round }),
          })),
        }
      : {}),
    ...(Object.keys(draft.options).length > 0 ? { options: { ...draft.options } } : {}),
  };
}

/** `C4`: column letter, row number from 1, as the battlefield's cells are named. */
export function cellName(column: number, row: number): string {
  return `${String.fromCharCode(65 + column)}${row + 1}`;
}

/** Water and rock, in the default terrain, cannot be stood on. */
export function standable(terrain: string | undefined): boolean {
  return terrain !== undefined && terrain !== '~' && terrain !== '#';
}

export function terrainAt(rows: readonly string[], cell: string): string | undefined {
  const match = /^([A-Za-z])(\d{1,2})$/.exec(cell);
  if (!match) return undefined;
  const column = match[1]!.toUpperCase().charCodeAt(0) - 65;
  return rows[Number(match[2]) - 1]?.[column];
}

/**
 * The next free cell a newly picked unit starts on: the players' side fills the battlefield
 * from its left edge, the others from its right, column by column, as the example's sides
 * face each other across the field.
 */
export function startCell(draft: Draft, sideKey: number): string | undefined {
  const taken = new Set(draft.sides.flatMap((s) => s.combatants.flatMap((c) => c.at ?? [])));
  const width = draft.rows[0]?.length ?? 0;
  const players = (draft.players ?? draft.sides[0]?.key) === sideKey;
  for (let step = 0; step < width; step++) {
    const column = players ? step : width - 1 - step;
    for (let row = 0; row < draft.rows.length; row++) {
      const cell = cellName(column, row);
      if (!taken.has(cell) && standable(draft.rows[row]![column])) return cell;
    }
  }
  return undefined;
}
