import { compareText } from './errors.js';
import type { ContentKind, Entity } from './kind.js';

/** One loaded entity and the file it came from. */
export interface LibraryEntry {
  readonly file: string;
  readonly entity: Entity<unknown>;
  /** The line of a path in the file, when the loader read it (not kept in toJSON). */
  readonly lineAt?: (path: readonly PropertyKey[]) => number | undefined;
}

/** The JSON form: kinds (including those with no entities), and entries sorted by kind and id. */
export interface ContentLibraryJson {
  readonly kinds: readonly string[];
  readonly entries: readonly LibraryEntry[];
}

type KindName<T> = ContentKind<T> | string;

/**
 * Validated content, by kind and id. Entities are frozen plain data: an encounter can copy the
 * ones it uses into its own state, and no caller can change them under another.
 */
export class ContentLibrary {
  private readonly byKind = new Map<string, Map<string, LibraryEntry>>();

  constructor(kinds: readonly string[], entries: readonly LibraryEntry[]) {
    const names = new Set([...kinds, ...entries.map((e) => e.entity.kind)]);
    for (const kind of [...names].sort(compareText)) this.byKind.set(kind, new Map());
    const sorted = [...entries].sort(
      (a, b) => compareText(a.entity.kind, b.entity.kind) || compareText(a.entity.id, b.entity.id),
    );
    for (const { file, entity, lineAt } of sorted) {
      const ids = this.byKind.get(entity.kind)!;
      if (ids.has(entity.id)) throw new Error(`duplicate ${entity.kind} "${entity.id}" in library`);
      const entry = lineAt === undefined ? { file, entity } : { file, entity, lineAt };
      ids.set(entity.id, Object.freeze({ ...entry, entity: deepFreeze(entity) }));
    }
  }

  /** Rebuilds a library saved with toJSON(). Trusted data: it is not validated again. */
  static fromJSON(json: ContentLibraryJson): ContentLibrary {
    return new ContentLibrary(json.kinds, json.entries);
  }

  /** The entity, typed by the kind when given the kind itself: `library.get(weapon, 'dagger')`. */
  get<T = unknown>(kind: KindName<T>, id: string): Entity<T> | undefined {
    return this.byKind.get(nameOf(kind))?.get(id)?.entity as Entity<T> | undefined;
  }

  has(kind: KindName<unknown>, id: string): boolean {
    return this.byKind.get(nameOf(kind))?.has(id) ?? false;
  }

  /** Every entity of a kind, by id. */
  all<T = unknown>(kind: KindName<T>): readonly Entity<T>[] {
    const ids = this.byKind.get(nameOf(kind));
    return ids === undefined ? [] : [...ids.values()].map((e) => e.entity as Entity<T>);
  }

  /** The kind names, sorted; a kind may have no entities. */
  kinds(): readonly string[] {
    return [...this.byKind.keys()];
  }

  /** The file an entity was loaded from, as the loader was given it. */
  fileOf(kind: KindName<unknown>, id: string): string | undefined {
    return this.byKind.get(nameOf(kind))?.get(id)?.file;
  }

  /**
   * Where a field of an entity is: its file and, when the loader kept it, the line. Errors found
   * when content is put together (an encounter's setup) name the file that holds the mistake.
   */
  sourceOf(
    kind: KindName<unknown>,
    id: string,
    path: readonly PropertyKey[],
  ): { readonly file: string; readonly line?: number } | undefined {
    const entry = this.byKind.get(nameOf(kind))?.get(id);
    if (entry === undefined) return undefined;
    const line = entry.lineAt?.(path);
    return line === undefined ? { file: entry.file } : { file: entry.file, line };
  }

  toJSON(): ContentLibraryJson {
    const entries = [...this.byKind.values()]
      .flatMap((ids) => [...ids.values()])
      .map(({ file, entity }) => ({ file, entity }));
    return { kinds: this.kinds(), entries };
  }
}

function nameOf(kind: KindName<unknown>): string {
  return typeof kind === 'string' ? kind : kind.kind;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
