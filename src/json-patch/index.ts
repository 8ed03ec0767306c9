/**
 * JSON Patch (RFC 6902) over plain JSON: `diff` writes the operations that turn one document
 * into another, `applyPatch` carries them out. Only `add`, `remove` and `replace` are written;
 * `applyPatch` reads those and `test`. Written here rather than taken from a library: the server
 * and the browser share it, the patches must be the same byte for byte for the same two
 * documents (they are serialized once per audience), and applying must leave the old document
 * untouched, sharing what did not change (a screen redraws what changed by reference) — a
 * few dozen lines, where a library would add its own deep copies or mutate in place.
 *
 * "Plain JSON" as `JSON.stringify` writes it: a property whose value is `undefined` is absent,
 * and the documents hold no functions, dates or cycles.
 */

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

export type PatchOperation =
  | { readonly op: 'add'; readonly path: string; readonly value: JsonValue }
  | { readonly op: 'replace'; readonly path: string; readonly value: JsonValue }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'test'; readonly path: string; readonly value: JsonValue };

export type JsonPatch = readonly PatchOperation[];

/** The document and the patch do not fit: the client holds something else than the server thinks. */
export class PatchError extends Error {
  override readonly name = 'PatchError';
}

type JsonObject = { readonly [key: string]: JsonValue | undefined };

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901: `~` and `/` escaped in a reference token. */
const escapeToken = (token: string): string =>
  token.includes('~') || token.includes('/')
    ? token.replace(/~/g, '~0').replace(/\//g, '~1')
    : token;
const unescapeToken = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Whether two plain JSON values are the same, keys in any order, absent and undefined alike. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    let count = 0;
    for (const key of Object.keys(a)) {
      if (a[key] === undefined) continue;
      count++;
      if (b[key] === undefined || !jsonEqual(a[key], b[key])) return false;
    }
    for (const key of Object.keys(b)) if (b[key] !== undefined) count--;
    return count === 0;
  }
  return false;
}

/**
 * The operations that turn `from` into `to`. Objects are compared key by key (removals, then
 * changes, then additions, each in `to`'s or `from`'s key order); arrays keep the elements
 * their ends share, compare the middle element by element, and add or remove the rest at its
 * end. A change that would take more text than the new value replaces the value whole.
 *
 * With `shared`, the operations of a top-level member that `shared` has seen changed before
 * (the same path, the same objects before and after) are read back, not worked out again.
 */
export function diff(from: JsonValue, to: JsonValue, shared?: SharedPatches): PatchOperation[] {
  const ops: PatchOperation[] = [];
  sizes = new WeakMap();
  if (shared !== undefined && isObject(from) && isObject(to) && from !== to) {
    walkObject(from, to, '', ops, shared.walkMember);
  } else walk(from, to, '', ops);
  return ops;
}

/**
 * The operations of members several documents hold as the same objects, kept between `diff`
 * calls: the audiences of a broadcast share parts of their states (every player and spectator
 * sees one view of the fight), and each part's operations are worked out once, not once per
 * audience. Keyed by identity: a member is the same only as the same object, before and
 * after. Made for one round of related diffs and then let go.
 */
export class SharedPatches {
  private readonly byPath = new Map<string, Map<object, Map<object, PatchOperation[]>>>();

  /** `walkChild` for a document's members, through what was worked out before. */
  readonly walkMember: WalkChild = (from, to, path, ops) => {
    if (typeof from !== 'object' || typeof to !== 'object' || from === null || to === null) {
      walkChild(from, to, path, ops);
      return;
    }
    ops.push(...this.operations(path, from, to));
  };

  /** The member's operations, worked out the first time they are asked for. */
  operations(path: string, from: object, to: object): readonly PatchOperation[] {
    let byFrom = this.byPath.get(path);
    if (byFrom === undefined) {
      byFrom = new Map();
      this.byPath.set(path, byFrom);
    }
    let byTo = byFrom.get(from);
    if (byTo === undefined) {
      byTo = new Map();
      byFrom.set(from, byTo);
    }
    let ops = byTo.get(to);
    if (ops === undefined) {
      ops = [];
      walkChild(from as JsonValue, to as JsonValue, path, ops);
      byTo.set(to, ops);
    }
    return ops;
  }
}

/** The lengths `diff` has measured so far in this call (diff is synchronous). */
let sizes = new WeakMap<object, number>();

function walk(from: JsonValue, to: JsonValue, path: string, ops: PatchOperation[]): void {
  if (from === to) return;
  if (Array.isArray(from) && Array.isArray(to)) {
    walkArray(from, to, path, ops);
    return;
  }
  if (isObject(from) && isObject(to)) {
    walkObject(from, to, path, ops);
    return;
  }
  if (jsonEqual(from, to)) return;
  ops.push({ op: 'replace', path, value: to });
}

