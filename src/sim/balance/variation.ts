/**
 * One numeric field of one content sheet, set to a value: the sheet is copied, checked again by
 * its kind's schema, put in a copy of the library in place of the original, and the encounter's
 * setup built afresh from its spec by the system's own `setupFrom`. The built setup is never
 * edited, so whatever the system derives from the field (a maximum, a cap, a starting value)
 * follows it as it would from a content file that said so.
 */

import { MAX_HP_FIELD } from '../../content/encounter-sheets.js';
import { describeValue } from '../../content/errors.js';
import {
  ContentLibrary,
  checkAgainstSchema,
  entityFields,
  formatPath,
  parsePath,
} from '../../content/index.js';
import type { Entity } from '../../content/kind.js';
import type { EncounterFile } from '../../encounters/file.js';
import { err, ok, type Result } from '../../engine/index.js';
import type { VarySpec } from './spec.js';

export interface Variation {
  /** `heket.stats.hp`, as the user wrote it. */
  readonly name: string;
  /** The content kind of the sheet: `ffrpg/monster`. */
  readonly kind: string;
  /** The value the encounter has now. */
  readonly original: number;
  /** Where that value is written: `the ffrpg/monster sheet`, `the encounter`. */
  readonly originalIn: string;
  /** True when the schema takes only whole numbers there: the search moves by whole steps. */
  readonly whole: boolean;
  /** The encounter's setup with the field at `value`, or why the schema or the system refuse it. */
  setupAt(value: number): Result<unknown>;
}

type Path = readonly (string | number)[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The sides of an encounter file's document, as written. */
function sidesOf(spec: unknown): unknown[] {
  return isRecord(spec) && Array.isArray(spec.sides) ? (spec.sides as unknown[]) : [];
}

/** The content ids of the sheets an encounter's spec names, with the kind word naming them. */
function sheetsUsed(spec: unknown): Map<string, Set<'character' | 'monster'>> {
  const used = new Map<string, Set<'character' | 'monster'>>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (isRecord(value)) {
      for (const key of ['character', 'monster'] as const) {
        const id = value[key];
        if (typeof id === 'string') used.set(id, (used.get(id) ?? new Set()).add(key));
      }
      for (const inner of Object.values(value)) walk(inner);
    }
  };
  walk(spec);
  return used;
}

function fieldsOf(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (!isRecord(value)) return describeValue(value);
  const keys = Object.keys(value).sort();
  return keys.length === 0 ? 'no fields' : `the fields ${keys.join(', ')}`;
}

/** The value at `path`, or a sentence saying where the path leaves the sheet. */
function read(sheet: unknown, path: Path, name: string): Result<unknown> {
  let here: unknown = sheet;
  for (const [i, key] of path.entries()) {
    const container = here;
    const where = i === 0 ? 'the sheet' : formatPath(path.slice(0, i));
    const found =
      typeof key === 'number'
        ? Array.isArray(container)
          ? container[key]
          : undefined
        : isRecord(container) && Object.hasOwn(container, key)
          ? container[key]
          : undefined;
    if (found === undefined) {
      return err(
        'balance/no-field',
        `${name}: ${where} has no ${typeof key === 'number' ? `item [${key}]` : `field '${key}'`}; it has ${fieldsOf(container)}`,
      );
    }
    here = found;
  }
  return ok(here);
}

/** A copy of `sheet` with `value` at `path` (which `read` found). */
function write(sheet: unknown, path: Path, value: number): unknown {
  const copy = structuredClone(sheet) as Record<string | number, unknown>;
  let here = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path.at(-1)!] = value;
  return copy;
}

/**
 * The variation `vary` names in `encounter`: a sheet the encounter uses (a character id wins
 * where a character and a monster share it, as in `gm add`), and a number in it.
 */
