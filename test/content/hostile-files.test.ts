import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  encounterInvalid,
  formatContentError,
  formatContentErrors,
  loadContent,
  loadContentTexts,
} from '../../src/content/index.js';
import { readBoundedText } from '../../src/content/read-bounded.js';
import { readEncounterFile } from '../../src/encounters/file.js';
import { SYSTEMS } from '../../src/rulesets/index.js';
import { KINDS } from './kinds.js';

const dir = mkdtempSync(join(tmpdir(), 'moogle-hostile-'));
const outside = mkdtempSync(join(tmpdir(), 'moogle-outside-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const SECRET = 'root:x:0:0:secret-line-that-must-not-be-echoed';

function write(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function encounter(name: string, content: string): string {
  return write(
    join(dir, name),
    `format: 1\nruleset: ffrpg\ncontent: ${content}\nsides:\n  - id: party\n    name: P\n    party: true\n    combatants: [{ character: hiro }]\n  - id: enemies\n    name: E\n    combatants: [{ monster: heket }]\n`,
  );
}

function errorsOf(path: string): string {
  const read = readEncounterFile(path, SYSTEMS);
  return read.ok ? 'ok' : read.errors.map(formatContentError).join('\n');
}

describe("an encounter's content comes only from its own folder tree and the starter content", () => {
  it('refuses an absolute content folder without walking it', () => {
    expect(errorsOf(encounter('root.yaml', '[/]'))).toMatch(/content\[0\]: .*not absolute/);
  });

  it("refuses '..' in a content folder", () => {
    expect(errorsOf(encounter('up.yaml', '[../elsewhere]'))).toMatch(/content\[0\]: .*no '\.\.'/);
    expect(errorsOf(encounter('up2.yaml', '[a/../../b]'))).toMatch(/no '\.\.'/);
  });

  it('refuses a symbolic link out of the tree and never echoes what it points at', () => {
    const secret = write(join(outside, 'passwd.yaml'), `${SECRET}\n`);
    mkdirSync(join(dir, 'linked'), { recursive: true });
    symlinkSync(secret, join(dir, 'linked', 'passwd.yaml'));
    symlinkSync(outside, join(dir, 'linked', 'elsewhere'));
    const errors = errorsOf(encounter('linked.yaml', '[linked]'));
    expect(errors).toContain('leads outside the content folder');
    expect(errors).not.toContain('secret-line');
    // A content folder that is itself a link out of the tree.
    symlinkSync(outside, join(dir, 'out-link'));
    expect(errorsOf(encounter('out-link.yaml', '[out-link]'))).toContain(
      "content comes only from the encounter's folder",
    );
  });

  it('refuses a FIFO in a content folder instead of blocking on it', () => {
    mkdirSync(join(dir, 'fifo'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'fifo', 'pipe.yaml')]);
    expect(errorsOf(encounter('fifo.yaml', '[fifo]'))).toContain('not a regular file');
  });
});

describe('every read is bounded while reading, not by stat', () => {
  it('refuses /dev/zero, which stat calls empty, as content, encounter or any file', () => {
    expect(readBoundedText('/dev/zero', 1024)).toEqual({
      ok: false,
      reason: expect.stringContaining('not a regular file'),
    });
    expect(errorsOf('/dev/zero')).toContain('not a regular file');
    const loaded = loadContent(['/dev/zero'], KINDS);
    expect(loaded.ok ? '' : loaded.errors.map(formatContentError).join()).toContain(
      'not a regular file',
    );
  });

  it('stops at the cap: a file one byte over is refused, one at the cap read', () => {
    const at = write(join(dir, 'cap.txt'), 'x'.repeat(100));
    expect(readBoundedText(at, 100)).toEqual({ ok: true, text: 'x'.repeat(100) });
    expect(readBoundedText(at, 99)).toEqual({
      ok: false,
      reason: 'the file is over the 99 bytes limit',
    });
  });

  it('refuses a FIFO named directly without waiting for a writer', () => {
    const fifo = join(dir, 'named-pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readBoundedText(fifo, 1024).ok).toBe(false);
  });
});

describe('an error shows at most a short excerpt of a file', () => {
  it('a broken JSON file: the reason, not the raw bytes V8 quotes', () => {
    const text = `{"x": ${'A'.repeat(5000)}\u0000${SECRET}}`;
    const path = write(join(dir, 'json', 'broken.json'), text);
    const loaded = loadContent([path], KINDS);
    const shown = loaded.ok ? '' : loaded.errors.map(formatContentError).join('\n');
    expect(shown).toContain('invalid JSON');
    expect(shown).not.toContain('AAAAAAAAAA');
    expect(shown.length).toBeLessThan(300);
    const controls = write(join(dir, 'json', 'controls.json'), `\u0000\u0001${SECRET}`);
    const second = loadContent([controls], KINDS);
    const line = second.ok ? '' : formatContentError(second.errors[0]!);
    expect(line).toBe(`${controls}: invalid JSON: unexpected token '\\u0000'`);
  });
});

describe('a dice code in content is checked against the dice limits', () => {
  it("4294967296d9kh8 as a weapon's damage is an error value, not a crash", () => {
    const loaded = loadContentTexts(
      [
        {
          file: 'huge.yaml',
          text: 'format: 1\nkind: test/weapon\nid: huge\nname: Huge\ndamage: 4294967296d9kh8\n',
        },
      ],
      KINDS,
    );
    expect(loaded.ok ? [] : loaded.errors.map(formatContentError)).toEqual([
      'huge.yaml:5: damage: "4294967296d9kh8" is not valid dice notation at column 1: 4294967296 dice is more than the 10000 allowed in one roll',
    ]);
  });
});

describe('many errors in one file', () => {
  const fields = 20_000;
  let text = 'format: 1\nkind: test/weapon\nid: w\nname: W\ndamage: 1d6\n';
  for (let i = 0; i < fields; i++) text += `field${i}: 1\n`;

  it('reports each of 20,000 unknown fields at its own line', () => {
    const loaded = loadContentTexts([{ file: 'w.yaml', text }], KINDS);
    const errors = loaded.ok ? [] : loaded.errors;
    expect(errors).toHaveLength(fields);
    expect(errors.at(-1)).toEqual({
      file: 'w.yaml',
      path: `field${fields - 1}`,
      message: `unknown field "field${fields - 1}"`,
      line: 5 + fields,
    });
  });

  it('prints the first fifty and says how many more', () => {
    const loaded = loadContentTexts([{ file: 'w.yaml', text }], KINDS);
    const lines = formatContentErrors(loaded.ok ? [] : loaded.errors);
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe('... and 19950 more errors');
  });

  it('still finds a field given twice, in YAML and in JSON, at the second one', () => {
    const yaml = loadContentTexts(
      [
        {
          file: 'd.yaml',
          text: 'format: 1\nkind: test/weapon\nid: d\nname: A\nname: B\ndamage: 1d6\n',
        },
      ],
      KINDS,
    );
    expect(yaml.ok ? [] : yaml.errors).toEqual([
      {
        file: 'd.yaml',
        path: '',
        message: 'the field "name" is given twice; give each field once',
        line: 5,
      },
    ]);
    const json = loadContentTexts(
      [{ file: 'd.json', text: '{"format": 1, "kind": "test/weapon", "id": "d",\n"id": "e"}' }],
      KINDS,
    );
    expect(json.ok ? [] : json.errors).toEqual([
      {
        file: 'd.json',
        path: '',
        message: 'the field "id" is given twice; give each field once',
        line: 2,
      },
    ]);
  });
});

describe('one path style in every error', () => {
  it('an encounter spec error writes sides[0].combatants[3], as content errors do', () => {
    const schema = z.object({ sides: z.array(z.object({ combatants: z.array(z.string()) })) });
    const parsed = schema.safeParse({ sides: [{ combatants: ['a', 'b', 'c', 4] }] });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(encounterInvalid(parsed.error).error.message).toMatch(/^sides\[0\]\.combatants\[3\]: /);
  });
});
