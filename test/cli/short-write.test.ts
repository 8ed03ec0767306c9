import { spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAll } from '../../src/files/write-all.js';

/**
 * A save that cannot be written whole: `moogle battle` run under a file size limit (`ulimit -f`),
 * with SIGXFSZ ignored so the write comes back short, then EFBIG, instead of killing the process.
 * Real processes, real files: the previous save must stay byte for byte, and the output say why.
 */

const BIN = fileURLToPath(new URL('../../bin/moogle.js', import.meta.url));
const WIND_CAVE = fileURLToPath(new URL('../../examples/ffrpg-wind-cave.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'moogle-short-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 1 KiB: bash's `ulimit -f` counts 1024-byte blocks. A save of the Wind Cave is several. */
const LIMIT_BLOCKS = 1;

function moogle(
  args: readonly string[],
  lines: readonly string[],
  limitBlocks?: number,
  command = 'battle',
): Promise<{ status: number | null; out: string; err: string }> {
  const quoted = [process.execPath, BIN, command, ...args].map(
    (a) => `'${a.replace(/'/g, `'\\''`)}'`,
  );
  const script =
    limitBlocks === undefined
      ? `exec ${quoted.join(' ')}`
      : `trap '' XFSZ; ulimit -f ${limitBlocks}; exec ${quoted.join(' ')}`;
  const child = spawn('bash', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, out, err })));
}

describe('a save that cannot be written whole', () => {
  const good = join(dir, 'good.json');
  let before: Buffer;
  beforeAll(async () => {
    const made = await moogle([WIND_CAVE, '--seed', '1', '--autosave', good], ['1', '1']);
    expect(made.status, made.err).toBe(0);
    before = readFileSync(good);
    // Else the limit would not cut the next save short.
    expect(before.length).toBeGreaterThan(LIMIT_BLOCKS * 1024 * 2);
  });

  const leftovers = () => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

  it('keeps the previous autosave whole and says why, command after command', async () => {
    const autosave = join(dir, 'auto.json');
    copyFileSync(good, autosave);
    const run = await moogle(
      [WIND_CAVE, '--load', autosave, '--autosave', autosave],
      ['1'],
      LIMIT_BLOCKS,
    );
    expect(readFileSync(autosave).equals(before)).toBe(true);
    expect(run.err).toContain(`cannot write the autosave ${autosave}: wrote 1024 of `);
    expect(run.err).toContain('file too large');
    expect(run.err).toContain(`${autosave} is unchanged`);
    expect(leftovers()).toEqual([]);
  });

  it('prints no "Saved" for a save FILE that failed, and keeps the file it would replace', async () => {
    const save = join(dir, 'save.json');
    copyFileSync(good, save);
    const run = await moogle(
      [WIND_CAVE, '--load', good, '--no-autosave'],
      ['1', `save ${save}`],
      LIMIT_BLOCKS,
    );
    expect(readFileSync(save).equals(before)).toBe(true);
    expect(run.out).not.toContain('Saved to');
    expect(run.out).toMatch(/Cannot write .*save\.json: wrote 1024 of \d+ bytes: EFBIG/);
    expect(run.out).toContain(`${save} is unchanged`);
    expect(run.status).toBe(2);
    expect(leftovers()).toEqual([]);
    expect(statSync(save).size).toBe(before.length);
  });

  it('fails --auto with exit 2 and no "Autosaved" when its one save cannot be written', async () => {
    const autosave = join(dir, 'auto-played.json');
    copyFileSync(good, autosave);
    const run = await moogle(
      [WIND_CAVE, '--seed', '2', '--auto', '--autosave', autosave],
      [],
      LIMIT_BLOCKS,
    );
    expect(run.status).toBe(2);
    expect(run.out).not.toContain('Autosaved to');
    expect(run.err).toContain(`moogle: cannot write the autosave ${autosave}: wrote 1024 of `);
    expect(readFileSync(autosave).equals(before)).toBe(true);
    expect(leftovers()).toEqual([]);
  });
});

describe('every file the project writes is written whole or not at all', () => {
  it('writes schemas whole, or fails with exit 2 naming the file left as it was', async () => {
    const out = join(dir, 'schemas');
    const run = await moogle(['--out', out], [], LIMIT_BLOCKS, 'schemas');
    expect(run.status).toBe(2);
    expect(run.err).toMatch(/moogle: cannot write the schemas: wrote 1024 of \d+ bytes: EFBIG/);
    expect(run.err).toMatch(/schema\.json was not written/);
    for (const file of readdirSync(out))
      expect(() => JSON.parse(readFileSync(join(out, file), 'utf8'))).not.toThrow();
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writeAll reports how far it got when the device takes nothing (/dev/full)', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      expect(() => writeAll(fd, 'x'.repeat(5000))).toThrow(/wrote 0 of 5000 bytes: ENOSPC/);
    } finally {
      closeSync(fd);
    }
  });
});