export function variationOf(
  encounter: EncounterFile,
  vary: Pick<VarySpec, 'combatant' | 'field'>,
): Result<Variation> {
  const name = `${vary.combatant}.${vary.field}`;
  const { system, library, spec } = encounter;
  const used = sheetsUsed(spec);
  if (vary.field === MAX_HP_FIELD) return maxHpVariation(encounter, vary);
  const words = used.get(vary.combatant);
  if (words === undefined) {
    const ids = [...used.keys()].join(', ');
    return err(
      'balance/no-combatant',
      `--vary ${name}: the encounter uses no character or monster '${vary.combatant}'; it uses ${ids || 'none'}`,
    );
  }
  const word = words.has('character') ? 'character' : 'monster';
  if (vary.field === COUNT_FIELD && word === 'monster') return countVariation(encounter, vary);
  const kind = system.kinds.find((k) => k.kind.endsWith(`/${word}`));
  const sheet = kind === undefined ? undefined : library.get(kind, vary.combatant);
  if (kind === undefined || sheet === undefined) {
    // The encounter was built, so the sheet is there: anything else is a fault of Moogle's.
    throw new Error(`the ${word} '${vary.combatant}' the encounter uses is not in its library`);
  }
  const path = parsePath(vary.field);
  if (path === undefined) {
    return err(
      'balance/bad-path',
      `--vary ${name}: '${vary.field}' is not a field path (write it as in the content file: stats.hp, abilities[0].power)`,
    );
  }
  const found = read(sheet, path, `--vary ${name}`);
  if (!found.ok) return found;
  if (typeof found.value !== 'number') {
    return err(
      'balance/not-a-number',
      `--vary ${name}: the field is ${describeValue(found.value)} in ${kind.kind} '${vary.combatant}', not a number`,
    );
  }
  const original = found.value;
  const fields = entityFields(sheet);
  const accepts = (value: number): boolean => {
    const checked = kind.schema.safeParse(write(fields, path, value));
    return checked.success;
  };
  // A whole number the schema keeps whole: no half step either side of it is accepted.
  const whole = Number.isInteger(original) && !accepts(original + 0.5) && !accepts(original - 0.5);
  const entries = library.toJSON().entries;
  const base = { ...(sheet as Entity<unknown>) };
  return ok({
    name,
    kind: kind.kind,
    original,
    originalIn: `the ${kind.kind} sheet`,
    whole,
    setupAt(value: number): Result<unknown> {
      const checked = checkAgainstSchema(write(fields, path, value), kind.schema);
      if (!checked.ok) {
        const issue = checked.issues[0]!;
        const at = formatPath(issue.path);
        return err(
          'balance/refused-value',
          `--vary ${name}: ${kind.kind} '${vary.combatant}' refuses ${value}${at === vary.field || at === '' ? '' : ` (at ${at})`}: ${issue.message}`,
        );
      }
      const varied = { ...base, ...(checked.data as object) } as Entity<unknown>;
      const swapped = entries.map((e) =>
        e.entity.kind === kind.kind && e.entity.id === vary.combatant
          ? { file: e.file, entity: varied }
          : e,
      );
      return builtWith(
        name,
        value,
        system.setupFrom(new ContentLibrary(library.kinds(), swapped), spec),
      );
    },
  });
}

/** `goblin.count`: how many of a monster fight, rather than a field of its sheet. */
export const COUNT_FIELD = 'count';
/** The most copies of one monster a count variation puts in the fight. */
export const MAX_COUNT = 50;

interface SpecEntry {
  readonly monster?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly at?: unknown;
}

/**
 * `goblin.count`: the encounter with N copies of the monster on the side where it first
 * fights, in its place there, named as the builder names them (`goblin-2`, "Goblin 2"); its
 * other entries on that side go, so N is the whole count. Copies of a unit with a cell would
 * need cells of their own, so a battlefield's monster is refused here.
 */
function countVariation(
  encounter: EncounterFile,
  vary: Pick<VarySpec, 'combatant' | 'field'>,
): Result<Variation> {
  const name = `${vary.combatant}.${vary.field}`;
  const { system, library, spec } = encounter;
  const sides = sidesOf(spec);
  const sideAt = sides.findIndex(
    (side) =>
      isRecord(side) &&
      Array.isArray(side.combatants) &&
      side.combatants.some((c) => isRecord(c) && c.monster === vary.combatant),
  );
  if (sideAt < 0) {
    return err(
      'balance/no-field',
      `--vary ${name}: '${vary.combatant}' is not a monster on a side of the encounter`,
    );
  }
  const side = sides[sideAt] as { combatants: unknown[] };
  const mine = side.combatants.filter(
    (c): c is SpecEntry => isRecord(c) && c.monster === vary.combatant,
  );
  const first = mine[0]!;
  if (mine.some((c) => c.at !== undefined)) {
    return err(
      'balance/no-field',
      `--vary ${name}: '${vary.combatant}' stands on a cell of the battlefield; each copy would need its own, so its count is not varied`,
    );
  }
  const kind = system.kinds.find((k) => k.kind.endsWith('/monster'));
  const sheet = kind === undefined ? undefined : library.get(kind, vary.combatant);
  const sheetName = isRecord(sheet) && typeof sheet.name === 'string' ? sheet.name : vary.combatant;
  const baseName = typeof first.name === 'string' ? first.name : sheetName;
  const ids = new Set<string>();
  for (const s of sides) {
    if (!isRecord(s) || !Array.isArray(s.combatants)) continue;
    for (const c of s.combatants) {
      if (!isRecord(c) || c.monster === vary.combatant) continue;
      const id = c.id ?? c.monster ?? c.character;
      if (typeof id === 'string') ids.add(id);
    }
  }
  if (typeof first.id === 'string') ids.add(first.id);
  return ok({
    name,
    kind: kind?.kind ?? 'monster',
    original: mine.length,
    originalIn: 'the encounter',
    whole: true,
    setupAt(value: number): Result<unknown> {
      if (!Number.isInteger(value) || value < 1 || value > MAX_COUNT) {
        return err(
          'balance/refused-value',
          `--vary ${name}: a count is a whole number from 1 to ${MAX_COUNT}, got ${value}`,
        );
      }
      const taken = new Set(ids);
      const copies = Array.from({ length: value }, (_, i) => {
        if (i === 0) return first;
        let id = `${vary.combatant}-${i + 1}`;
        for (let n = i + 2; taken.has(id); n++) id = `${vary.combatant}-${n}`;
        taken.add(id);
        return { ...first, id, name: `${baseName} ${i + 1}` };
      });
      const at = side.combatants.indexOf(first);
      const kept = side.combatants.filter((c) => !mine.includes(c as SpecEntry));
      const combatants = [...kept.slice(0, at), ...copies, ...kept.slice(at)];
      const copiedSides = sides.map((s, i) => (i === sideAt ? { ...side, combatants } : s));
      return builtWith(
        name,
        value,
        system.setupFrom(library, { ...(spec as object), sides: copiedSides }),
      );
    },
  });
}

