import type { z } from 'zod';
import { type EngineError, err, ok, type Result } from '../engine/index.js';
import { formatPath } from './errors.js';
import { type ContentKind, type Entity, entityFields } from './kind.js';
import type { ContentLibrary } from './library.js';

/** An encounter's combatant entry: one character or one monster, by content id. */
export interface SheetChoice {
  readonly character?: string | undefined;
  readonly monster?: string | undefined;
  /**
   * A monster's maximum HP in this fight, in place of its sheet's: the sheet is copied with it
   * (at the system's HP field), so whatever reads the maximum (the view, healing caps, the sim,
   * the odds) reads this. It starts at it unless the entry's `hp` says otherwise.
   */
  readonly maxHp?: number | undefined;
}

/** The name of the combatant entry's maximum-HP override. */
export const MAX_HP_FIELD = 'maxHp';

/** A copy of a sheet with `value` at `path` (`['stats', 'hp']`), the rest shared. */
function withNumberAt<T>(sheet: T, path: readonly string[], value: number): T {
  const [key, ...rest] = path;
  if (key === undefined) return value as T;
  const here = sheet as Record<string, unknown>;
  return { ...here, [key]: withNumberAt(here[key], rest, value) } as T;
}

/**
 * The sheet an encounter's combatant names, from the system's character and monster kinds.
 * `where` is the entry's path in the encounter file (`sides[0].combatants[1]`).
 */
export function sheetNamed<T>(
  library: ContentLibrary,
  who: SheetChoice,
  kinds: { readonly character: ContentKind<T>; readonly monster: ContentKind<T> },
  where: string,
): Result<NamedSheet<T>> {
  if ((who.character === undefined) === (who.monster === undefined))
    return err('encounter/invalid', `${where}: name exactly one of character or monster`);
  const kind = who.character !== undefined ? 'character' : 'monster';
  const id = (who.character ?? who.monster)!;
  const sheet = library.get(kinds[kind], id);
  if (sheet === undefined)
    return err('encounter/unknown-content', `${where}: there is no ${kinds[kind].kind} '${id}'`);
  return ok({ kind, id, sheet });
}

/** A sheet an encounter names, with the kind and id it was found by. */
export interface NamedSheet<T> {
  readonly kind: 'character' | 'monster';
  readonly id: string;
  readonly sheet: Entity<T>;
}

/**
 * A mistake in a sheet found while building an encounter from it, as an error naming the
 * sheet's own file, the path in it and its line.
 */
export function sheetMistake(
  library: ContentLibrary,
  named: NamedSheet<unknown>,
  kinds: { readonly character: ContentKind<unknown>; readonly monster: ContentKind<unknown> },
  path: readonly (string | number)[],
  message: string,
): { ok: false; error: EngineError } {
  const found = library.sourceOf(kinds[named.kind], named.id, path);
  const where = path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
  return {
    ok: false,
    error: {
      code: 'encounter/invalid',
      message,
      ...(found === undefined ? {} : { source: { ...found, path: where } }),
    },
  };
}

/**
 * Every side of an encounter spec with its combatants built from their sheets: the loop every
 * system's setup runs, with the system supplying how one sheet becomes a combatant (the same
 * function `gm add` uses, through sheetById) and how a side is kept.
 */
export function sidesFrom<T, Who extends SheetChoice, SpecSide, Combatant, Side>(
  library: ContentLibrary,
  sides: readonly SpecSide[],
  combatantsOf: (side: SpecSide) => readonly Who[],
  kinds: { readonly character: ContentKind<T>; readonly monster: ContentKind<T> },
  combatant: (named: NamedSheet<T>, who: Who, where: string) => Result<Combatant>,
  side: (spec: SpecSide, combatants: Combatant[]) => Side,
  /** Where the system's monster sheet keeps its maximum HP: `['stats', 'hp']`. */
  maxHpAt: readonly string[],
): Result<Side[]> {
  const out: Side[] = [];
  for (const [s, spec] of sides.entries()) {
    const combatants: Combatant[] = [];
    for (const [c, who] of combatantsOf(spec).entries()) {
      const where = `sides[${s}].combatants[${c}]`;
      const found = sheetNamed(library, who, kinds, where);
      if (!found.ok) return found;
      let named = found.value;
      if (who.maxHp !== undefined) {
        if (named.kind !== 'monster') {
          return err(
            'encounter/invalid',
            `${where}.${MAX_HP_FIELD}: only a monster's entry overrides its maximum HP; a character's comes from its sheet (or the roster)`,
          );
        }
        named = { ...named, sheet: withNumberAt(named.sheet, maxHpAt, who.maxHp) };
      }
      const built = combatant(named, who, where);
      if (!built.ok) return built;
      combatants.push(built.value);
    }
    out.push(side(spec, combatants));
  }
  return ok(out);
}

/**
 * The sheet a content id names, a character's or a monster's (`gm add goblin to enemies`): a
 * character id wins where both kinds have it.
 */
export function sheetById<T>(
  library: ContentLibrary,
  kinds: { readonly character: ContentKind<T>; readonly monster: ContentKind<T> },
  id: string,
): Result<NamedSheet<T>> {
  for (const kind of ['character', 'monster'] as const) {
    const sheet = library.get(kinds[kind], id);
    if (sheet !== undefined) return ok({ kind, id, sheet });
  }
  const shown = id.length > 40 ? `${id.slice(0, 40)}...` : id;
  return err(
    'encounter/unknown-content',
    `there is no ${kinds.character.kind} or ${kinds.monster.kind} '${shown}'`,
  );
}

/**
 * A sheet field that names an entity by id or gives it inline (`weapon: broadsword`, or the
 * weapon's fields): the fields either way; undefined when absent or when the id names nothing
 * (the loader's reference check reports that).
 */
export function idOrInline<T>(
  library: ContentLibrary,
  kind: ContentKind<T>,
  value: string | T | undefined,
): T | undefined {
  if (typeof value !== 'string') return value;
  const entity = library.get(kind, value);
  return entity === undefined ? undefined : entityFields(entity);
}

/** Every entity of a kind by id, without its file envelope: what a setup carries along. */
export function entitiesById<T>(library: ContentLibrary, kind: ContentKind<T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const entity of library.all(kind)) out[entity.id] = entityFields(entity);
  return out;
}

/** An encounter spec or setup that does not parse, as `encounter/invalid` with the path. */
export function encounterInvalid(error: z.ZodError): {
  ok: false;
  error: { code: string; message: string };
} {
  const issue = error.issues[0]!;
  // The path as every content error writes it (`sides[0].combatants[3]`), not `sides.0...`.
  return err('encounter/invalid', `${formatPath(issue.path) || 'encounter'}: ${issue.message}`);
}
