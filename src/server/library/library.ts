import { type ContentError, parsePath } from '../../content/errors.js';
import { type ContentKind, type Entity, FORMAT_VERSION } from '../../content/kind.js';
import { ContentLibrary } from '../../content/library.js';
import { validateEntity } from '../../content/validate.js';
import { err, ok, type Result } from '../../engine/index.js';
import type { AnySystem } from '../../rulesets/system.js';
import type {
  JsonValue,
  LibraryRecord,
  LibraryWrite,
  Store,
  TableRecord,
} from '../../store/index.js';
import { starterLibrary, systemOfTable } from '../starter.js';

/**
 * A table's content library (docs/content.md, "A table's library"): the characters, monsters,
 * weapons and the rest its encounters are built from, kept in the store and changed by its GM.
 * A table starts with a copy of its system's starter content, copied on first use, so a table
 * made before tables had libraries starts the same way. Every entry is checked as a content
 * file is before it is stored, and checked again when read (a later Moogle may read a kind
 * otherwise): what the store holds is always a library the rules can use.
 */

/** One problem with an entry: the file (of a pack) or entry, the path in it, and what was wrong. */
export interface ContentIssue {
  /** The pack's file name, or `<kind>/<id>` for an entry written alone. */
  readonly file: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly line?: number;
}

/** A refusal with the issues that caused it (`content/invalid`), or a plain one. */
export interface LibraryError {
  readonly code: string;
  readonly message: string;
  readonly issues?: readonly ContentIssue[];
}

export type LibraryResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: LibraryError };

/** What bounds a table's library (ServerLimits' figures; docs/limits.md). */
export interface LibraryQuotas {
  readonly libraryEntriesPerTable: number;
  readonly libraryBytesPerTable: number;
}

/** A table's library, read and checked, with the rows it was built from. */
export interface TableLibrary {
  readonly system: AnySystem;
  readonly library: ContentLibrary;
  readonly entries: readonly LibraryRecord[];
}

/** Where an entry lies in an exported folder, as the package's content/ folders lay them out. */
export function fileOf(kind: string, id: string): string {
  return `${folderOf(kind)}/${id}.json`;
}

