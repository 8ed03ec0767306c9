/**
 * A schema and a value as form fields: one pure tree the page renders, and reads back into the
 * JSON it would save. Every control keeps what the GM typed (a number field's text, not the
 * number), so a half-typed "1e" reaches the server as typed and is refused beside its field
 * rather than silently turned into something else.
 */
import {
  defaultFor,
  type FormSchema,
  fits,
  isObject,
  type JsonObject,
  type JsonValue,
  REF_KEYWORD,
  typesOf,
} from './schema.js';

export type FieldPath = readonly (string | number)[];

interface FieldBase {
  readonly path: FieldPath;
  readonly label: string;
  readonly description?: string;
  /** Whether the field can be taken out (an optional key, a list's row, a map's entry). */
  readonly removable: boolean;
  readonly schema: FormSchema;
}

export type Field =
  | (FieldBase & { readonly control: 'text'; readonly text: string })
  | (FieldBase & {
      readonly control: 'number';
      readonly text: string;
      readonly integer: boolean;
      readonly min?: number;
      readonly max?: number;
      readonly step?: number;
    })
  | (FieldBase & { readonly control: 'boolean'; readonly checked: boolean })
  | (FieldBase & {
      readonly control: 'select';
      readonly options: readonly JsonValue[];
      /** -1 when the value is none of the options (shown, and refused by the server). */
      readonly selected: number;
      readonly value: JsonValue;
    })
  /** The id of another entity of `refKind`: the page offers the library's entries of that kind. */
  | (FieldBase & { readonly control: 'ref'; readonly refKind: string; readonly text: string })
  /** Fixed (a content file's format and kind, a union branch's tag): kept, not shown. */
  | (FieldBase & { readonly control: 'const'; readonly value: JsonValue })
  | (FieldBase & {
      readonly control: 'object';
      readonly fields: readonly Field[];
      /** Optional keys not set, which the GM can add. */
      readonly addable: readonly { readonly key: string; readonly label: string }[];
      /** Keys the schema does not name, kept as they are. */
      readonly extra: JsonObject;
    })
  | (FieldBase & {
      readonly control: 'list';
      readonly items: readonly Field[];
      readonly itemSchema: FormSchema;
      readonly canAdd: boolean;
    })
  | (FieldBase & { readonly control: 'tuple'; readonly items: readonly Field[] })
  | (FieldBase & {
      readonly control: 'map';
      readonly entries: readonly { readonly key: string; readonly field: Field }[];
      readonly keyField: Field;
      readonly valueSchema: FormSchema;
    })
  | (FieldBase & {
      readonly control: 'variant';
      readonly variants: readonly { readonly label: string; readonly schema: FormSchema }[];
      readonly chosen: number;
      readonly field: Field;
    })
  /** What the engine has no control for: edited as JSON text. */
  | (FieldBase & { readonly control: 'json'; readonly text: string });

/** Abbreviations as the rule texts write them: Combat Statistics, points, Chance of Success. */
const WORDS: Readonly<Record<string, string>> = {
  hp: 'HP',
  mp: 'MP',
  xp: 'XP',
  exp: 'EXP',
  sp: 'SP',
  map: 'MAP',
  acc: 'ACC',
  macc: 'MACC',
  eva: 'EVA',
  meva: 'MEVA',
  arm: 'ARM',
  marm: 'MARM',
  cos: 'CoS',
};

