import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store, TableRecord } from '../../src/store/index.js';
import { freshLocation, open, stopFallbackPostgres } from '../store/fixtures.js';
import { BIN, ROOT } from './harness.js';

const run = promisify(execFile);
afterAll(stopFallbackPostgres);

async function moogle(
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function newTable(db: string): Promise<string> {
  const created = await moogle('table', 'new', '--system', 'ffrpg', '--name', 'Cave', '--db', db);
  expect(created.code, created.stderr).toBe(0);
  return /^Table ([\w-]+):/m.exec(created.stdout)![1]!;
}

async function libraryOf(db: string, id: string): Promise<unknown> {
  const store: Store = await open(db);
  try {
    const table = (await store.getTable(id)) as TableRecord;
    const listing = await store.getLibrary(table.id);
    return listing?.entries.map(({ kind, id, version, body }) => ({ kind, id, version, body }));
  } finally {
    await store.close();
  }
}

describe('moogle table content', () => {
  it('exports a SQLite table library that imports into a PostgreSQL table as the same library, and that moogle battle reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-library-cli-'));
    const sqlite = join(dir, 'data', 'moogle.db');
    const pg = await freshLocation('postgres');
    try {
      const from = await newTable(sqlite);
      // The GM's edit: the Heket at 20 HP, so the battle below is over in a round or two.
      const heket = readFileSync(join(ROOT, 'content/ffrpg/monsters/heket.yaml'), 'utf8');
      writeFileSync(join(dir, 'heket.yaml'), heket.replace('hp: 200', 'hp: 20'));
      const edited = await moogle(
        'table',
        'content',
        'import',
        from,
        join(dir, 'heket.yaml'),
        '--db',
        sqlite,
      );
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout).toContain('1 changed');

      const folder = join(dir, 'library');
      const exported = await moogle('table', 'content', 'export', from, folder, '--db', sqlite);
      expect(exported.code, exported.stderr).toBe(0);
      expect(
        JSON.parse(readFileSync(join(folder, 'monsters', 'heket.json'), 'utf8')),
      ).toMatchObject({ kind: 'ffrpg/monster', stats: { hp: 20 } });

      const to = await newTable(pg.location);
      const imported = await moogle('table', 'content', 'import', to, folder, '--db', pg.location);
      expect(imported.code, imported.stderr).toBe(0);
      const strip = (entries: unknown) =>
        (entries as { kind: string; id: string; body: unknown }[]).map(({ kind, id, body }) => ({
          kind,
          id,
          body,
        }));
      expect(strip(await libraryOf(pg.location, to))).toEqual(strip(await libraryOf(sqlite, from)));

      // The archive form round-trips too.
      const archive = join(dir, 'library.zip');
      expect((await moogle('table', 'content', 'export', from, archive, '--db', sqlite)).code).toBe(
        0,
      );
      const again = await moogle('table', 'content', 'import', to, archive, '--db', pg.location);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('0 added, 0 changed');

      // A bad file: nothing imported, the file and the path named.
      writeFileSync(join(dir, 'bad.yaml'), heket.replace('hp: 200', 'hp: lots'));
      const bad = await moogle(
        'table',
        'content',
        'import',
        to,
        join(dir, 'bad.yaml'),
        '--db',
        pg.location,
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/bad\.yaml:\d+: stats\.hp: expected/);

      // moogle battle reads the exported folder in place of the starter content.
      const battle = await moogle(
        'battle',
        join(ROOT, 'examples/ffrpg-wind-cave.yaml'),
        '--content',
        folder,
        '--auto',
        '--seed',
        '7',
        '--no-autosave',
      );
      expect(battle.code, battle.stderr).toBe(0);
      expect(battle.stdout).toMatch(/Heket\s+HP \d+\/20\s/);
      const sim = await moogle(
        'sim',
        join(ROOT, 'examples/ffrpg-wind-cave.yaml'),
        '--content',
        folder,
        '-n',
        '5',
        '--workers',
        '1',
        '--json',
      );
      expect(sim.code, sim.stderr).toBe(0);
    } finally {
      await pg.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
    // A dozen CLI processes, each loading the rules, on a machine shared with other work.
  }, 600_000);
});
