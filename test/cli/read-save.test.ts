import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSaveJson } from '../../src/cli/read-save.js';

const dir = mkdtempSync(join(tmpdir(), 'moogle-read-save-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('reading a save for --load', () => {
  it('refuses /dev/zero with a one-line reason instead of reading it', () => {
    expect(() => readSaveJson('/dev/zero')).toThrow(
      '/dev/zero: cannot read the save: not a regular file',
    );
  });

  it('refuses a file that is not JSON without quoting it', () => {
    const path = join(dir, 'secret.json');
    writeFileSync(path, 'root:x:0:0:secret');
    expect(() => readSaveJson(path)).toThrow(/^.*cannot read the save: it is not JSON$/);
  });

  it('reads a small JSON file', () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, '{"format":"moogle-encounter"}');
    expect(readSaveJson(path)).toEqual({ format: 'moogle-encounter' });
  });
});
