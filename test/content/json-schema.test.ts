import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineKind,
  type JsonSchema,
  jsonSchemaFor,
  writeJsonSchemas,
} from '../../src/content/index.js';
import { KINDS, monster, weapon } from './kinds.js';

function property(schema: JsonSchema, ...path: string[]): JsonSchema {
  let node: JsonSchema = schema;
  for (const key of path) {
    const next = node.properties?.[key];
    if (typeof next !== 'object') throw new Error(`no property ${path.join('.')}`);
    node = next;
  }
  return node;
}

describe('jsonSchemaFor', () => {
  it('describes the whole file: draft 2020-12, title, description, envelope and fields', () => {
    const schema = jsonSchemaFor(monster);
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'test/monster',
      description: 'A monster for the content tests.',
      type: 'object',
      additionalProperties: false,
    });
    // weapons has a default, so a file may leave it out.
    expect(schema.required).toEqual(['format', 'kind', 'id', 'name', 'level', 'stats']);
    expect(property(schema, 'format')).toMatchObject({ const: 1 });
    expect(property(schema, 'kind')).toMatchObject({ const: 'test/monster' });
    expect(property(schema, 'id')).toMatchObject({
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9-]*$',
    });
    expect(property(schema, 'sample')).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(property(schema, 'source')).toMatchObject({ type: 'string' });
    expect(property(schema, 'level')).toMatchObject({ type: 'integer', minimum: 1, maximum: 99 });
    expect(property(schema, 'stats', 'hp')).toMatchObject({ type: 'integer', maximum: 99999 });
    expect(property(schema, 'stats').required).toEqual(['hp', 'mp']);
    expect(property(schema, 'resist')).toMatchObject({ type: 'integer', multipleOf: 25 });
    expect(property(schema, 'weapons')).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(property(jsonSchemaFor(weapon), 'damage')).toMatchObject({
      type: 'string',
      description: 'Dice notation, e.g. "2d6+3" or "2*AGI + d12".',
    });
  });

  it('has a property for every field of a good file, with a matching type', () => {
    const schema = jsonSchemaFor(monster);
    const good: Record<string, unknown> = {
      format: 1,
      kind: 'test/monster',
      id: 'heket',
      name: 'Heket',
      level: 12,
      stats: { hp: 320, mp: 0 },
      weapons: ['dagger'],
    };
    const types: Record<string, string> = { string: 'string', object: 'object', number: 'integer' };
    for (const [key, value] of Object.entries(good)) {
      const field = property(schema, key);
      const type = Array.isArray(value) ? 'array' : types[typeof value];
      if (field.const !== undefined) expect(field.const).toBe(value);
      else expect(field.type).toBe(type);
    }
  });

  it('combines the envelope with a schema that is not an object', () => {
    const either = defineKind({
      kind: 'test/either',
      description: 'One of two shapes.',
      schema: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
    });
    const schema = jsonSchemaFor(either);
    expect(schema.title).toBe('test/either');
    expect(schema.allOf?.[0]?.required).toEqual(['format', 'kind', 'id']);
    expect(schema.allOf?.[1]?.anyOf).toHaveLength(2);
  });
});

describe('writeJsonSchemas', () => {
  it('writes one file per kind and returns their paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-schemas-'));
    try {
      const out = join(dir, 'schemas');
      const written = writeJsonSchemas(KINDS, out);
      expect(written).toEqual([
        join(out, 'test.weapon.schema.json'),
        join(out, 'test.monster.schema.json'),
      ]);
      const text = readFileSync(written[1]!, 'utf8');
      expect(JSON.parse(text)).toEqual(jsonSchemaFor(monster));
      expect(text.endsWith('}\n')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
