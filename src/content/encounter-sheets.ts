import type { z } from 'zod';
import { err, ok, type Result } from '../engine/index.js';
import { type ContentKind, type Entity, entityFields } from './kind.js';
import type { ContentLibrary } from './library.js';

/** An encounter's combatant entry: one character or one monster, by content id. */
export interface SheetChoice {
  readonly character?: string | undefined;
  readonly monster?: string | undefined;
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
): Result<{ kind: 'character' | 'monster'; id: string; sheet: Entity<T> }> {
  if ((who.character === undefined) === (who.monster === undefined))
    return err('encounter/invalid', `${where}: name exactly one of character or monster`);
  const kind = who.character !== undefined ? 'character' : 'monster';
  const id = (who.character ?? who.monster)!;
  const sheet = library.get(kinds[kind], id);
  if (sheet === undefined)
    return err('encounter/unknown-content', `${where}: there is no ${kinds[kind].kind} '${id}'`);
  return ok({ kind, id, sheet });
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
  return err('encounter/invalid', `${issue.path.join('.') || 'encounter'}: ${issue.message}`);
}