/** Where each system's monster sheet keeps its most HP (a path in its content file). */
export const MONSTER_HP_FIELD: Readonly<Record<string, string>> = {
  ffrpg: 'stats.hp',
  ffviii: 'hp',
  zodiac: 'stats.hp',
  'shining-force': 'stats.hp',
};

/**
 * `goblin-2.maxHp`: the maximum-HP override of the encounter's own entries (`maxHp:` in the
 * file), not the sheet: the entry whose `id` is the name, or else every entry of the monster
 * with that content id (`goblin.maxHp`: each goblin). The library is untouched, so another fight,
 * or a `gm add` in this one, still reads the sheet's HP.
 */
function maxHpVariation(
  encounter: EncounterFile,
  vary: Pick<VarySpec, 'combatant' | 'field'>,
): Result<Variation> {
  const name = `${vary.combatant}.${vary.field}`;
  const { system, library, spec } = encounter;
  const sides = sidesOf(spec);
  const entries = sides.flatMap((side) =>
    isRecord(side) && Array.isArray(side.combatants) ? side.combatants.filter(isRecord) : [],
  );
  const byId = entries.filter((c) => c.id === vary.combatant);
  const mine = byId.length > 0 ? byId : entries.filter((c) => c.monster === vary.combatant);
  if (mine.length === 0 || mine.some((c) => typeof c.monster !== 'string')) {
    const ids = entries
      .filter((c) => typeof c.monster === 'string')
      .map((c) => (c.id ?? c.monster) as string);
    return err(
      'balance/no-combatant',
      `--vary ${name}: the encounter has no monster '${vary.combatant}' (a monster's id or its entry's id); it has ${[...new Set(ids)].join(', ') || 'none'}`,
    );
  }
  const kind = system.kinds.find((k) => k.kind.endsWith('/monster'));
  const sheet = kind === undefined ? undefined : library.get(kind, mine[0]!.monster as string);
  const hpPath = parsePath(MONSTER_HP_FIELD[system.ruleset.id] ?? 'stats.hp')!;
  const fromSheet = sheet === undefined ? undefined : read(sheet, hpPath, `--vary ${name}`);
  const first = mine[0]!.maxHp;
  const original =
    typeof first === 'number'
      ? first
      : fromSheet?.ok && typeof fromSheet.value === 'number'
        ? fromSheet.value
        : 1;
  return ok({
    name,
    kind: kind?.kind ?? 'monster',
    original,
    originalIn:
      typeof first === 'number' ? "the encounter's maxHp" : `the ${kind?.kind ?? 'monster'} sheet`,
    whole: true,
    setupAt(value: number): Result<unknown> {
      if (!Number.isInteger(value) || value < 1) {
        return err(
          'balance/refused-value',
          `--vary ${name}: a maximum HP is a whole number from 1, got ${value}`,
        );
      }
      const copiedSides = sides.map((side) =>
        isRecord(side) && Array.isArray(side.combatants)
          ? {
              ...side,
              combatants: side.combatants.map((c) =>
                mine.includes(c) ? { ...(c as object), maxHp: value } : c,
              ),
            }
          : side,
      );
      return builtWith(
        name,
        value,
        system.setupFrom(library, { ...(spec as object), sides: copiedSides }),
      );
    },
  });
}

/** The setup built with the varied value, or why the encounter cannot be built with it. */
function builtWith<T>(name: string, value: number, built: Result<T>): Result<T> {
  if (built.ok) return built;
  return err(
    'balance/refused-value',
    `--vary ${name}: the encounter cannot be built with ${value}: ${built.error.message}`,
  );
}
