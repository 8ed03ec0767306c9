import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ContentError,
  defineKind,
  type EntityCheck,
  formatContentError,
  parseContentText,
  parsePath,
  validateEntity,
} from '../../src/content/index.js';
import { parseDice } from '../../src/dice/index.js';
import { BOMB_JSON, DAGGER_YAML, HEKET_YAML, KINDS, monster } from './kinds.js';

function check(file: string, text: string): EntityCheck {
  const parsed = parseContentText(file, text);
  if (!parsed.ok) throw new Error(`did not parse: ${JSON.stringify(parsed.errors)}`);
  return validateEntity(parsed.content, KINDS);
}

/** The errors of one file, as an author would read them. */
function errorsOf(file: string, text: string): string[] {
  return check(file, text).errors.map(formatContentError);
}

/** HEKET_YAML with one line replaced (matched by its start). */
function heketWith(start: string, line: string): string {
  const lines = HEKET_YAML.split('\n');
  const index = lines.findIndex((l) => l.startsWith(start));
  if (index < 0) throw new Error(`no line starting ${start}`);
  lines[index] = line;
  return lines.join('\n');
}

describe('validateEntity: good files', () => {
  it('builds the entity: envelope first, defaults applied, dice notation kept as text', () => {
    const heket = check('content/heket.yaml', HEKET_YAML);
    expect(heket.errors).toEqual([]);
    expect(heket.entity).toEqual({
      format: 1,
      kind: 'test/monster',
      id: 'heket',
      sample: ['stats.mp'],
      source: 'test bestiary, p. 1',
      name: 'Heket',
      level: 12,
      stats: { hp: 320, mp: 0 },
      weapons: ['dagger'],
    });
    const dagger = check('content/dagger.yaml', DAGGER_YAML).entity;
    expect(dagger).toMatchObject({ damage: '2*STR + d6', tags: ['blade'] });
    // The load parsed it; rolling it later reuses that parse.
    expect(parseDice('2*STR + d6')).toBe(parseDice('2*STR + d6'));
  });

  it('reads JSON the same way', () => {
    const bomb = check('content/bomb.json', BOMB_JSON);
    expect(bomb.errors).toEqual([]);
    expect(bomb.entity).toMatchObject({ id: 'bomb', stats: { hp: 150, mp: 30 }, weapons: [] });
  });

  it('accepts and drops a $schema field, which editors use', () => {
    const text = BOMB_JSON.replace('{', '{\n  "$schema": "./test.monster.schema.json",');
    const bomb = check('content/bomb.json', text);
    expect(bomb.errors).toEqual([]);
    expect(bomb.entity).not.toHaveProperty('$schema');
  });
});

