import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ContentLibrary,
  type ContentText,
  entityFields,
  formatContentError,
  type LoadResult,
  loadContent,
  loadContentTexts,
  MAX_FILE_BYTES,
} from '../../src/content/index.js';
import { BOMB_JSON, DAGGER_YAML, HEKET_YAML, KINDS, monster, weapon } from './kinds.js';

function errorsOf(result: LoadResult): string[] {
  if (result.ok) throw new Error('expected errors, the content loaded');
  return result.errors.map(formatContentError);
}

function libraryOf(result: LoadResult): ContentLibrary {
  if (!result.ok) throw new Error(result.errors.map(formatContentError).join('\n'));
  return result.library;
}

const GOOD: ContentText[] = [
  { file: 'content/weapons/dagger.yaml', text: DAGGER_YAML },
  { file: 'content/monsters/heket.yaml', text: HEKET_YAML },
  { file: 'content/monsters/bomb.json', text: BOMB_JSON },
];

describe('loadContentTexts', () => {
  it('builds a library: typed get, all by id, has, kinds, the file of each entity', () => {
    const library = libraryOf(loadContentTexts(GOOD, KINDS));
    const heket = library.get(monster, 'heket');
    expect(heket?.stats.hp).toBe(320);
    expect(library.get(weapon, 'dagger')?.damage).toBe('2*STR + d6');
    expect(library.get('test/weapon', 'heket')).toBeUndefined();
    expect(library.all(monster).map((m) => m.id)).toEqual(['bomb', 'heket']);
    expect(library.all('test/other')).toEqual([]);
    expect(library.has('test/monster', 'bomb')).toBe(true);
    expect(library.has(weapon, 'bomb')).toBe(false);
    expect(library.kinds()).toEqual(['test/monster', 'test/weapon']);
    expect(library.fileOf(monster, 'bomb')).toBe('content/monsters/bomb.json');
  });

  it('holds frozen plain data that survives JSON', () => {
    const library = libraryOf(loadContentTexts(GOOD, KINDS));
    const heket = library.get(monster, 'heket')!;
    expect(Object.isFrozen(heket.stats)).toBe(true);
    const copy = ContentLibrary.fromJSON(JSON.parse(JSON.stringify(library)));
    expect(copy.toJSON()).toEqual(library.toJSON());
    expect(copy.get(monster, 'heket')).toEqual(heket);
    expect(copy.fileOf(weapon, 'dagger')).toBe('content/weapons/dagger.yaml');
    expect(entityFields(library.get(weapon, 'dagger')!)).toEqual({
      name: 'Dagger',
      damage: '2*STR + d6',
      tags: ['blade'],
    });
  });

  it('names both files of a duplicate id', () => {
    const again = { file: 'content/z/heket.json', text: BOMB_JSON.replace('"bomb"', '"heket"') };
    expect(errorsOf(loadContentTexts([...GOOD, again], KINDS))).toEqual([
      'content/z/heket.json:4: id: duplicate id "heket" for test/monster: content/monsters/heket.yaml has the same id',
    ]);
    // The same id in another kind is another entity.
    const other = {
      file: 'content/heket.yaml',
      text: DAGGER_YAML.replace('id: dagger', 'id: heket'),
    };
    expect(loadContentTexts([...GOOD, other], KINDS).ok).toBe(true);
  });

  it('reports a reference to an unknown id with its file, path, line and close ids', () => {
    const text = HEKET_YAML.replace('  - dagger', '  - dagger\n  - daggers\n  - excalibur');
    const result = loadContentTexts([GOOD[0]!, { file: 'm/heket.yaml', text }], KINDS);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          file: 'm/heket.yaml',
          path: 'weapons[1]',
          line: 13,
          message: 'no test/weapon has the id "daggers"; did you mean "dagger"?',
        },
        {
          file: 'm/heket.yaml',
          path: 'weapons[2]',
          line: 14,
          message: 'no test/weapon has the id "excalibur"',
        },
      ],
    });
  });

  it('does not call a reference missing when the entity is there but has errors of its own', () => {
    const broken = { file: 'content/weapons/dagger.yaml', text: DAGGER_YAML.replace('2*', '2**') };
    expect(errorsOf(loadContentTexts([broken, GOOD[1]!], KINDS))).toEqual([
      "content/weapons/dagger.yaml:5: damage: \"2**STR + d6\" is not valid dice notation at column 3: unexpected '*': expected a number, dice, a name or '('",
    ]);
  });

  it('collects every error of every file, in the same order whatever the input order', () => {
    const texts: ContentText[] = [
      { file: 'c/5.yaml', text: HEKET_YAML.replace('dagger', 'sword') },
      { file: 'c/1.yaml', text: 'format: 1\nkind: [\n' },
      { file: 'c/3.json', text: BOMB_JSON.replace('"level": 8', '"level": 100') },
      { file: 'c/2.yaml', text: 'format: 3\n' },
      { file: 'c/4.yaml', text: DAGGER_YAML.replace('id: dagger', 'id: Dagger') },
      { file: 'c/0.yaml', text: '- a list\n' },
    ];
    const expected = [
      'c/0.yaml: expected an object with the fields format, kind and id, got a list',
      'c/1.yaml:3: invalid YAML: flow sequence in block collection must be sufficiently indented and end with a ]',
      'c/2.yaml:1: format: unsupported format version 3; this version of Moogle reads format 1',
      'c/3.json:6: level: expected a whole number from 1 to 99, got 100',
      'c/4.yaml:3: id: expected a lowercase id (letters a-z, digits and "-", not starting with "-"), got "Dagger"; did you mean "dagger"?',
      'c/5.yaml:12: weapons[0]: no test/weapon has the id "sword"',
    ];
    expect(errorsOf(loadContentTexts(texts, KINDS))).toEqual(expected);
    expect(errorsOf(loadContentTexts([...texts].reverse(), KINDS))).toEqual(expected);
  });

  it('throws for a kind registered twice: a programmer error, not a content one', () => {
    expect(() => loadContentTexts([], [weapon, weapon])).toThrow('"test/weapon" given twice');
  });
});

