/**
 * Loading content: the file system edge (listing and reading) around pure steps (parse, validate
 * each file, then check ids across files). User mistakes come back as values, all of them at
 * once; only a programmer's mistake (a bad kind definition) throws.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type ContentError, compareText, contentError, didYouMean, parsePath } from './errors.js';
import type { ContentKind } from './kind.js';
import { ContentLibrary, type LibraryEntry } from './library.js';
import { MAX_FILE_BYTES, type ParsedContent, parseContentText, tooLarge } from './parse.js';
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

/**
 * Loads every content file in `sources` (files, or directories searched recursively for .yaml,
 * .yml and .json, skipping names that start with '.'), in sorted order.
 */
export function loadContent(
  sources: string | readonly string[],
  kinds: readonly ContentKind<unknown>[],
): LoadResult {
  const { files, errors } = listContentFiles(typeof sources === 'string' ? [sources] : sources);
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
      loaded.push({ entry: { file, entity: check.entity }, lineAt: parsed.content.lineAt });
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

function listContentFiles(sources: readonly string[]): { files: string[]; errors: ContentError[] } {
  const files = new Set<string>();
  const errors: ContentError[] = [];
  const visited = new Set<string>();

  const visit = (path: string, named: boolean): void => {
    try {
      const stat = statSync(path);
      if (stat.isDirectory()) {
        // A symbolic link back up the tree would otherwise be walked forever.
        const real = realpathSync(path);
        if (visited.has(real)) return;
        visited.add(real);
        for (const entry of readdirSync(path)) {
          if (!entry.startsWith('.')) visit(join(path, entry), false);
        }
      } else if (isContentFile(path)) {
        files.add(path);
      } else if (named) {
        errors.push(
          contentError(
            path,
            '',
            'not a content file: expected a .yaml, .yml or .json file',
            undefined,
          ),
        );
      }
    } catch (error) {
      errors.push(contentError(path, '', `cannot read: ${fsReason(error)}`, undefined));
    }
  };
  for (const source of sources) visit(source, true);
  return { files: [...files].sort(compareText), errors };
}

function readContentFile(file: string): string | ContentError {
  try {
    const size = statSync(file).size;
    if (size > MAX_FILE_BYTES) return contentError(file, '', tooLarge(size), undefined);
    const bytes = readFileSync(file);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    const reason = error instanceof TypeError ? 'the file is not UTF-8 text' : fsReason(error);
    return contentError(file, '', `cannot read: ${reason}`, undefined);
  }
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
};

function fsReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && FS_REASONS[code] !== undefined) return FS_REASONS[code];
  return error instanceof Error ? error.message : String(error);
}