/** A container's changes, or one `replace` when they would be longer than the value itself. */
function walkChild(from: JsonValue, to: JsonValue, path: string, ops: PatchOperation[]): void {
  if (from === to) return;
  if (typeof from !== 'object' || typeof to !== 'object' || from === null || to === null) {
    if (from !== to) ops.push({ op: 'replace', path, value: to });
    return;
  }
  const inner: PatchOperation[] = [];
  walk(from, to, path, inner);
  if (inner.length <= 1) {
    ops.push(...inner);
    return;
  }
  // JSON.stringify(inner).length against JSON.stringify(whole).length, measured without
  // writing either: the values inside are measured once per container however deep the change.
  let innerLength = 1 + inner.length;
  for (const op of inner) innerLength += operationLength(op, sizes);
  if (innerLength > REPLACE_LENGTH + stringLength(path) + jsonLength(to, sizes)) {
    ops.push({ op: 'replace', path, value: to });
  } else ops.push(...inner);
}

/** `{"op":"replace","path":,"value":}` without the path and the value. */
const REPLACE_LENGTH = '{"op":"replace","path":,"value":}'.length;
const REMOVE_LENGTH = '{"op":"remove","path":}'.length;
const ADD_LENGTH = '{"op":"add","path":,"value":}'.length;
const TEST_LENGTH = '{"op":"test","path":,"value":}'.length;

function operationLength(op: PatchOperation, sizes: WeakMap<object, number>): number {
  switch (op.op) {
    case 'remove':
      return REMOVE_LENGTH + stringLength(op.path);
    case 'add':
      return ADD_LENGTH + stringLength(op.path) + jsonLength(op.value, sizes);
    case 'replace':
      return REPLACE_LENGTH + stringLength(op.path) + jsonLength(op.value, sizes);
    case 'test':
      return TEST_LENGTH + stringLength(op.path) + jsonLength(op.value, sizes);
  }
}

/**
 * `JSON.stringify(value).length`, for plain JSON, without writing the string; each container
 * is measured once per `measured` (one `diff` measures the same values at every depth).
 */
export function jsonLength(
  value: JsonValue | undefined,
  measured: WeakMap<object, number> = new WeakMap(),
): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return stringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return 0;
  }
  const known = measured.get(value);
  if (known !== undefined) return known;
  let length: number;
  if (Array.isArray(value)) {
    length = 1 + Math.max(1, value.length);
    for (const item of value as readonly (JsonValue | undefined)[]) {
      length += item === undefined || typeof item === 'function' ? 4 : jsonLength(item, measured);
    }
  } else {
    length = 2;
    let members = 0;
    const object = value as JsonObject;
    // Plain JSON has no inherited keys: for-in walks what JSON.stringify writes, faster.
    for (const key in object) {
      const item = object[key];
      if (item === undefined || typeof item === 'function') continue;
      length += stringLength(key) + 1 + jsonLength(item, measured);
      members++;
    }
    if (members > 1) length += members - 1;
  }
  measured.set(value, length);
  return length;
}

/** The length of a string as JSON writes it, quotes and escapes included. */
function stringLength(text: string): number {
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff))
      continue;
    if (
      code === 0x22 ||
      code === 0x5c ||
      code === 0x08 ||
      code === 0x09 ||
      code === 0x0a ||
      code === 0x0c ||
      code === 0x0d
    )
      length += 1;
    else if (code < 0x20) length += 5;
    else if (code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00)
      i++;
    else length += 5;
  }
  return length;
}

type WalkChild = (from: JsonValue, to: JsonValue, path: string, ops: PatchOperation[]) => void;

function walkObject(
  from: JsonObject,
  to: JsonObject,
  path: string,
  ops: PatchOperation[],
  member: WalkChild = walkChild,
): void {
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && to[key] === undefined) {
      ops.push({ op: 'remove', path: `${path}/${escapeToken(key)}` });
    }
  }
  for (const key of Object.keys(to)) {
    const next = to[key];
    if (next === undefined) continue;
    const before = from[key];
    const at = `${path}/${escapeToken(key)}`;
    if (before === undefined) ops.push({ op: 'add', path: at, value: next });
    else member(before, next, at, ops);
  }
}

function walkArray(
  from: readonly JsonValue[],
  to: readonly JsonValue[],
  path: string,
  ops: PatchOperation[],
): void {
  let head = 0;
  const shorter = Math.min(from.length, to.length);
  while (head < shorter && jsonEqual(from[head], to[head])) head++;
  let tail = 0;
  while (
    tail < shorter - head &&
    jsonEqual(from[from.length - 1 - tail], to[to.length - 1 - tail])
  ) {
    tail++;
  }
  const fromMiddle = from.length - head - tail;
  const toMiddle = to.length - head - tail;
  const paired = Math.min(fromMiddle, toMiddle);
  for (let i = head; i < head + paired; i++) walkChild(from[i]!, to[i]!, `${path}/${i}`, ops);
  // Removed from the last down, so each index still names the element it meant.
  for (let i = head + fromMiddle - 1; i >= head + paired; i--) {
    ops.push({ op: 'remove', path: `${path}/${i}` });
  }
  for (let i = head + paired; i < head + toMiddle; i++) {
    ops.push({ op: 'add', path: `${path}/${i}`, value: to[i]! });
  }
}

