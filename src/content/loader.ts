/**
 * Loading content: the file system edge (listing and reading) around pure steps (parse, validate
 * each file, then check ids across files). User mistakes come back as values, all of them at
 * once; only a programmer's mistake (a bad kind definition) throws.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, join, sep } from 'node:path';
import { type ContentError, compareText, contentError, didYouMean, parsePath } from './errors.js';
import type { ContentKind } from './kind.js';
import { ContentLibrary, type LibraryEntry } from './library.js';
import { MAX_FILE_BYTES, type ParsedContent, parseContentText } from './parse.js';
import { fsReason, readBoundedText } from './read-bounded.js';
import { validateEntity } from './validate.js';

export const CONTENT_EXTENSIONS: readonly string[] = ['.yaml', '.yml', '.json'];

export type LoadResult =
  | { readonly ok: true; readonly library: ContentLibrary }
  | { readonly ok: false; readonly errors: readonly ContentError[] };

type LineAt = ParsedContent['lineAt'];

/** A file's name and text, for loading content that does not come from the file system. */
export interface ContentText {
  readonly file: string;
  readonly text: string;
}

/** More files than this in one load is refused: a content folder is a few hundred at most. */
export const MAX_CONTENT_FILES = 5000;

export interface LoadOptions {
  /**
   * Folders every source must lie inside (after symbolic links are followed); without it, each
   * source is its own bound. Either way nothing found by walking a folder is read from
   * outside that folder: a symbolic link out of the tree is refused, not followed.
   */
  readonly within?: readonly string[];
}

/**
 * Loads every content file in `sources` (files, or directories searched recursively for .yaml,
 * .yml and .json, skipping names that start with '.'), in sorted order.
 */
export function loadContent(
  sources: string | readonly string[],
  kinds: readonly ContentKind<unknown>[],
  options: LoadOptions = {},
): LoadResult {
  const { files, errors } = listContentFiles(
    typeof sources === 'string' ? [sources] : sources,
    options.within,
  );
  const texts: ContentText[] = [];
  for (const file of files) {
    const read = readContentFile(file);
    if (typeof read === 'string') texts.push({ file, text: read });
    else errors.push(read);
  }
  const loaded = loadContentTexts(texts, kinds);
  if (errors.length === 0) return loaded;
  return { ok: false, errors: byFile([...errors, ...(loaded.ok ? [] : loaded.errors)]) };
}

/** loadContent without the file system: parse, validate, then check ids and references. */
export function loadContentTexts(
  texts: readonly ContentText[],
  kinds: readonly ContentKind<unknown>[],
): LoadResult {
  const registry = new Map<string, ContentKind<unknown>>();
  for (const kind of kinds) {
    if (registry.has(kind.kind)) throw new TypeError(`content kind "${kind.kind}" given twice`);
    registry.set(kind.kind, kind);
  }

  const errors: ContentError[] = [];
  // The kind and id of every file that has them, even one with other errors: a reference to
  // it is then not reported as missing on top of its own errors.
  const ids = new Map<string, Map<string, string>>([...registry.keys()].map((k) => [k, new Map()]));
  const loaded: { entry: LibraryEntry; lineAt: LineAt }[] = [];

  for (const { file, text } of [...texts].sort((a, b) => compareText(a.file, b.file))) {
    const parsed = parseContentText(file, text);
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      continue;
    }
    const check = validateEntity(parsed.content, kinds);
    errors.push(...check.errors);
    if (check.kind === undefined || check.id === undefined) continue;
    const first = ids.get(check.kind)!.get(check.id);
    if (first !== undefined) {
      const message = `duplicate id "${check.id}" for ${check.kind}: ${first} has the same id`;
      errors.push(contentError(file, 'id', message, parsed.content.lineAt(['id'])));
      continue;
    }
    ids.get(check.kind)!.set(check.id, file);
    if (check.entity !== undefined) {
      const { lineAt } = parsed.content;
      loaded.push({ entry: { file, entity: check.entity, lineAt }, lineAt });
    }
  }

  for (const { entry, lineAt } of loaded) {
    errors.push(...referenceErrors(entry, registry, ids, lineAt));
  }
  if (errors.length > 0) return { ok: false, errors: byFile(errors) };
  return {
    ok: true,
    library: new ContentLibrary(
      [...registry.keys()],
      loaded.map((l) => l.entry),
    ),
  };
}