describe('validateEntity: the envelope', () => {
  it('wants an object', () => {
    expect(errorsOf('a.yaml', '- 1\n- 2\n')).toEqual([
      'a.yaml: expected an object with the fields format, kind and id, got a list',
    ]);
    expect(errorsOf('a.yaml', '')).toEqual([
      'a.yaml: expected an object with the fields format, kind and id, got nothing',
    ]);
    expect(errorsOf('a.json', '"heket"')).toEqual([
      'a.json: expected an object with the fields format, kind and id, got "heket"',
    ]);
  });

  it('wants format 1, naming the supported version, and checks nothing else without it', () => {
    expect(errorsOf('a.yaml', 'kind: nope\nid: BAD\n')).toEqual([
      'a.yaml: format: missing: expected format: 1, the content format version this version of Moogle reads',
    ]);
    expect(check('a.yaml', 'format: 2\nkind: nope\n').errors).toEqual([
      {
        file: 'a.yaml',
        path: 'format',
        line: 1,
        message: 'unsupported format version 2; this version of Moogle reads format 1',
      },
    ]);
    expect(errorsOf('a.yaml', 'format: "1"\n')).toEqual([
      'a.yaml:1: format: unsupported format version "1"; this version of Moogle reads format 1',
    ]);
  });

  it('wants a registered kind, listing the known ones and a close match', () => {
    expect(errorsOf('a.yaml', 'format: 1\nkind: test/wepon\nid: a\n')).toEqual([
      'a.yaml:2: kind: unknown kind "test/wepon"; did you mean "test/weapon"?; the known kinds are test/weapon, test/monster',
    ]);
    expect(errorsOf('a.yaml', 'format: 1\nid: a\n')).toEqual([
      'a.yaml: kind: missing: expected a kind; the known kinds are test/weapon, test/monster',
    ]);
  });

  it('wants a lowercase id, suggesting one', () => {
    const text = heketWith('id:', 'id: Heket Prime');
    expect(check('heket.yaml', text)).toEqual({
      kind: 'test/monster',
      errors: [
        {
          file: 'heket.yaml',
          path: 'id',
          line: 3,
          message:
            'expected a lowercase id (letters a-z, digits and "-", not starting with "-"), got "Heket Prime"; did you mean "heket-prime"?',
        },
      ],
    });
    expect(errorsOf('h.yaml', heketWith('id:', 'id: 12'))).toEqual([
      'h.yaml:3: id: expected a lowercase id (letters a-z, digits and "-", not starting with "-"), got 12',
    ]);
  });

  it('checks that sample paths name values in the file', () => {
    const text = heketWith('sample:', 'sample: [stats.hpp, "weapons[0]", "bad..path", 3]');
    expect(errorsOf('h.yaml', text)).toEqual([
      'h.yaml:5: sample[0]: expected the path of a value in this file, like "stats.hp", got "stats.hpp"',
      'h.yaml:5: sample[2]: expected the path of a value in this file, like "stats.hp", got "bad..path"',
      'h.yaml:5: sample[3]: expected the path of a value in this file, like "stats.hp", got 3',
    ]);
    expect(errorsOf('h.yaml', heketWith('sample:', 'sample: stats.hp'))).toEqual([
      'h.yaml:5: sample: expected a list of paths, like ["stats.hp"], got "stats.hp"',
    ]);
    expect(errorsOf('h.yaml', heketWith('source:', 'source: [1]'))).toEqual([
      'h.yaml:4: source: expected text, got a list',
    ]);
  });

  it('reports envelope and field errors of one file together', () => {
    const text = heketWith('id:', 'id: -x').replace('hp: 320', 'hp: 0');
    expect(errorsOf('h.yaml', text)).toEqual([
      'h.yaml:3: id: expected a lowercase id (letters a-z, digits and "-", not starting with "-"), got "-x"; did you mean "x"?',
      'h.yaml:9: stats.hp: expected a whole number from 1 to 99999, got 0',
    ]);
  });
});

