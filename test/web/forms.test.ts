/**
 * The content forms' engine without a browser, over every content kind of every system: each
 * starter file read into a form and back is the file, a new entry's form starts as something
 * the schema's shape accepts, and the server's issues land on the fields they name.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { jsonSchemaFor } from '../../src/content/json-schema.js';
import { checkAgainstSchema } from '../../src/content/validate.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { starterLibrary } from '../../src/server/tables.js';
import {
  defaultFor,
  type Field,
  fieldOf,
  issuesByField,
  labelOf,
  pathText,
  readField,
  referencesIn,
  setAt,
} from '../../web/src/forms/fields.js';
import type { FormSchema, JsonValue } from '../../web/src/forms/schema.js';

function controls(field: Field): string[] {
  switch (field.control) {
    case 'object':
      return [field.control, ...field.fields.flatMap(controls)];
    case 'list':
    case 'tuple':
      return [field.control, ...field.items.flatMap(controls)];
    case 'map':
      return [field.control, ...field.entries.flatMap((e) => controls(e.field))];
    case 'variant':
      return [field.control, ...controls(field.field)];
    default:
      return [field.control];
  }
}

for (const system of SYSTEMS) {
  const library = starterLibrary(system);
  if (!library.ok) throw new Error(library.error.message);
  const lib = library.value;

  describe(`${system.ruleset.name} content forms`, () => {
    for (const kind of system.kinds) {
      const schema = jsonSchemaFor(kind) as FormSchema;
      const entities = lib.all(kind.kind);

      it(`${kind.kind}: every starter file read into the form and back is the file`, () => {
        expect(entities.length).toBeGreaterThan(0);
        for (const entity of entities) {
          const file = lib.fileOf(kind.kind, entity.id)!;
          const raw = parse(readFileSync(file, 'utf8')) as JsonValue;
          const form = fieldOf(schema, raw);
          expect(readField(form), file).toEqual(raw);
          // Every value has a control of its own: nothing falls back to JSON text.
          expect(controls(form), file).not.toContain('json');
        }
      });

      it(`${kind.kind}: the form names the references the loader checks, with their kinds`, () => {
        for (const entity of entities) {
          const file = lib.fileOf(kind.kind, entity.id)!;
          const expected = (kind.references?.(entity) ?? []).map((r) => ({ ...r }));
          const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
          const loaded = JSON.parse(JSON.stringify(entity)) as JsonValue;
          expect(referencesIn(fieldOf(schema, loaded)).sort(byPath), file).toEqual(
            expected.sort(byPath),
          );
        }
      });

      it(`${kind.kind}: a new entry's form has a control for every field it starts with`, () => {
        const fresh = defaultFor(schema);
        const form = fieldOf(schema, fresh);
        expect(readField(form)).toEqual(fresh);
        expect(controls(form)).not.toContain('json');
        expect(form.control).toBe('object');
      });

      it(`${kind.kind}: each schema issue of a broken entry is shown at its own field`, () => {
        const entity = entities[0]!;
        const raw = parse(readFileSync(lib.fileOf(kind.kind, entity.id)!, 'utf8')) as JsonValue;
        // Break every number and text leaf the form shows, one entry at a time.
        const form = fieldOf(schema, raw);
        const leaves: Field[] = [];
        // zod reports a failed union once, at the union (which branch was meant is a guess).
        const unions = new Set<string>();
        const walk = (f: Field) => {
          if (f.control === 'number' || f.control === 'select') leaves.push(f);
          if (f.control === 'variant') unions.add(pathText(f.path));
          if (f.control === 'object') f.fields.forEach(walk);
          if (f.control === 'list' || f.control === 'tuple') f.items.forEach(walk);
          if (f.control === 'map') for (const e of f.entries) walk(e.field);
          if (f.control === 'variant') walk(f.field);
        };
        walk(form);
        for (const leaf of leaves.slice(0, 20)) {
          const broken = setAt(raw, leaf.path, 'not-valid-here') as JsonValue;
          const {
            format: _f,
            kind: _k,
            id: _i,
            sample: _s,
            source: _so,
            ...body
          } = broken as {
            [key: string]: JsonValue;
          };
          const checked = checkAgainstSchema(body, kind.schema);
          expect(checked.ok, pathText(leaf.path)).toBe(false);
          if (checked.ok) continue;
          const issues = checked.issues.map((i) => ({
            path: i.path as (string | number)[],
            message: i.message,
          }));
          const shown = issuesByField(fieldOf(schema, broken), issues);
          const at = [...leaf.path];
          while (at.length > 0 && !unions.has(pathText(at))) at.pop();
          const places = [pathText(leaf.path), ...(at.length > 0 ? [pathText(at)] : [])];
          expect(
            [...shown.keys()].some((k) => places.includes(k)),
            `${pathText(leaf.path)}: ${[...shown.keys()].join(', ')}`,
          ).toBe(true);
        }
      });
    }
  });
}

describe('setAt', () => {
  it('replaces, adds and takes out keys and rows, sharing the rest', () => {
    const before = { a: { b: [1, 2, 3] }, c: 'x' };
    const after = setAt(before, ['a', 'b', 1], undefined) as typeof before;
    expect(after).toEqual({ a: { b: [1, 3] }, c: 'x' });
    expect(before.a.b).toEqual([1, 2, 3]);
    expect(setAt(before, ['d'], 4)).toEqual({ ...before, d: 4 });
  });
});

describe('labels', () => {
  it("are the rule texts' words: Combat Statistics in capitals, CoS, Attributes as written, titles first", () => {
    expect(labelOf('acc')).toBe('ACC');
    expect(labelOf('STR')).toBe('STR');
    expect(labelOf('cos')).toBe('CoS');
    expect(labelOf('chargeTime')).toBe('Charge time');
    expect(labelOf('expReward')).toBe('EXP reward');
    expect(labelOf('hp', { title: 'Current HP' })).toBe('Current HP');
  });

  it("tell a sheet's current HP from its maximum (FFRPG, ZODIAC)", () => {
    for (const system of SYSTEMS.filter((s) => ['ffrpg', 'zodiac'].includes(s.ruleset.id))) {
      const kind = system.kinds.find((k) => k.kind.endsWith('/character'))!;
      const form = fieldOf(jsonSchemaFor(kind) as FormSchema, { stats: { hp: 10 }, hp: 5 });
      if (form.control !== 'object') throw new Error('a sheet is an object');
      const labels = form.fields.map((f) => f.label);
      expect(labels).toContain('Current HP');
      const stats = form.fields.find((f) => f.path[0] === 'stats');
      expect(stats?.control === 'object' && stats.fields.map((f) => f.label)).toContain('HP');
    }
  });
});

describe('optional fields a new form starts with', () => {
  const kinds = SYSTEMS.find((s) => s.ruleset.id === 'shining-force')!.kinds;
  const schemaOf = (kind: string) =>
    jsonSchemaFor(kinds.find((k) => k.kind === kind)!) as FormSchema;

  it("a new Shining Force member's form asks for its class (the roster wants one); a monster's does not", () => {
    const member = defaultFor(schemaOf('shining-force/character')) as Record<string, JsonValue>;
    expect(member).toHaveProperty('class', '');
    expect(fieldOf(schemaOf('shining-force/character'), member).control).toBe('object');
    const monster = defaultFor(schemaOf('shining-force/monster')) as Record<string, JsonValue>;
    expect(monster).not.toHaveProperty('class');
  });
});

describe('values a new form starts at', () => {
  const kinds = SYSTEMS.find((s) => s.ruleset.id === 'zodiac')!.kinds;
  const schemaOf = (kind: string) =>
    jsonSchemaFor(kinds.find((k) => k.kind === kind)!) as FormSchema;

  it('a new ZODIAC sheet can act: "Taking an action requires a character to spend 8 Speed Points"', () => {
    for (const kind of ['zodiac/character', 'zodiac/monster']) {
      const sheet = defaultFor(schemaOf(kind)) as { stats: Record<string, number> };
      // Speed 0 never earns the 8 Speed Points of an action (the least the schema allows);
      // Critical 1 would make every hit a critical hit.
      expect(sheet.stats.speed, kind).toBeGreaterThanOrEqual(8);
      expect(sheet.stats.critical, kind).toBeGreaterThan(90);
      // Still only a start: the schema takes any Speed from 0.
      expect(schemaOf(kind).properties?.stats?.properties?.speed?.minimum).toBe(0);
    }
  });
});
