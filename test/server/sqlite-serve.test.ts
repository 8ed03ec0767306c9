import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { open } from '../store/fixtures.js';
import { BIN, newTable, type ServeProcess, spawnServe } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'moogle-sqlite-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real database of some 90 KiB of tables and links in it. */
async function filled(name: string): Promise<string> {
  const file = join(dir, name);
  const store = await open(file);
  for (let i = 0; i < 40; i++) {
    const { table } = await newTable(store, 'ffrpg');
    for (let j = 0; j < 10; j++) await store.createToken(table.id, { role: 'spectator' });
  }
  await store.close();
  return file;
}

function exited(serve: ServeProcess): Promise<number | null> {
  return new Promise((resolve) => serve.child.once('exit', resolve));
}

/** What `moogle serve` says when it refuses to start, and with which status. */
async function refusal(file: string): Promise<{ status: string; stderr: string }> {
  try {
    const serve = await spawnServe(file);
    serve.child.kill('SIGKILL');
    throw new Error(`served ${file}`);
  } catch (error) {
    const match = /^serve exited (\S+): ([\s\S]*)$/.exec((error as Error).message);
    if (match === null) throw error;
    return { status: match[1]!, stderr: match[2]! };
  }
}

describe('moogle serve on a SQLite file', () => {
  it('refuses a damaged file at start, naming it and what to do', async () => {
    const file = await filled('damaged.db');
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(64 * 1024);
    // Garbage over the middle third of the pages: table and index pages, not the header.
    const fd = openSync(file, 'r+');
    const garbage = Buffer.alloc(4096, 0xa5);
    for (let at = Math.floor(size / 3 / 4096) * 4096; at < (size * 2) / 3; at += 4096 * 3) {
      writeSync(fd, garbage, 0, garbage.length, at);
    }
    closeSync(fd);

    const { status, stderr } = await refusal(file);
    expect(status).not.toBe('0');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(file);
    expect(lines[0]).toMatch(/damaged.*restore it from a backup/);

    // Its first page too, which SQLite reads before any check can run.
    const header = await filled('header.db');
    const headerFd = openSync(header, 'r+');
    writeSync(headerFd, garbage, 0, 100, 0);
    closeSync(headerFd);
    const first = await refusal(header);
    expect(first.status).not.toBe('0');
    expect(first.stderr.trim().split('\n')).toHaveLength(1);
    expect(first.stderr).toContain(`the SQLite file ${header} is damaged`);
  });

  it('refuses a second server on one file, and lets the next one in once the first is gone', async () => {
    const file = await filled('shared.db');
    const first = await spawnServe(file);
    try {
      const { status, stderr } = await refusal(file);
      expect(status).not.toBe('0');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`${file} is already being served`);
      expect(stderr).toContain(`process ${first.child.pid}`);

      // The CLI's table commands still open the file the server holds.
      const listed = spawnSync(process.execPath, [BIN, 'table', 'list', '--db', file], {
        encoding: 'utf8',
      });
      expect(listed.status).toBe(0);
    } finally {
      // Killed, not stopped: a server that dies leaves no hold behind.
      first.child.kill('SIGKILL');
      await exited(first);
    }
    const next = await spawnServe(file);
    next.child.kill('SIGTERM');
    expect(await exited(next)).toBe(0);
    // And one stopped cleanly lets go as well.
    const last = await spawnServe(file);
    last.child.kill('SIGTERM');
    expect(await exited(last)).toBe(0);
  });
});