describe('loadContent', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'moogle-content-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function write(path: string, text: string | Buffer): string {
    const full = join(dir, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
    return full;
  }

  it('reads directories recursively: .yaml, .yml and .json only, dot names skipped', () => {
    write('weapons/dagger.yml', DAGGER_YAML);
    write('monsters/deep/heket.yaml', HEKET_YAML);
    write('monsters/bomb.json', BOMB_JSON);
    write('monsters/README.md', '# not content');
    write('.hidden/broken.yaml', 'format: [');
    write('monsters/.draft.yaml', 'format: [');
    const library = libraryOf(loadContent(dir, KINDS));
    expect(library.all(monster).map((m) => m.id)).toEqual(['bomb', 'heket']);
    expect(library.fileOf(monster, 'heket')).toBe(join(dir, 'monsters/deep/heket.yaml'));
    expect(library.fileOf(weapon, 'dagger')).toBe(join(dir, 'weapons/dagger.yml'));
  });

  it('takes files and directories together, once each', () => {
    const dagger = write('w/dagger.yaml', DAGGER_YAML);
    write('m/heket.yaml', HEKET_YAML);
    const library = libraryOf(loadContent([join(dir, 'm'), dagger, join(dir, 'w')], KINDS));
    expect(library.has(monster, 'heket') && library.has(weapon, 'dagger')).toBe(true);
  });

  it('reports unreadable, unknown, oversized and non-UTF-8 files with the rest', () => {
    write('a/huge.yaml', `# ${'x'.repeat(MAX_FILE_BYTES)}\n`);
    write('a/latin1.yaml', Buffer.from([0x69, 0x64, 0x3a, 0x20, 0xe9, 0x0a]));
    write('a/bad.json', '{"format": ');
    const notes = write('notes.txt', 'hello');
    const result = loadContent([join(dir, 'missing'), join(dir, 'a'), notes], KINDS);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        file: join(dir, 'a/bad.json'),
        path: '',
        message: 'invalid JSON: the text ends too early',
      },
      {
        file: join(dir, 'a/huge.yaml'),
        path: '',
        message: 'cannot read: the file is over the 1 MiB limit',
      },
      {
        file: join(dir, 'a/latin1.yaml'),
        path: '',
        message: 'cannot read: the file is not UTF-8 text',
      },
      { file: join(dir, 'missing'), path: '', message: 'cannot read: no such file or directory' },
      {
        file: notes,
        path: '',
        message: 'not a content file: expected a .yaml, .yml or .json file',
      },
    ]);
  });

  it('loads an empty directory as an empty library of the registered kinds', () => {
    const library = libraryOf(loadContent([dir], KINDS));
    expect(library.kinds()).toEqual(['test/monster', 'test/weapon']);
    expect(library.all(weapon)).toEqual([]);
  });
});

describe('formatContentError', () => {
  it('puts the line after the file and leaves out an empty path', () => {
    expect(formatContentError({ file: 'a.yaml', path: 'stats.hp', message: 'm', line: 7 })).toBe(
      'a.yaml:7: stats.hp: m',
    );
    expect(formatContentError({ file: 'a.yaml', path: '', message: 'm' })).toBe('a.yaml: m');
  });
});
