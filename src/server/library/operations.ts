import { type JsonSchema, jsonSchemaFor } from '../../content/json-schema.js';
import type { ContentKind, Entity } from '../../content/kind.js';
import { ContentLibrary } from '../../content/library.js';
import { CONTENT_EXTENSIONS } from '../../content/loader.js';
import { parseContentText } from '../../content/parse.js';
import { err, ok, type Result } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type { JsonValue, LibraryWrite, Store, TableRecord } from '../../store/index.js';
import type { LibraryQuotas } from '../quotas.js';
import { withinLibraryQuota } from '../quotas.js';
import { PARTY_ROW, readRoster } from '../tables.js';
import {
  bodyOf,
  type ContentIssue,
  checkEntity,
  fileOf,
  fileValueOf,
  invalid,
  issueOf,
  kindWord,
  type LibraryResult,
  missingReferences,
  nameOf,
  tableLibrary,
} from './library.js';

/**
 * What a GM does to a table's library: list, read, write and delete entries, import a content
 * pack and export the library as files. Shared by the HTTP routes and `moogle table content`,
 * so both check exactly the same; nothing is written unless all of it is good.
 */

/** Files one pack may hold: a system's content is a few hundred. */
export const MAX_PACK_FILES = 2000;
/** A pack's files together, as text. */
export const MAX_PACK_BYTES = 8 * 1024 * 1024;

export interface KindInfo {
  readonly kind: string;
  readonly label: string;
  /** The schema of an entry's body: the kind's fields, `sample` and `source`. */
  readonly schema: JsonSchema;
}

export interface LibraryListingView {
  readonly system: string;
  readonly kinds: readonly KindInfo[];
  readonly entries: readonly {
    readonly kind: string;
    readonly id: string;
    readonly name: string;
    readonly version: number;
    readonly updatedAt: string;
  }[];
}

/** `format`, `kind` and `id` are the address's: a body's schema leaves them out. */
function bodySchemaFor(kind: ContentKind<unknown>): JsonSchema {
  const schema = jsonSchemaFor(kind) as Record<string, unknown>;
  const properties = { ...(schema.properties as Record<string, JsonSchema> | undefined) };
  for (const field of ['$schema', 'format', 'kind', 'id']) delete properties[field];
  const required = ((schema.required as string[] | undefined) ?? []).filter(
    (field) => !['format', 'kind', 'id'].includes(field),
  );
  return schema.properties === undefined ? schema : { ...schema, properties, required };
}

/** Which kinds a reader may see: a player's link sees no monster (their stats are the GM's). */
export type Reader = 'gm' | 'player';

function readable(kind: string, reader: Reader): boolean {
  return reader === 'gm' || !kind.endsWith('/monster');
}

export async function listLibrary(
  store: Store,
  table: TableRecord,
  reader: Reader = 'gm',
): Promise<LibraryResult<LibraryListingView>> {
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const { system, library, entries } = read.value;
  return ok({
    system: system.ruleset.id,
    kinds: system.kinds
      .filter((k) => readable(k.kind, reader))
      .map((kind) => ({
        kind: kind.kind,
        label: kind.description,
        schema: bodySchemaFor(kind),
      })),
    entries: entries
      .filter((e) => readable(e.kind, reader))
      .map((e) => ({
        kind: e.kind,
        id: e.id,
        name: nameOf(library.get(e.kind, e.id), e.id),
        version: e.version,
        updatedAt: e.updatedAt,
      })),
  });
}

export async function readEntry(
  store: Store,
  table: TableRecord,
  kind: string,
  id: string,
  reader: Reader = 'gm',
): Promise<LibraryResult<{ kind: string; id: string; version: number; body: JsonValue }>> {
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const record = read.value.entries.find((e) => e.kind === kind && e.id === id);
  if (record === undefined || !readable(kind, reader)) return notFound(kind, id);
  return ok({ kind, id, version: record.version, body: bodyOf(record) });
}

function notFound(kind: string, id: string) {
  return err('library/not-found', `${kindWord(kind)} '${id}' is not in this table's library`);
}

/**
 * Creates or replaces one entry. `body` is the entry's file without `format`, `kind` and `id`;
 * `expectedVersion` the version the writer last read (0: a new entry), or absent to overwrite.
 */
