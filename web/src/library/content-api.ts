/**
 * A table's content library over HTTP (docs/server.md): what the Library page reads and writes.
 * Bodies are entries without `format`, `kind` and `id`: the address gives those, and the kinds'
 * schemas the server lists leave them out.
 */
import { type Api, ApiError } from '../api.js';
import type { Issue } from '../forms/fields.js';
import type { FormSchema, JsonObject, JsonValue } from '../forms/schema.js';

export interface LibraryKind {
  readonly kind: string;
  readonly label: string;
  readonly schema: FormSchema;
}

export interface LibraryListEntry {
  readonly kind: string;
  readonly id: string;
  readonly name: string;
  readonly version: number;
  readonly updatedAt: string;
}

export interface LibraryListing {
  readonly system: string;
  readonly kinds: readonly LibraryKind[];
  readonly entries: readonly LibraryListEntry[];
}

export interface LibraryEntry {
  readonly kind: string;
  readonly id: string;
  readonly version: number;
  readonly body: JsonObject;
}

/** One problem the server found: in which file (of a pack) or entry, where, and what. */
export interface ContentIssue extends Issue {
  readonly file?: string;
  readonly line?: number;
}

const ENVELOPE = ['format', 'kind', 'id', '$schema'];

/** `.../content/ffrpg/monster/goblin`: a kind's slash is a path separator there. */
export function contentPath(tableId: string, ...rest: string[]): string {
  const tail = rest.flatMap((part) => part.split('/').map(encodeURIComponent)).join('/');
  return `/api/tables/${encodeURIComponent(tableId)}/content${tail === '' ? '' : `/${tail}`}`;
}

/** A file's value as the body the server stores: the address carries its format, kind and id. */
export function bodyOf(file: JsonValue): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (file !== null && typeof file === 'object' && !Array.isArray(file)) {
    for (const [k, v] of Object.entries(file)) if (!ENVELOPE.includes(k)) out[k] = v;
  }
  return out;
}

/** The issues a refusal carries, when it is a `content/invalid` one. */
export function issuesOf(error: unknown): readonly ContentIssue[] {
  if (!(error instanceof ApiError)) return [];
  const issues = error.details.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((i): ContentIssue[] => {
    if (i === null || typeof i !== 'object') return [];
    const { path, message, file, line, expected } = i as Record<string, unknown>;
    if (typeof message !== 'string') return [];
    const parts = Array.isArray(path)
      ? path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
      : [];
    return [
      {
        path: parts,
        message,
        ...(typeof file === 'string' ? { file } : {}),
        ...(typeof line === 'number' ? { line } : {}),
        ...(typeof expected === 'string' ? { expected } : {}),
      },
    ];
  });
}

export function libraryApi(api: Api, tableId: string) {
  return {
    list: () => api.get<LibraryListing>(contentPath(tableId)),
    get: (kind: string, id: string) => api.get<LibraryEntry>(contentPath(tableId, kind, id)),
    /** Creates or replaces; `expectedVersion` (0: must not exist yet) refuses a stale write. */
    save: (kind: string, id: string, file: JsonValue, expectedVersion?: number) =>
      api.put<{ kind: string; id: string; version: number }>(contentPath(tableId, kind, id), {
        body: bodyOf(file),
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
      }),
    /** Deletes the entry as listed: refused (409) if it changed since, or others use it. */
    remove: (kind: string, id: string, expectedVersion: number) =>
      api.delete<unknown>(`${contentPath(tableId, kind, id)}?expectedVersion=${expectedVersion}`),
    importPack: (
      pack: { files: readonly { name: string; text: string }[] } | { archive: string },
    ) => api.post<unknown>(contentPath(tableId, 'import'), pack),
    /** What the rules make of a draft in `encounter` (a duel: duel.ts), nothing saved. */
    preview: (kind: string, id: string, file: JsonValue, encounter: Record<string, unknown>) =>
      api.post<Preview>(contentPath(tableId, 'preview'), {
        kind,
        id,
        body: bodyOf(file),
        encounter,
      }),
    /**
     * The library as a content pack, a .zip (what `moogle table content export` writes): an
     * address for a download link, which sends the session's cookie but no header.
     */
    exportUrl: () => api.eventsUrl(`${contentPath(tableId, 'export')}?format=zip`),
  };
}

export type LibraryApi = ReturnType<typeof libraryApi>;

/** What the rules make of a draft entry (POST .../content/preview). */
export interface Preview {
  /** Labelled numbers, in the system's words: `Max HP 96`, `ARM 10`, `Initiative 1d10+8`. */
  readonly numbers: readonly { readonly label: string; readonly value: string }[];
  /** Its first turn's actions against the foe, with their odds (`Attack Heket: hit 66% · 9-46`). */
  readonly odds: readonly string[];
}