/** `ffrpg/monster` -> `monsters`, `shining-force/class` -> `classes`. */
export function folderOf(kind: string): string {
  const name = kind.slice(kind.indexOf('/') + 1);
  if (/(s|x|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

/** `ffrpg/weapon` -> `weapon`: how a message names a kind to a GM. */
export function kindWord(kind: string): string {
  return kind.slice(kind.indexOf('/') + 1).replace(/-/g, ' ');
}

/** The starter content as entries to seed a table with. */
export function starterWrites(system: AnySystem): Result<LibraryWrite[]> {
  const starter = starterLibrary(system);
  if (!starter.ok) return starter;
  return ok(
    starter.value.toJSON().entries.map(({ entity }) => ({
      kind: entity.kind,
      id: entity.id,
      body: JSON.parse(JSON.stringify(entity)) as JsonValue,
    })),
  );
}

/**
 * Copies the system's starter content into a table's library unless it has one already (a
 * table made before libraries existed, or imported from such an export, has none yet).
 */
export async function seedTableLibrary(store: Store, table: TableRecord): Promise<Result<boolean>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  const writes = starterWrites(system.value);
  if (!writes.ok) return writes;
  return store.seedLibrary(table.id, writes.value);
}

/** Libraries already checked, by table: rebuilt when any entry's version differs. */
const checked = new Map<string, { readonly stamp: string; readonly library: ContentLibrary }>();
/** Tables whose library is cached at most: the least recently read goes first. */
const CACHED_LIBRARIES = 64;

/** The table's library, seeded first if it never was. */
export async function tableLibrary(
  store: Store,
  table: TableRecord,
): Promise<Result<TableLibrary>> {
  const system = systemOfTable(table);
  if (!system.ok) return system;
  let listing = await store.getLibrary(table.id);
  if (listing === undefined) return err('table/not-found', `no table ${table.id}`);
  if (!listing.seeded) {
    const seeded = await seedTableLibrary(store, table);
    if (!seeded.ok) return seeded;
    listing = await store.getLibrary(table.id);
    if (listing === undefined) return err('table/not-found', `no table ${table.id}`);
  }
  const entries = listing.entries;
  // The time too: a table deleted and imported again may have the same versions, not bodies.
  const stamp = entries.map((e) => `${e.kind}/${e.id}@${e.version}@${e.updatedAt}`).join(' ');
  const cached = checked.get(table.id);
  if (cached !== undefined && cached.stamp === stamp) {
    checked.delete(table.id);
    checked.set(table.id, cached);
    return ok({ system: system.value, library: cached.library, entries });
  }
  const built = libraryFrom(system.value, entries);
  if (!built.ok) {
    const first = built.error.issues?.[0];
    return err(
      'content/broken',
      `this table's library does not load: ${first === undefined ? built.error.message : describeIssue(first)}`,
    );
  }
  checked.set(table.id, { stamp, library: built.value });
  if (checked.size > CACHED_LIBRARIES) checked.delete(checked.keys().next().value!);
  return ok({ system: system.value, library: built.value, entries });
}

/** Each entry checked as a file, then its references to the others. */
export function libraryFrom(
  system: AnySystem,
  entries: readonly { readonly kind: string; readonly id: string; readonly body: unknown }[],
): LibraryResult<ContentLibrary> {
  const issues: ContentIssue[] = [];
  const entities: { file: string; entity: Entity<unknown> }[] = [];
  for (const entry of entries) {
    const file = fileOf(entry.kind, entry.id);
    const checked = checkEntity(system.kinds, file, entry.body);
    if (!checked.ok) issues.push(...checked.issues);
    else if (checked.entity.kind !== entry.kind || checked.entity.id !== entry.id) {
      issues.push({ file, path: ['id'], message: `expected the ${entry.kind} '${entry.id}'` });
    } else entities.push({ file, entity: checked.entity });
  }
  const library = new ContentLibrary(
    system.kinds.map((k) => k.kind),
    entities,
  );
  for (const { file, entity } of entities)
    issues.push(...missingReferences(system, library, file, entity));
  if (issues.length > 0) return invalid(issues);
  return ok(library);
}

/** A value as a content file of the system holds it, checked: the entity, or every issue. */
export function checkEntity(
  kinds: readonly ContentKind<unknown>[],
  file: string,
  value: unknown,
  lineAt: (path: readonly PropertyKey[]) => number | undefined = () => undefined,
):
  | { readonly ok: true; readonly entity: Entity<unknown> }
  | { readonly ok: false; readonly issues: readonly ContentIssue[] } {
  const check = validateEntity({ file, value, lineAt }, kinds);
  if (check.entity !== undefined && check.errors.length === 0) {
    return { ok: true, entity: check.entity };
  }
  return { ok: false, issues: check.errors.map(issueOf) };
}

export function issueOf(error: ContentError): ContentIssue {
  const path = error.path === '' ? [] : (parsePath(error.path) ?? [error.path]);
  return {
    file: error.file,
    path,
    message: error.message,
    ...(error.line === undefined ? {} : { line: error.line }),
  };
}

/** `monsters/goblin.json: abilities[2]: weapon 'masamune' does not exist in ...` */
export function describeIssue(issue: ContentIssue): string {
  const path = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return path === '' ? `${where}: ${issue.message}` : `${where}: ${path}: ${issue.message}`;
}

export function invalid(issues: readonly ContentIssue[]): {
  readonly ok: false;
  readonly error: LibraryError;
} {
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return {
    ok: false,
    error: {
      code: 'content/invalid',
      message: `${first === undefined ? 'invalid content' : describeIssue(first)}${more}`,
      issues,
    },
  };
}

/** The ids an entity uses that the library does not hold, each named. */
export function missingReferences(
  system: AnySystem,
  library: ContentLibrary,
  file: string,
  entity: Entity<unknown>,
  lineAt: (path: readonly PropertyKey[]) => number | undefined = () => undefined,
): ContentIssue[] {
  const kind = system.kinds.find((k) => k.kind === entity.kind);
  const issues: ContentIssue[] = [];
  for (const reference of kind?.references?.(entity) ?? []) {
    if (library.has(reference.kind, reference.id)) continue;
    const path = parsePath(reference.path) ?? [];
    const line = lineAt(path);
    issues.push({
      file,
      path,
      message: `${kindWord(reference.kind)} '${reference.id}' does not exist in this table's library`,
      ...(line === undefined ? {} : { line }),
    });
  }
  return issues;
}

/**
 * Makes an entry's body (the file without `format`, `kind` and `id`, which the address gives)
 * the value a content file would hold. Those fields may be in the body too, if they agree.
 */
export function fileValueOf(
  kind: string,
  id: string,
  body: unknown,
):
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: ContentIssue[] } {
  const file = `${kind}/${id}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      issues: [{ file, path: [], message: "expected an object: the entry's fields" }],
    };
  }
  const fields = body as Record<string, unknown>;
  const issues: ContentIssue[] = [];
  const agree = (field: string, value: unknown): void => {
    if (fields[field] !== undefined && fields[field] !== value) {
      issues.push({
        file,
        path: [field],
        message: `expected ${JSON.stringify(value)}, as the address says, or nothing`,
      });
    }
  };
  agree('format', FORMAT_VERSION);
  agree('kind', kind);
  agree('id', id);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { format: FORMAT_VERSION, kind, id, ...fields } };
}

/** The body a client edits: the stored file without `format`, `kind` and `id`. */
export function bodyOf(record: LibraryRecord): JsonValue {
  const { format: _f, kind: _k, id: _i, ...rest } = record.body as Record<string, JsonValue>;
  return rest;
}

/** A display name for lists: the entity's `name`, else its id. */
export function nameOf(entity: unknown, id: string): string {
  const name = (entity as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : id;
}
