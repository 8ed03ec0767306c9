/**
 * One parsed file to one entity: the envelope first (format, kind, id, sample, source), then the
 * kind's schema on the remaining fields. Pure and per file; ids across files are the loader's.
 */
import { z } from 'zod';
import {
  type ContentError,
  contentError,
  didYouMean,
  expectedGot,
  formatPath,
  type PathSegment,
  parsePath,
} from './errors.js';
import { describeIssue } from './issues.js';
import {
  type ContentEnvelope,
  type ContentKind,
  EDITOR_FIELDS,
  ENVELOPE_FIELDS,
  type Entity,
  FORMAT_VERSION,
  ID_PATTERN,
} from './kind.js';
import type { ParsedContent } from './parse.js';

export interface EntityCheck {
  /** The kind, when the file names a registered one. */
  readonly kind?: string;
  /** The id, when the file has a valid one (even if other fields are wrong). */
  readonly id?: string;
  /** The entity, when the file has no errors at all. */
  readonly entity?: Entity<unknown>;
  readonly errors: readonly ContentError[];
}

const ID_RULE = 'a lowercase id (letters a-z, digits and "-", not starting with "-")';

export function validateEntity(
  content: ParsedContent,
  kinds: readonly ContentKind<unknown>[],
): EntityCheck {
  const errors: ContentError[] = [];
  const fail = (path: readonly PropertyKey[], message: string): void => {
    errors.push(contentError(content.file, formatPath(path), message, content.lineAt(path)));
  };
  const value = content.value;
  if (!isRecord(value)) {
    fail([], expectedGot('an object with the fields format, kind and id', value ?? null));
    return { errors };
  }

  // A file for another format version may use the same names with other meanings: stop here.
  if (value.format !== FORMAT_VERSION) {
    fail(
      ['format'],
      value.format === undefined
        ? `missing: expected format: ${FORMAT_VERSION}, the content format version this version of Moogle reads`
        : `unsupported format version ${JSON.stringify(value.format)}; this version of Moogle reads format ${FORMAT_VERSION}`,
    );
    return { errors };
  }

  const registered = new Map(kinds.map((k) => [k.kind, k]));
  const kind = typeof value.kind === 'string' ? registered.get(value.kind) : undefined;
  if (kind === undefined) fail(['kind'], unknownKind(value.kind, [...registered.keys()]));

  const id = typeof value.id === 'string' && ID_PATTERN.test(value.id) ? value.id : undefined;
  if (id === undefined) fail(['id'], expectedGot(ID_RULE, value.id) + slugHint(value.id));

  checkSample(value, fail);
  if (value.source !== undefined && typeof value.source !== 'string') {
    fail(['source'], expectedGot('text', value.source));
  }
  if (kind === undefined) return { ...(id === undefined ? {} : { id }), errors };

  const body: Record<string, unknown> = { ...value };
  for (const field of [...ENVELOPE_FIELDS, ...EDITOR_FIELDS]) delete body[field];
  const parsed = checkAgainstSchema(body, kind.schema);
  if (!parsed.ok) for (const issue of parsed.issues) fail(issue.path, issue.message);
  if (errors.length > 0 || !parsed.ok) {
    return { kind: kind.kind, ...(id === undefined ? {} : { id }), errors };
  }
  if (!isRecord(parsed.data)) {
    throw new TypeError(`the schema of content kind "${kind.kind}" must produce an object`);
  }

  const envelope: ContentEnvelope = {
    format: FORMAT_VERSION,
    kind: kind.kind,
    id: id!,
    ...(value.sample === undefined ? {} : { sample: value.sample as string[] }),
    ...(value.source === undefined ? {} : { source: value.source as string }),
  };
  return { kind: kind.kind, id: id!, entity: { ...envelope, ...parsed.data }, errors };
}

function unknownKind(kind: unknown, known: readonly string[]): string {
  const list =
    known.length === 0 ? 'no kinds are registered' : `the known kinds are ${known.join(', ')}`;
  if (typeof kind !== 'string') return `${expectedGot('a kind', kind)}; ${list}`;
  return `unknown kind "${kind}"${didYouMean(kind, known)}; ${list}`;
}

/** `Heket` -> `; did you mean "heket"?`, when lowercasing and dashes make a valid id. */
function slugHint(id: unknown): string {
  if (typeof id !== 'string') return '';
  const slug = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug !== id && ID_PATTERN.test(slug) ? `; did you mean "${slug}"?` : '';
}

function checkSample(
  value: Record<string, unknown>,
  fail: (path: readonly PropertyKey[], message: string) => void,
): void {
  const sample = value.sample;
  if (sample === undefined) return;
  if (!Array.isArray(sample)) {
    fail(['sample'], expectedGot('a list of paths, like ["stats.hp"]', sample));
    return;
  }
  sample.forEach((entry: unknown, index) => {
    const path = typeof entry === 'string' ? parsePath(entry) : undefined;
    if (path === undefined || !hasPath(value, path)) {
      fail(
        ['sample', index],
        expectedGot('the path of a value in this file, like "stats.hp"', entry),
      );
    }
  });
}

function hasPath(value: unknown, path: readonly PathSegment[]): boolean {
  let node = value;
  for (const key of path) {
    if (typeof key === 'number' ? !Array.isArray(node) : !isRecord(node)) return false;
    if (!Object.hasOwn(node as object, key)) return false;
    node = (node as Record<PathSegment, unknown>)[key];
  }
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema problem at a path, in a sentence. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Checks a value against a schema, with every problem as a plain sentence at its path, and
 * unknown fields with a suggestion of the field that was meant. Shared by content files and
 * every other data file a person writes (encounter files).
 */
export function checkAgainstSchema<T>(
  value: unknown,
  schema: z.ZodType<T>,
):
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] } {
  const knownFields = new Map<string, string[]>();
  const parsed = schema.safeParse(value, {
    error: (issue) => {
      // Remember each object's fields, to suggest one for an unknown field below.
      if (issue.code === 'unrecognized_keys' && issue.inst instanceof z.ZodObject) {
        knownFields.set(formatPath(issue.path ?? []), Object.keys(issue.inst.shape));
      }
      return describeIssue(issue);
    },
  });
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues: SchemaIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code !== 'unrecognized_keys') {
      issues.push({ path: issue.path, message: issue.message });
      continue;
    }
    const fields = knownFields.get(formatPath(issue.path)) ?? [];
    for (const key of issue.keys) {
      issues.push({
        path: [...issue.path, key],
        message: `unknown field "${key}"${didYouMean(key, fields)}`,
      });
    }
  }
  return { ok: false, issues };
}