function referenceErrors(
  { file, entity }: LibraryEntry,
  registry: ReadonlyMap<string, ContentKind<unknown>>,
  ids: ReadonlyMap<string, ReadonlyMap<string, string>>,
  lineAt: LineAt,
): ContentError[] {
  const references = registry.get(entity.kind)?.references?.(entity) ?? [];
  const errors: ContentError[] = [];
  for (const { kind, id, path } of references) {
    const known = ids.get(kind);
    if (known?.has(id)) continue;
    const message =
      known === undefined
        ? `refers to "${id}" of kind ${kind}, which is not a registered kind`
        : `no ${kind} has the id "${id}"${didYouMean(id, known.keys())}`;
    errors.push(contentError(file, path, message, lineAt(parsePath(path) ?? [])));
  }
  return errors;
}

/** Files first in their order, each file's errors in the order found. */
function byFile(errors: readonly ContentError[]): ContentError[] {
  return [...errors].sort((a, b) => compareText(a.file, b.file));
}

function isContentFile(name: string): boolean {
  return CONTENT_EXTENSIONS.includes(extname(name).toLowerCase());
}

/** True when `path` is `root` or inside it; both are real paths. */
function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function listContentFiles(
  sources: readonly string[],
  within: readonly string[] | undefined,
): { files: string[]; errors: ContentError[] } {
  const files = new Set<string>();
  const errors: ContentError[] = [];
  const visited = new Set<string>();
  let tooMany = false;
  const refuse = (path: string, message: string): void => {
    errors.push(contentError(path, '', message, undefined));
  };
  const bounds: string[] = [];
  for (const folder of within ?? []) {
    try {
      bounds.push(realpathSync(folder));
    } catch {
      // A bound that does not exist holds nothing.
    }
  }

  const visit = (path: string, root: string, named: boolean): void => {
    if (tooMany) return;
    try {
      const real = realpathSync(path);
      // A symbolic link is followed only while it stays in the tree being walked.
      if (!isInside(real, root)) {
        refuse(path, 'refused: it leads outside the content folder');
        return;
      }
      const stat = statSync(real);
      if (stat.isDirectory()) {
        // A symbolic link back up the tree would otherwise be walked forever.
        if (visited.has(real)) return;
        visited.add(real);
        for (const entry of readdirSync(real)) {
          if (!entry.startsWith('.')) visit(join(path, entry), root, false);
        }
      } else if (!stat.isFile()) {
        // A FIFO would block the read forever, a device never ends: only regular files.
        if (named || isContentFile(path)) refuse(path, 'refused: not a regular file');
      } else if (isContentFile(path)) {
        if (files.size >= MAX_CONTENT_FILES) {
          tooMany = true;
          refuse(path, `refused: more than ${MAX_CONTENT_FILES} content files in one load`);
          return;
        }
        files.add(path);
      } else if (named) {
        refuse(path, 'not a content file: expected a .yaml, .yml or .json file');
      }
    } catch (error) {
      refuse(path, `cannot read: ${fsReason(error)}`);
    }
  };
  for (const source of sources) {
    let real: string;
    try {
      real = realpathSync(source);
    } catch (error) {
      refuse(source, `cannot read: ${fsReason(error)}`);
      continue;
    }
    if (within !== undefined && !bounds.some((bound) => isInside(real, bound))) {
      refuse(
        source,
        "refused: content comes only from the encounter's folder and the starter content",
      );
      continue;
    }
    // A named file is bounded by its own folder, a named folder by itself.
    const root = statSync(real).isDirectory() ? real : dirname(real);
    visit(source, root, true);
  }
  return { files: [...files].sort(compareText), errors };
}

function readContentFile(file: string): string | ContentError {
  const read = readBoundedText(file, MAX_FILE_BYTES);
  if (read.ok) return read.text;
  return contentError(file, '', `cannot read: ${read.reason}`, undefined);
}