/**
 * `doc` with the patch applied, `doc` itself untouched: the containers along each changed path
 * are copied (each once), everything else is shared. Throws `PatchError` when an operation does
 * not fit the document (a path that is not there, an index out of range, a failed `test`).
 */
export function applyPatch<T extends JsonValue>(doc: T, patch: JsonPatch): T {
  let root: JsonValue = doc;
  const fresh = new Set<object>();
  const own = <C extends object>(container: C): C => {
    if (fresh.has(container)) return container;
    const copy = (Array.isArray(container) ? [...container] : { ...container }) as C;
    fresh.add(copy);
    return copy;
  };
  for (const operation of patch) {
    if (!isOperation(operation)) throw new PatchError('not a patch operation');
    const tokens = parsePointer(operation.path);
    if (tokens.length === 0) {
      if (operation.op === 'remove') throw new PatchError('the whole document cannot be removed');
      if (operation.op === 'test') {
        if (!jsonEqual(root, operation.value)) throw new PatchError('test failed at the root');
        continue;
      }
      root = operation.value;
      continue;
    }
    if (operation.op === 'test') {
      if (!jsonEqual(read(root, tokens), operation.value)) {
        throw new PatchError(`test failed at ${operation.path}`);
      }
      continue;
    }
    // Copy the containers down to the parent of the target, then change the parent.
    if (typeof root !== 'object' || root === null) {
      throw new PatchError(`${operation.path}: no container at the root`);
    }
    root = own(root);
    let parent = root as unknown as Record<string, JsonValue> | JsonValue[];
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i]!;
      const child = childOf(parent, token, operation.path);
      if (typeof child !== 'object' || child === null) {
        throw new PatchError(`${operation.path}: no container at ${token}`);
      }
      const copy = own(child) as Record<string, JsonValue> | JsonValue[];
      if (Array.isArray(parent)) parent[Number(token)] = copy as JsonValue;
      else parent[token] = copy as JsonValue;
      parent = copy;
    }
    change(parent, tokens.at(-1)!, operation);
  }
  return root as T;
}

function isOperation(value: unknown): value is PatchOperation {
  if (!isObject(value) || typeof value.path !== 'string') return false;
  if (value.op === 'remove') return true;
  return (value.op === 'add' || value.op === 'replace' || value.op === 'test') && 'value' in value;
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`not a JSON pointer: ${path}`);
  const tokens = path.slice(1).split('/').map(unescapeToken);
  // Plain JSON has no prototypes to reach: `__proto__` as a member would set one.
  if (tokens.includes('__proto__')) throw new PatchError(`${path}: __proto__ is not a member`);
  return tokens;
}

function arrayIndex(array: readonly unknown[], token: string, path: string, end: boolean): number {
  if (end && token === '-') return array.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new PatchError(`${path}: not an array index`);
  const index = Number(token);
  if (index > array.length || (!end && index === array.length)) {
    throw new PatchError(`${path}: index ${index} out of range`);
  }
  return index;
}

function childOf(
  parent: Record<string, JsonValue> | JsonValue[],
  token: string,
  path: string,
): JsonValue {
  if (Array.isArray(parent)) return parent[arrayIndex(parent, token, path, false)]!;
  if (!Object.hasOwn(parent, token) || parent[token] === undefined) {
    throw new PatchError(`${path}: no member ${token}`);
  }
  return parent[token];
}

function read(root: JsonValue, tokens: readonly string[]): JsonValue {
  let at: JsonValue = root;
  for (const token of tokens) {
    if (typeof at !== 'object' || at === null) throw new PatchError(`no value at /${token}`);
    at = childOf(at as Record<string, JsonValue> | JsonValue[], token, `/${tokens.join('/')}`);
  }
  return at;
}

function change(
  parent: Record<string, JsonValue> | JsonValue[],
  token: string,
  operation: Exclude<PatchOperation, { op: 'test' }>,
): void {
  const { path } = operation;
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, token, path, operation.op === 'add');
    if (operation.op === 'add') parent.splice(index, 0, operation.value);
    else if (operation.op === 'remove') parent.splice(index, 1);
    else parent[index] = operation.value;
    return;
  }
  if (operation.op === 'add') {
    parent[token] = operation.value;
    return;
  }
  if (!Object.hasOwn(parent, token) || parent[token] === undefined) {
    throw new PatchError(`${path}: no member ${token}`);
  }
  if (operation.op === 'remove') delete parent[token];
  else parent[token] = operation.value;
}
