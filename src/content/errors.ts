/**
 * Content errors are values: a loader run reports every mistake in every file at once, each
 * naming the file, the place in it and what was expected, so an author can fix them in one pass.
 */
export interface ContentError {
  readonly file: string;
  /** Where in the entity, like `stats.hp` or `abilities[2]`; '' for the whole file. */
  readonly path: string;
  /** What was expected and what was found. */
  readonly message: string;
  /** 1-based, when the place could be found in the text. */
  readonly line?: number;
}

/** `content/heket.yaml:7: stats.hp: expected a whole number from 1 to 99999, got "lots"` */
export function formatContentError(error: ContentError): string {
  const where = error.line === undefined ? error.file : `${error.file}:${error.line}`;
  return error.path === ''
    ? `${where}: ${error.message}`
    : `${where}: ${error.path}: ${error.message}`;
}

/** At most this many errors are printed at once; the rest are counted. */
export const MAX_ERRORS_SHOWN = 50;

/**
 * Errors as lines for a terminal: the first `max`, then how many more. A file of 20,000
 * unknown fields is one mistake repeated; its first fifty say what it is.
 */
export function formatContentErrors(
  errors: readonly ContentError[],
  max: number = MAX_ERRORS_SHOWN,
): string[] {
  const lines = errors.slice(0, max).map(formatContentError);
  const more = errors.length - lines.length;
  if (more > 0) lines.push(`... and ${more} more ${more === 1 ? 'error' : 'errors'}`);
  return lines;
}

export function contentError(
  file: string,
  path: string,
  message: string,
  line: number | undefined,
): ContentError {
  return line === undefined ? { file, path, message } : { file, path, message, line };
}

export type PathSegment = string | number;

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `['abilities', 2, 'name']` -> `abilities[2].name`; odd keys are quoted: `resist["fire %"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && PLAIN_KEY.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/** Reads a path written by formatPath (or by an author, in `sample`); undefined if malformed. */
export function parsePath(text: string): PathSegment[] | undefined {
  const segment = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  const path: PathSegment[] = [];
  while (segment.lastIndex < text.length) {
    const start = segment.lastIndex;
    const match = segment.exec(text);
    if (match === null || (start === 0 && match[0].startsWith('.'))) return undefined;
    if (start > 0 && match[1] !== undefined && !match[0].startsWith('.')) return undefined;
    if (match[1] !== undefined) path.push(match[1]);
    else if (match[2] !== undefined) path.push(Number(match[2]));
    else path.push(JSON.parse(match[3]!) as string);
  }
  return path.length === 0 ? undefined : path;
}

const MAX_SHOWN = 40;

/** A found value, as an error message shows it: `"lots"`, `12`, `a list`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** `expected X, got Y`, or `missing: expected X` when there is no value at all. */
export function expectedGot(expected: string, input: unknown): string {
  return input === undefined
    ? `missing: expected ${expected}`
    : `expected ${expected}, got ${describeValue(input)}`;
}

/** The candidates nearest a misspelt name, if within a small edit distance; up to three. */
export function closest(name: string, candidates: Iterable<string>): string[] {
  let best = Math.max(2, Math.floor(name.length / 3));
  let found: string[] = [];
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < best) [best, found] = [distance, []];
    if (distance === best) found.push(candidate);
  }
  return found.sort(compareText).slice(0, 3);
}

/** `; did you mean "fire-sword"?`, or '' when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const close = closest(name, candidates);
  return close.length === 0 ? '' : `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Code-unit order: the same on every machine and locale, unlike localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