export async function putEntry(
  store: Store,
  table: TableRecord,
  kind: string,
  id: string,
  body: unknown,
  expectedVersion: number | undefined,
  quotas: LibraryQuotas,
): Promise<LibraryResult<{ kind: string; id: string; version: number }>> {
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const { system, library, entries } = read.value;
  const value = fileValueOf(kind, id, body);
  if (!value.ok) return invalid(value.issues);
  const file = `${kind}/${id}`;
  const checked = checkEntity(system.kinds, file, value.value);
  if (!checked.ok) return invalid(checked.issues);
  const others = library
    .toJSON()
    .entries.filter((e) => !(e.entity.kind === kind && e.entity.id === id));
  const next = new ContentLibrary(library.kinds(), [...others, { file, entity: checked.entity }]);
  const missing = missingReferences(system, next, file, checked.entity);
  if (missing.length > 0) return invalid(missing);
  const write: LibraryWrite = {
    kind,
    id,
    body: value.value as JsonValue,
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
  };
  const within = withinLibraryQuota(entries, [write], quotas);
  if (!within.ok) return within;
  const written = await store.writeLibrary(table.id, [write]);
  if (!written.ok) return written;
  return ok({ kind, id, version: written.value[0]!.version });
}

/**
 * Deletes an entry, refused while anything uses it: another entry naming it (a character's
 * weapon), a roster character whose sheet it is, or a roster's lasting state naming it (an
 * item a character carries, the class it was promoted to). The refusal names each user.
 */
export async function deleteEntry(
  store: Store,
  table: TableRecord,
  kind: string,
  id: string,
  expectedVersion?: number,
): Promise<LibraryResult<{ kind: string; id: string; version: number }>> {
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const { system, library, entries } = read.value;
  const record = entries.find((e) => e.kind === kind && e.id === id);
  if (record === undefined) return notFound(kind, id);
  const users: string[] = [];
  for (const other of system.kinds) {
    for (const entity of library.all(other)) {
      const uses = other.references?.(entity) ?? [];
      if (uses.some((r) => r.kind === kind && r.id === id)) {
        users.push(`${kindWord(other.kind)} '${entity.id}'`);
      }
    }
  }
  if (kind.endsWith('/character') && id !== PARTY_ROW) {
    if ((await store.getRosterEntry(table.id, id)) !== undefined) {
      users.push(`the roster's character '${id}'`);
    }
  }
  const holders = await rosterHolders(store, table, system, kind, id);
  if (!holders.ok) return holders;
  users.push(...holders.value);
  if (users.length > 0) {
    const shown = users.slice(0, 10).join(', ');
    const more = users.length > 10 ? ` and ${users.length - 10} more` : '';
    return err(
      'library/in-use',
      `${kindWord(kind)} '${id}' is used by ${shown}${more}: change those first`,
    );
  }
  const deleted = await store.writeLibrary(
    table.id,
    [],
    [{ kind, id, ...(expectedVersion === undefined ? {} : { expectedVersion }) }],
  );
  if (!deleted.ok) return deleted;
  return ok({ kind, id, version: record.version + 1 });
}

/**
 * Who on the roster holds the entry in their lasting state, as the system's campaign rules
 * list it (an item carried, a class, a spell in stock, the party's level table), and where:
 * `the roster's character 'max' (carried, equipped)`, `the roster's party (level table)`.
 */
async function rosterHolders(
  store: Store,
  table: TableRecord,
  system: AnySystem,
  kind: string,
  id: string,
): Promise<Result<string[]>> {
  const roster = await readRoster(store, table, system);
  if (!roster.ok) return roster;
  const references = system.campaign.references(roster.value);
  if (!references.ok) return references;
  const where = new Map<string | null, Set<string>>();
  for (const r of references.value) {
    if (r.kind !== kind || r.id !== id) continue;
    const places = where.get(r.holder) ?? new Set<string>();
    places.add(r.where);
    where.set(r.holder, places);
  }
  return ok(
    [...where].map(([holder, places]) => {
      const who = holder === null ? "the roster's party" : `the roster's character '${holder}'`;
      return `${who} (${[...places].join(', ')})`;
    }),
  );
}

/** One file of a pack: its name (a label only: never a path on the server) and its text. */
export interface PackFile {
  readonly name: string;
  readonly text: string;
}

export interface ImportReport {
  readonly added: number;
  readonly changed: number;
  readonly unchanged: number;
}

/**
 * Imports a content pack: every file parsed and checked as a content file (an issue names the
 * file, the path in it and what was expected), its references checked against the library it
 * makes, then all written in one transaction, or none. An entry with the id of one the library
 * has replaces it.
 */