/** A key as a label, when the schema gives no title: `chargeTime` -> `Charge time`. */
export function labelOf(key: string | number, schema?: FormSchema): string {
  if (schema?.title !== undefined) return schema.title;
  if (typeof key === 'number') return `#${key + 1}`;
  const word = WORDS[key.toLowerCase()];
  if (word !== undefined) return word;
  if (/^[A-Z0-9]+$/.test(key)) return key;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .split(' ')
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A union branch's name: its title, its tag (`kind: 'flat'`), or its type. */
function variantLabel(schema: FormSchema, index: number): string {
  if (schema.title !== undefined) return schema.title;
  if (schema.const !== undefined) return String(schema.const);
  for (const sub of Object.values(schema.properties ?? {})) {
    if (sub.const !== undefined) return String(sub.const);
  }
  const type = typesOf(schema)[0];
  if (type === 'string') return schema[REF_KEYWORD] !== undefined ? 'by id' : 'text';
  if (type === 'object') return 'written out';
  if (type === 'integer' || type === 'number') return 'number';
  return type ?? `option ${index + 1}`;
}

function text(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The field tree of `value` under `schema`. */
export function fieldOf(
  schema: FormSchema,
  value: JsonValue | undefined,
  path: FieldPath = [],
  label = '',
  removable = false,
): Field {
  const base = {
    path,
    label,
    removable,
    schema,
    ...(schema.description === undefined ? {} : { description: schema.description }),
  };
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) {
    const found = branches.findIndex((b) => fits(b, value));
    const chosen = Math.max(found, 0);
    return {
      ...base,
      control: 'variant',
      variants: branches.map((b, i) => ({ label: variantLabel(b, i), schema: b })),
      chosen,
      // The branch's field shares the union's path and label: one field, picked by the variant.
      field: fieldOf(branches[chosen]!, value, path, label),
    };
  }
  if (schema.const !== undefined) return { ...base, control: 'const', value: schema.const };
  if (schema.enum !== undefined) {
    const v = value ?? null;
    return {
      ...base,
      control: 'select',
      options: schema.enum,
      selected: schema.enum.indexOf(v),
      value: v,
    };
  }
  const types = typesOf(schema);
  const type = types.length === 1 ? types[0] : undefined;
  // A value of another type than the schema's (a hand-written file's mistake) is kept as JSON.
  const numeric = type === 'integer' || type === 'number';
  const typed = numeric
    ? typeof value === 'number' || typeof value === 'string'
    : fits({ type }, value);
  if (value !== undefined && type !== undefined && !typed) {
    return { ...base, control: 'json', text: JSON.stringify(value) };
  }
  switch (type) {
    case 'string': {
      const ref = schema[REF_KEYWORD];
      if (ref !== undefined) return { ...base, control: 'ref', refKind: ref, text: text(value) };
      return { ...base, control: 'text', text: text(value) };
    }
    case 'integer':
    case 'number':
      return {
        ...base,
        control: 'number',
        text: text(value),
        integer: type === 'integer',
        ...(schema.minimum === undefined || !Number.isSafeInteger(schema.minimum)
          ? {}
          : { min: schema.minimum }),
        ...(schema.maximum === undefined || !Number.isSafeInteger(schema.maximum)
          ? {}
          : { max: schema.maximum }),
        ...(schema.multipleOf === undefined ? {} : { step: schema.multipleOf }),
      };
    case 'boolean':
      return { ...base, control: 'boolean', checked: value === true };
    case 'object':
      return objectField(base, schema, isObject(value) ? value : {});
    case 'array':
      return arrayField(base, schema, Array.isArray(value) ? (value as JsonValue[]) : []);
    default:
      return { ...base, control: 'json', text: value === undefined ? '' : JSON.stringify(value) };
  }
}

type Base = Omit<FieldBase, 'schema'> & { readonly schema: FormSchema };

function objectField(base: Base, schema: FormSchema, value: JsonObject): Field {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const additional = schema.additionalProperties;
  if (schema.properties === undefined && typeof additional === 'object') {
    const keySchema: FormSchema = { type: 'string', ...(schema.propertyNames ?? {}) };
    return {
      ...base,
      control: 'map',
      entries: Object.entries(value).map(([key, v]) => ({
        key,
        field: fieldOf(additional, v, [...base.path, key], key, true),
      })),
      keyField: fieldOf(keySchema, '', [...base.path], 'Name'),
      valueSchema: additional,
    };
  }
  const fields: Field[] = [];
  const addable: { key: string; label: string }[] = [];
  for (const [key, sub] of Object.entries(properties)) {
    if (key in value) {
      fields.push(
        fieldOf(sub, value[key], [...base.path, key], labelOf(key, sub), !required.has(key)),
      );
    } else if (!required.has(key)) {
      addable.push({ key, label: labelOf(key, sub) });
    } else {
      // A required key missing from the value: shown empty, so the GM sees it must be filled.
      fields.push(fieldOf(sub, undefined, [...base.path, key], labelOf(key, sub), false));
    }
  }
  const extra: Record<string, JsonValue> = {};
  for (const [key, v] of Object.entries(value)) if (!(key in properties)) extra[key] = v;
  return { ...base, control: 'object', fields, addable, extra };
}

function arrayField(base: Base, schema: FormSchema, value: readonly JsonValue[]): Field {
  if (schema.prefixItems !== undefined) {
    return {
      ...base,
      control: 'tuple',
      items: schema.prefixItems.map((s, i) =>
        fieldOf(s, value[i], [...base.path, i], s.title ?? `#${i + 1}`),
      ),
    };
  }
  const itemSchema: FormSchema = typeof schema.items === 'object' ? schema.items : {};
  return {
    ...base,
    control: 'list',
    itemSchema,
    items: value.map((v, i) => fieldOf(itemSchema, v, [...base.path, i], labelOf(i), true)),
    canAdd: schema.maxItems === undefined || value.length < schema.maxItems,
  };
}

/** A number field's text as JSON: the number when it is one, else the text as typed. */
function numberOf(text: string): JsonValue {
  const trimmed = text.trim();
  if (trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  return text;
}

function jsonOf(text: string): JsonValue | undefined {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** The JSON a field tree stands for: what saving the form sends. */
export function readField(field: Field): JsonValue | undefined {
  switch (field.control) {
    case 'text':
    case 'ref':
      return field.text;
    case 'number':
      return numberOf(field.text);
    case 'boolean':
      return field.checked;
    case 'select':
      return field.value;
    case 'const':
      return field.value;
    case 'json':
      return jsonOf(field.text);
    case 'variant':
      return readField(field.field);
    case 'tuple':
    case 'list':
      return field.items.map((f) => readField(f) ?? null);
    case 'map': {
      const out: Record<string, JsonValue> = {};
      for (const { key, field: f } of field.entries) {
        const v = readField(f);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'object': {
      const out: Record<string, JsonValue> = {};
      for (const f of field.fields) {
        const v = readField(f);
        if (v !== undefined) out[f.path[f.path.length - 1] as string] = v;
      }
      return { ...out, ...field.extra };
    }
  }
}

/** `value` with `next` at `path` (undefined takes the key or row out); the rest shared. */
export function setAt(
  value: JsonValue | undefined,
  path: FieldPath,
  next: JsonValue | undefined,
): JsonValue | undefined {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...(value as JsonValue[])] : [];
    const child = setAt(list[head], rest, next);
    if (child === undefined) list.splice(head, 1);
    else list[head] = child;
    return list;
  }
  const object: Record<string, JsonValue> = isObject(value) ? { ...value } : {};
  const child = setAt(object[head!], rest, next);
  if (child === undefined) delete object[head!];
  else object[head!] = child;
  return object;
}

/** Renames a map's key in place, keeping the entries' order. */
export function renameKey(map: JsonValue | undefined, from: string, to: string): JsonObject {
  const entries = Object.entries(isObject(map) ? map : {});
  return Object.fromEntries(entries.map(([k, v]) => [k === from ? to : k, v]));
}

/** The value a new list row, map entry, optional key or picked variant starts with. */
export { defaultFor };

/** `a.b[2].c`: a path as content errors and the server's issues write it. */
export function pathText(path: FieldPath): string {
  let out = '';
  for (const part of path) {
    out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  }
  return out;
}

export interface Issue {
  readonly path: FieldPath;
  readonly message: string;
  readonly expected?: string;
}

/**
 * Issues by the field that shows them: an issue's own path when the form has a field there,
 * else its nearest shown ancestor (a missing required key is reported at the object, say).
 */
export function issuesByField(root: Field, issues: readonly Issue[]): Map<string, Issue[]> {
  const shown = new Set<string>();
  const walk = (f: Field) => {
    shown.add(pathText(f.path));
    switch (f.control) {
      case 'object':
        f.fields.forEach(walk);
        break;
      case 'list':
      case 'tuple':
        f.items.forEach(walk);
        break;
      case 'map':
        for (const e of f.entries) walk(e.field);
        break;
      case 'variant':
        walk(f.field);
        break;
    }
  };
  walk(root);
  const out = new Map<string, Issue[]>();
  for (const issue of issues) {
    let path = issue.path;
    while (path.length > 0 && !shown.has(pathText(path))) path = path.slice(0, -1);
    const at = pathText(path);
    out.set(at, [...(out.get(at) ?? []), issue]);
  }
  return out;
}

/** Every content reference a field tree holds: the ids the entry names, by kind and path. */
export function referencesIn(field: Field): { kind: string; id: string; path: string }[] {
  switch (field.control) {
    case 'ref':
      return [{ kind: field.refKind, id: field.text, path: pathText(field.path) }];
    case 'object':
      return field.fields.flatMap(referencesIn);
    case 'list':
    case 'tuple':
      return field.items.flatMap(referencesIn);
    case 'map': {
      const keyRef = field.keyField.schema[REF_KEYWORD];
      return field.entries.flatMap(({ key, field: f }) => [
        ...(keyRef === undefined
          ? []
          : [{ kind: keyRef, id: key, path: pathText([...field.path, key]) }]),
        ...referencesIn(f),
      ]);
    }
    case 'variant':
      return referencesIn(field.field);
    default:
      return [];
  }
}
