/** JSON Schemas for editors (completion and checks while writing YAML or JSON content). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeAtomically } from '../files/write-all.js';
import { type ContentKind, FORMAT_VERSION, ID_PATTERN } from './kind.js';

export type JsonSchema = z.core.JSONSchema.JSONSchema;

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

function envelopeProperties(kind: string): Record<string, JsonSchema> {
  return {
    $schema: { type: 'string', description: 'For editors: the schema of this file. Ignored.' },
    format: { const: FORMAT_VERSION, description: 'The content format version.' },
    kind: { const: kind, description: 'What this file describes.' },
    id: {
      type: 'string',
      pattern: ID_PATTERN.source,
      description: 'Unique within the kind: lowercase letters, digits and "-".',
    },
    sample: {
      type: 'array',
      items: { type: 'string' },
      description: 'Paths (stats.hp, abilities[2]) of values made up as samples, not rule text.',
    },
    source: { type: 'string', description: 'Where the values come from.' },
  };
}

const ENVELOPE_REQUIRED = ['format', 'kind', 'id'];

/** The schema of a kind's files: envelope and kind fields together, as the file has them. */
export function jsonSchemaFor(kind: ContentKind<unknown>): JsonSchema {
  // 'input': a file holds what the schema reads, before defaults or transforms.
  const { $schema: _, ...body } = z.toJSONSchema(kind.schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  });
  const head = { $schema: DRAFT, title: kind.kind, description: kind.description } as const;
  const envelope = envelopeProperties(kind.kind);
  if (body.type === 'object' && body.properties !== undefined) {
    return {
      ...head,
      ...body,
      description: kind.description,
      properties: { ...envelope, ...body.properties },
      required: [...ENVELOPE_REQUIRED, ...(body.required ?? [])],
    };
  }
  // Not a plain object (a union, say): both must hold. A strict branch would reject the
  // envelope fields, so give such kinds an object schema where editor support matters.
  return {
    ...head,
    allOf: [{ type: 'object', properties: envelope, required: ENVELOPE_REQUIRED }, body],
  };
}

/** `ffrpg/monster` -> `ffrpg.monster.schema.json` */
export function schemaFileName(kind: ContentKind<unknown>): string {
  return `${kind.kind.replace('/', '.')}.schema.json`;
}

/** Writes one schema file per kind into `dir` (created if missing); returns the paths written. */
export function writeJsonSchemas(kinds: readonly ContentKind<unknown>[], dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return kinds.map((kind) => {
    const path = join(dir, schemaFileName(kind));
    writeAtomically(path, `${JSON.stringify(jsonSchemaFor(kind), null, 2)}\n`);
    return path;
  });
}