export async function importPack(
  store: Store,
  table: TableRecord,
  files: readonly PackFile[],
  quotas: LibraryQuotas,
): Promise<LibraryResult<ImportReport>> {
  const bounded = checkPackFiles(files);
  if (!bounded.ok) return bounded;
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  const { system, library, entries } = read.value;
  const issues: ContentIssue[] = [];
  const imported: {
    file: string;
    entity: Entity<unknown>;
    value: JsonValue;
    lineAt: (path: readonly PropertyKey[]) => number | undefined;
  }[] = [];
  const seen = new Map<string, string>();
  for (const { name, text } of files) {
    const parsed = parseContentText(name, text);
    if (!parsed.ok) {
      issues.push(...parsed.errors.map(issueOf));
      continue;
    }
    const { value, lineAt } = parsed.content;
    const checked = checkEntity(system.kinds, name, value, lineAt);
    if (!checked.ok) {
      issues.push(...checked.issues);
      continue;
    }
    const key = `${checked.entity.kind}/${checked.entity.id}`;
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push({
        file: name,
        path: ['id'],
        message: `duplicate id "${checked.entity.id}" for ${checked.entity.kind}: ${first} has the same id`,
      });
      continue;
    }
    seen.set(key, name);
    // Stored without the editor's `$schema`: the library's files are the content itself.
    const { $schema: _, ...stored } = value as Record<string, JsonValue>;
    imported.push({ file: name, entity: checked.entity, value: stored, lineAt });
  }
  if (issues.length > 0) return invalid(issues);
  const kept = library.toJSON().entries.filter((e) => !seen.has(`${e.entity.kind}/${e.entity.id}`));
  const next = new ContentLibrary(library.kinds(), [
    ...kept,
    ...imported.map(({ file, entity }) => ({ file, entity })),
  ]);
  for (const { file, entity, lineAt } of imported) {
    issues.push(...missingReferences(system, next, file, entity, lineAt));
  }
  if (issues.length > 0) return invalid(issues);
  const writes = imported.map(({ entity, value }) => ({
    kind: entity.kind,
    id: entity.id,
    body: value,
  }));
  const within = withinLibraryQuota(entries, writes, quotas);
  if (!within.ok) return within;
  const before = new Map(entries.map((e) => [`${e.kind}/${e.id}`, e.version]));
  const written = await store.writeLibrary(table.id, writes);
  if (!written.ok) return written;
  let added = 0;
  let changed = 0;
  let unchanged = 0;
  for (const record of written.value) {
    const was = before.get(`${record.kind}/${record.id}`);
    if (was === undefined) added++;
    else if (was === record.version) unchanged++;
    else changed++;
  }
  return ok({ added, changed, unchanged });
}

/** The pack's names and sizes, before any is parsed. */
function checkPackFiles(files: readonly PackFile[]): LibraryResult<void> {
  if (files.length === 0) return err('content/empty', 'the pack holds no content files');
  if (files.length > MAX_PACK_FILES) {
    return err('content/too-large', `a pack holds at most ${MAX_PACK_FILES} files`);
  }
  let bytes = 0;
  const issues: ContentIssue[] = [];
  for (const { name, text } of files) {
    bytes += Buffer.byteLength(text, 'utf8');
    const problem = badPackName(name);
    if (problem !== undefined)
      issues.push({ file: name.slice(0, 200), path: [], message: problem });
  }
  if (bytes > MAX_PACK_BYTES) {
    return err(
      'content/too-large',
      `a pack is at most ${MAX_PACK_BYTES / 1024 / 1024} MiB of text`,
    );
  }
  return issues.length > 0 ? invalid(issues) : ok(undefined);
}

/**
 * Why a file's name is refused, if it is. Names are labels in messages and paths inside an
 * archive, never read from a disk; still, one that climbs out (`../`), is absolute or is not a
 * content file is refused, as an archive tool would refuse to unpack it.
 */
export function badPackName(name: string): string | undefined {
  if (name.length === 0 || name.length > 300) return 'a file name is 1 to 300 characters';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\\]/.test(name)) return 'a file name has no control characters or "\\"';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'refused: an absolute path';
  if (name.split('/').some((part) => part === '..')) return "refused: a path with '..' in it";
  const lower = name.toLowerCase();
  if (!CONTENT_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
    return 'not a content file: expected a .yaml, .yml or .json file';
  }
  return undefined;
}

/**
 * The library as content files (`monsters/goblin.json`), laid out as the package's content
 * folders are: `moogle battle --content <folder>` and `moogle sim` read them as they are, and
 * an import of them gives the same library.
 */
export async function exportPack(
  store: Store,
  table: TableRecord,
): Promise<LibraryResult<{ system: string; files: PackFile[] }>> {
  const read = await tableLibrary(store, table);
  if (!read.ok) return read;
  return ok({
    system: read.value.system.ruleset.id,
    files: read.value.entries.map((e) => ({
      name: fileOf(e.kind, e.id),
      text: `${JSON.stringify(e.body, null, 2)}\n`,
    })),
  });
}
