/**
 * Text to a plain value, with a way back from a path in the value to a line in the text, so
 * schema errors can say where they are. Pure: the loader does the reading.
 */
import {
  type Document,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  type Pair,
  parseDocument,
  visit,
  type YAMLError,
  type YAMLMap,
} from 'yaml';
import { type ContentError, contentError } from './errors.js';

/** Larger files are refused unread: content files are small, and this bounds the work. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface ParsedContent {
  readonly file: string;
  readonly value: unknown;
  /** The line of the value at `path`, or of its nearest ancestor in the file; not for ''. */
  lineAt(path: readonly PropertyKey[]): number | undefined;
}

export type ParseResult =
  | { readonly ok: true; readonly content: ParsedContent }
  | { readonly ok: false; readonly errors: readonly ContentError[] };

/** Parses YAML, or JSON when the name ends in `.json`. */
export function parseContentText(file: string, text: string): ParseResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_FILE_BYTES) return failed(contentError(file, '', tooLarge(bytes), undefined));
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return file.toLowerCase().endsWith('.json') ? parseJson(file, source) : parseYaml(file, source);
}

export function tooLarge(bytes: number): string {
  const mib = (bytes / MAX_FILE_BYTES).toFixed(1);
  return `the file is ${mib} MiB; a content file may be at most 1 MiB`;
}

function failed(...errors: ContentError[]): ParseResult {
  return { ok: false, errors };
}

function parseYaml(file: string, text: string): ParseResult {
  const lines = new LineCounter();
  // logLevel 'error': yaml would otherwise print warnings (e.g. about odd keys) to the console.
  const document = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    logLevel: 'error',
    uniqueKeys: false,
  });
  if (document.errors.length > 0) {
    return failed(...document.errors.map((e) => yamlError(file, text, e, lines, 'YAML')));
  }
  const repeated = duplicateKeys(file, document, lines);
  if (repeated.length > 0) return failed(...repeated);
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // An unresolved alias or an alias bomb is only found when building the value.
    const message = `invalid YAML: ${lowerFirst(shortExcerpt(messageOf(error)))}`;
    return failed(contentError(file, '', message, undefined));
  }
  return { ok: true, content: located(file, value, document, lines) };
}

function parseJson(file: string, text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failed(jsonSyntaxError(file, text, messageOf(error)));
  }
  // JSON is YAML, so yaml's document gives the lines; JSON.parse alone decides what is valid.
  const lines = new LineCounter();
  const document = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    logLevel: 'silent',
    uniqueKeys: false,
  });
  // JSON.parse keeps the last of two equal keys without a word; an author means one of them.
  const repeated = duplicateKeys(file, document, lines);
  if (repeated.length > 0) return failed(...repeated);
  return { ok: true, content: located(file, value, document, lines) };
}

/**
 * Keys given twice in one map, with a Set per map. yaml's own check (uniqueKeys) compares each
 * key with every earlier one: a file of 20,000 fields took 3.5 s to parse.
 */
function duplicateKeys(file: string, document: Document, lines: LineCounter): ContentError[] {
  const errors: ContentError[] = [];
  visit(document, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        // '<<' merges another map in: it may appear more than once.
        if (!isScalar(pair.key) || pair.key.value === '<<') continue;
        const name = String(pair.key.value);
        if (!seen.has(name)) {
          seen.add(name);
          continue;
        }
        const offset = pair.key.range?.[0];
        const message = `the field "${shortExcerpt(name)}" is given twice; give each field once`;
        errors.push(
          contentError(
            file,
            '',
            message,
            offset === undefined ? undefined : lines.linePos(offset).line,
          ),
        );
      }
    },
  });
  return errors;
}

function yamlError(
  file: string,
  text: string,
  error: YAMLError,
  lines: LineCounter,
  format: string,
): ContentError {
  const line = lines.linePos(error.pos[0]).line;
  // yaml points at the start of the repeated key; the key runs to its closing quote or colon.
  const key = /^(["'])(.*?)\1|^[^:\n]*/.exec(text.slice(error.pos[0]));
  const name = key?.[2] ?? key?.[0].trim();
  const message =
    error.code === 'DUPLICATE_KEY'
      ? `the field "${name}" is given twice; give each field once`
      : `invalid ${format}: ${lowerFirst(shortExcerpt(error.message))}`;
  return contentError(file, '', message, line);
}

/**
 * V8's messages vary by version and may quote the whole text; keep the reason, and take the
 * line from the position when the message gives one.
 */
function jsonSyntaxError(file: string, text: string, raw: string): ContentError {
  const position = /at position (\d+)/.exec(raw);
  const reason = shortExcerpt(
    raw
      // V8 quotes the start of the text (raw bytes, control characters and all): never shown.
      .replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/ at position \d+.*$/s, '')
      .replace(/^Unexpected end of JSON input$/, 'the text ends too early'),
  );
  let line: number | undefined;
  if (position !== null) {
    const lines = new LineCounter();
    parseDocument(text, { lineCounter: lines, logLevel: 'silent' });
    line = lines.linePos(Number(position[1])).line;
  }
  return contentError(file, '', `invalid JSON: ${lowerFirst(reason)}`, line);
}

function located(file: string, value: unknown, document: Document, lines: LineCounter) {
  // Each map's keys indexed on first use: finding a key by scanning made 20,000 errors in one
  // map take 20,000 scans of 20,000 keys. The first of equal keys wins, as a scan found it.
  const indexes = new WeakMap<object, Map<string, Pair>>();
  const pairOf = (map: YAMLMap, key: PropertyKey): Pair | undefined => {
    let index = indexes.get(map);
    if (index === undefined) {
      index = new Map();
      for (const pair of map.items as Pair[]) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        if (!index.has(name)) index.set(name, pair);
      }
      indexes.set(map, index);
    }
    return index.get(String(key));
  };
  return {
    file,
    value,
    lineAt(path: readonly PropertyKey[]): number | undefined {
      let node: unknown = document.contents;
      let offset: number | undefined;
      for (const key of path) {
        if (isAlias(node)) node = node.resolve(document);
        if (isMap(node)) {
          const pair = pairOf(node, key);
          if (pair === undefined) break;
          offset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
          node = pair.value;
        } else if (isSeq(node) && typeof key === 'number') {
          const item = node.items[key];
          if (item === undefined) break;
          offset = isNode(item) ? item.range?.[0] : offset;
          node = item;
        } else {
          break;
        }
      }
      return offset === undefined ? undefined : lines.linePos(offset).line;
    },
  };
}

const MAX_EXCERPT = 120;

/**
 * At most a short excerpt of anything taken from a file, control characters escaped: an error
 * must not print a file's bytes, whatever the file is.
 */
export function shortExcerpt(text: string): string {
  const cut = text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}...` : text;
  return cut.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