describe('validateEntity: the kind schema', () => {
  it('says what a field expected and what it got, with the line', () => {
    const text = heketWith('  hp:', '  hp: lots');
    const [error] = check('content/heket.yaml', text).errors;
    expect(error).toEqual({
      file: 'content/heket.yaml',
      path: 'stats.hp',
      line: 9,
      message: 'expected a whole number from 1 to 99999, got "lots"',
    });
    expect(formatContentError(error!)).toBe(
      'content/heket.yaml:9: stats.hp: expected a whole number from 1 to 99999, got "lots"',
    );
  });

  it('translates each kind of zod issue into a sentence', () => {
    const text = [
      'format: 1',
      'kind: test/monster',
      'id: odd',
      'name: ""',
      'level: 1.5',
      'stats: { hp: 10, mp: -1, hpp: 3 }',
      'weapons: [dagger, Big Sword, 7]',
      'resist: 30',
      'colour: red',
    ].join('\n');
    expect(errorsOf('odd.yaml', text)).toEqual([
      'odd.yaml:4: name: expected non-empty text, got ""',
      'odd.yaml:5: level: expected a whole number from 1 to 99, got 1.5',
      'odd.yaml:6: stats.mp: expected a whole number, 0 or more, got -1',
      'odd.yaml:6: stats.hpp: unknown field "hpp"; did you mean "hp"?',
      'odd.yaml:7: weapons[1]: expected an id (lowercase letters, digits and "-", like "fire-sword"), got "Big Sword"',
      'odd.yaml:7: weapons[2]: expected an id (lowercase letters, digits and "-", like "fire-sword"), got 7',
      'odd.yaml:8: resist: expected a whole percentage from 0 to 100 in steps of 25, got 30',
      'odd.yaml:9: colour: unknown field "colour"',
    ]);
  });

  it('reports a missing field at its parent, without a line at the top level', () => {
    const text = heketWith('  hp:', '').replace('name: Heket\n', '');
    expect(check('h.yaml', text).errors).toEqual([
      { file: 'h.yaml', path: 'name', message: 'missing: expected text' },
      {
        file: 'h.yaml',
        path: 'stats.hp',
        line: 7,
        message: 'missing: expected a whole number from 1 to 99999',
      },
    ]);
  });

  it('shows a bad dice code with its column and the dice message', () => {
    const text = DAGGER_YAML.replace('2*STR + d6', '"3d6+$"').replace('[blade]', '[blade, spear]');
    expect(check('dagger.yaml', text).errors).toEqual([
      {
        file: 'dagger.yaml',
        path: 'damage',
        line: 5,
        message:
          "\"3d6+$\" is not valid dice notation at column 5: unexpected '$': expected a number, dice, a name or '('",
      },
      {
        file: 'dagger.yaml',
        path: 'tags[1]',
        line: 6,
        message: 'expected one of "blade", "blunt", "ranged", got "spear"',
      },
    ]);
    expect(errorsOf('d.yaml', DAGGER_YAML.replace('2*STR + d6', '12'))).toEqual([
      'd.yaml:5: damage: expected dice notation, like "2d6+3", got 12',
    ]);
  });

  it('finds lines in JSON too', () => {
    const text = BOMB_JSON.replace('"hp": 150', '"hp": "lots"');
    expect(check('bomb.json', text).errors).toEqual<ContentError[]>([
      {
        file: 'bomb.json',
        path: 'stats.hp',
        line: 7,
        message: 'expected a whole number from 1 to 99999, got "lots"',
      },
    ]);
  });

  it('describes plain zod schemas too: unions, ranges, literals, lists', () => {
    const plain = defineKind({
      kind: 'test/plain',
      description: 'Plain zod.',
      schema: z.object({
        size: z.union([z.string(), z.number()]),
        count: z.number().min(1).max(3),
        mode: z.literal('fast'),
        list: z.array(z.boolean()).min(2),
        code: z.string().regex(/^[A-Z]+$/),
      }),
    });
    const parsed = parseContentText(
      'p.yaml',
      'format: 1\nkind: test/plain\nid: p\nsize: true\ncount: 4\nmode: slow\nlist: [yes]\ncode: ab\n',
    );
    if (!parsed.ok) throw new Error('did not parse');
    expect(validateEntity(parsed.content, [plain]).errors.map((e) => e.message)).toEqual([
      'expected text or a number, got true',
      'expected a number at most 3, got 4',
      'expected "fast", got "slow"',
      'expected true or false, got "yes"',
      'expected a list of at least 2 items, got a list',
      'expected text matching /^[A-Z]+$/, got "ab"',
    ]);
  });

  it('keeps the kind and id of a file with field errors, for the checks across files', () => {
    const result = check('h.yaml', heketWith('level:', 'level: 0'));
    expect(result.kind).toBe('test/monster');
    expect(result.id).toBe('heket');
    expect(result.entity).toBeUndefined();
  });
});

describe('defineKind', () => {
  it('rejects a malformed kind name and envelope fields in the schema', () => {
    const schema = z.object({ name: z.string() });
    expect(() => defineKind({ kind: 'Monster', description: '', schema })).toThrow(
      'content kind "Monster" must look like "system/name"',
    );
    expect(() =>
      defineKind({ kind: 'a/b', description: '', schema: z.object({ id: z.string() }) }),
    ).toThrow('must not define envelope fields: id');
  });

  it('makes a plain top-level object strict, and leaves a loose one alone', () => {
    const loose = defineKind({
      kind: 'test/loose',
      description: '',
      schema: z.looseObject({ name: z.string() }),
    });
    const parsed = parseContentText(
      'l.yaml',
      'format: 1\nkind: test/loose\nid: l\nname: L\nx: 1\n',
    );
    if (!parsed.ok) throw new Error('did not parse');
    expect(validateEntity(parsed.content, [loose]).entity).toMatchObject({ x: 1 });
    expect(monster.schema.safeParse({ extra: 1 }).success).toBe(false);
  });
});

describe('paths', () => {
  it('reads the paths it writes', () => {
    expect(parsePath('stats.hp')).toEqual(['stats', 'hp']);
    expect(parsePath('abilities[2].name')).toEqual(['abilities', 2, 'name']);
    expect(parsePath('resist["fire %"]')).toEqual(['resist', 'fire %']);
    for (const bad of ['', '.a', 'a..b', 'a[x]', 'a b', 'a[1]b'])
      expect(parsePath(bad)).toBeUndefined();
  });
});
