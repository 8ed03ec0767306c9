/**
 * The part of JSON Schema (draft 2020-12) that zod writes for content kinds, as the form engine
 * reads it. Content schemas have no `$ref`: zod inlines every reused schema.
 */

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

export type JsonObject = { readonly [key: string]: JsonValue };

/** The annotation naming the content kind whose id a string field holds (src/content/fields.ts). */
export const REF_KEYWORD = 'x-moogle-ref';
/** The annotation on an optional field a new entry's form starts with (src/content/fields.ts). */
export const FORM_START_KEYWORD = 'x-moogle-form-start';

export interface FormSchema {
  readonly type?: string | readonly string[];
  readonly title?: string;
  readonly description?: string;
  readonly default?: JsonValue;
  /** A value a new entry's form starts with, where the least allowed would not play. */
  readonly examples?: readonly JsonValue[];
  readonly const?: JsonValue;
  readonly enum?: readonly JsonValue[];
  readonly properties?: { readonly [key: string]: FormSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: FormSchema | boolean;
  readonly propertyNames?: FormSchema;
  readonly items?: FormSchema | boolean;
  readonly prefixItems?: readonly FormSchema[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly anyOf?: readonly FormSchema[];
  readonly oneOf?: readonly FormSchema[];
  readonly allOf?: readonly FormSchema[];
  readonly [REF_KEYWORD]?: string;
  readonly [FORM_START_KEYWORD]?: boolean;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The schema's types; `integer` also accepts what `number` does not (and vice versa, below). */
export function typesOf(schema: FormSchema): readonly string[] {
  if (schema.type !== undefined)
    return typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (schema.const !== undefined) return [typeOf(schema.const)];
  if (schema.enum !== undefined) return [...new Set(schema.enum.map(typeOf))];
  if (schema.properties !== undefined || schema.additionalProperties !== undefined)
    return ['object'];
  if (schema.items !== undefined || schema.prefixItems !== undefined) return ['array'];
  return [];
}

/**
 * Whether a value has the shape of a schema, enough to tell a union's branches apart: types,
 * consts, enums and required keys, not ranges or patterns (an out-of-range number still belongs
 * to its branch, and the server says what is wrong with it).
 */
export function fits(schema: FormSchema, value: unknown): boolean {
  if (schema.const !== undefined) return JSON.stringify(schema.const) === JSON.stringify(value);
  if (schema.enum !== undefined && !schema.enum.some((e) => e === value)) return false;
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) return branches.some((b) => fits(b, value));
  const types = typesOf(schema);
  const actual = typeOf(value);
  if (
    types.length > 0 &&
    !types.includes(actual) &&
    !(actual === 'integer' && types.includes('number'))
  ) {
    return false;
  }
  if (isObject(value) && schema.properties !== undefined) {
    for (const key of schema.required ?? []) if (!(key in value)) return false;
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (key in value && sub.const !== undefined && !fits(sub, value[key])) return false;
    }
    if (schema.additionalProperties === false) {
      for (const key of Object.keys(value)) if (!(key in schema.properties)) return false;
    }
  }
  return true;
}

/**
 * A starting value for a schema: its default, else the least a GM must fill in (required keys
 * of an object, and keys with their own defaults so the GM sees what they are).
 */
export function defaultFor(schema: FormSchema): JsonValue {
  if (schema.default !== undefined) return schema.default;
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0]!;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0]!;
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined && branches.length > 0) return defaultFor(branches[0]!);
  const type = typesOf(schema)[0];
  switch (type) {
    case 'object': {
      const out: Record<string, JsonValue> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || sub.default !== undefined || sub[FORM_START_KEYWORD] === true) {
          out[key] = defaultFor(sub);
        }
      }
      return out;
    }
    case 'array': {
      if (schema.prefixItems !== undefined) return schema.prefixItems.map(defaultFor);
      // A list that needs items starts with as many as it needs, each a fresh item.
      const item = typeof schema.items === 'object' ? schema.items : {};
      return Array.from({ length: Math.min(schema.minItems ?? 0, 100) }, () => defaultFor(item));
    }
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return '';
  }
}
