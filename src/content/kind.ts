import { z } from 'zod';

/** The content format version this build reads; every file says which one it was written for. */
export const FORMAT_VERSION = 1;

/** Ids and kind name parts: lowercase slugs, safe in file names and URLs. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

const KIND_PATTERN = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;

/** The fields every content file has, whatever its kind; the loader checks them itself. */
export const ENVELOPE_FIELDS = ['format', 'kind', 'id', 'sample', 'source'] as const;

/**
 * Accepted and dropped: a JSON file may name its schema so an editor can check it, and
 * `additionalProperties: false` would otherwise reject that.
 */
export const EDITOR_FIELDS = ['$schema'] as const;

export interface ContentEnvelope {
  readonly format: typeof FORMAT_VERSION;
  readonly kind: string;
  readonly id: string;
  /** Paths (`stats.hp`, `abilities[2]`) of values made up as samples, not taken from a rule text. */
  readonly sample?: readonly string[];
  /** Where the values come from, e.g. a book and page. */
  readonly source?: string;
}

/** A loaded entity: the envelope plus the kind's own fields. Plain JSON data. */
export type Entity<T> = ContentEnvelope & T;

/** A use of another entity by id, found by `ContentKind.references` and checked at load. */
export interface ContentReference {
  readonly kind: string;
  readonly id: string;
  /** Where the id is written, relative to the entity: `abilities[2]`. */
  readonly path: string;
}

/**
 * One kind of content (`ffrpg/monster`, `ffrpg/weapon`): the schema of its fields besides the
 * envelope, and the ids it refers to. Rulesets define these; the content layer knows none.
 */
export interface ContentKind<T> {
  /** `<system>/<name>`, e.g. `ffrpg/monster`. */
  readonly kind: string;
  /** The fields other than format, kind, id, sample and source. Keep it JSON-shaped. */
  readonly schema: z.ZodType<T>;
  readonly description: string;
  references?(entity: T): readonly ContentReference[];
}

/** An entity without its envelope: the kind's own fields, e.g. to copy into encounter state. */
export function entityFields<T>(entity: Entity<T>): T {
  const fields: Record<string, unknown> = { ...(entity as ContentEnvelope) };
  for (const field of ENVELOPE_FIELDS) delete fields[field];
  return fields as T;
}

/** The entity type of a kind: `EntityOf<typeof weapon>`. */
export type EntityOf<K> = K extends ContentKind<infer T> ? Entity<T> : never;

/**
 * Checks a kind definition once, when a ruleset declares it. A top-level `z.object` is made
 * strict, so a misspelt field name is reported instead of silently dropped; `z.looseObject`
 * keeps unknown fields if a kind really wants them. Nested objects: use `z.strictObject`.
 */
export function defineKind<T>(definition: ContentKind<T>): ContentKind<T> {
  if (!KIND_PATTERN.test(definition.kind)) {
    throw new TypeError(`content kind "${definition.kind}" must look like "system/name"`);
  }
  const schema = definition.schema;
  if (!(schema instanceof z.ZodObject)) return { ...definition };
  const clash = [...ENVELOPE_FIELDS, ...EDITOR_FIELDS].filter((field) => field in schema.shape);
  if (clash.length > 0) {
    throw new TypeError(
      `content kind "${definition.kind}" must not define envelope fields: ${clash.join(', ')}`,
    );
  }
  if (schema._zod.def.catchall !== undefined) return { ...definition };
  // strict() changes how unknown keys are handled, not the output: the cast restates T.
  return { ...definition, schema: schema.strict() as unknown as z.ZodType<T> };
}
