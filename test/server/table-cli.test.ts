import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freshLocation, stopFallbackPostgres } from '../store/fixtures.js';
import { BIN, Client, example, http, spawnServe, startEncounterOver } from './harness.js';

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

describe('moogle table', () => {
  it('creates a table with a GM link, plays on it, and moves it from SQLite to PostgreSQL exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-table-cli-'));
    const sqlite = join(dir, 'data', 'moogle.db');
    const pg = await freshLocation('postgres');
    try {
      const created = await moogle(
        'table',
        'new',
        '--system',
        'ffrpg',
        '--name',
        'Wind Cave',
        '--character',
        'hiro',
        'haze',
        'mint',
        '--db',
        sqlite,
      );
      expect(created.code, created.stderr).toBe(0);
      const tableId = /^Table ([\w-]+):/m.exec(created.stdout)![1]!;
      const gmToken = /GM link .*\/t\/(\S+)$/m.exec(created.stdout)![1]!;
      const listed = await moogle('table', 'list', '--db', sqlite);
      expect(listed.stdout).toContain(tableId);
      const invited = await moogle(
        'table',
        'invite',
        tableId,
        '--character',
        'hiro',
        '--db',
        sqlite,
      );
      expect(invited.stdout).toMatch(
        /^player link \([\w-]+\): http:\/\/127\.0\.0\.1:8080\/t\/\S+$/m,
      );
      const unknown = await moogle(
        'table',
        'invite',
        tableId,
        '--character',
        'nobody',
        '--db',
        sqlite,
      );
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('not on this table');

      // A fight on the SQLite table, with a few entries, a reveal and a finished status.
      const server = await spawnServe(sqlite);
      const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'), 'moved');
      const { client, state } = await Client.join(server.url, id, gmToken);
      let seq = state.seq;
      let actions = state.actions;
      for (let i = 0; i < 4; i++) {
        const answer = await client.submit(seq + 1, `k${i}`, {
          kind: 'command',
          command: actions[0]!.command,
        });
        expect(answer.type).toBe('accepted');
        const entry = await client.next('entry');
        seq = entry.seq;
        actions = entry.actions;
      }
      client.send({ type: 'reveal', combatant: 'heket', revealed: true });
      await client.next('changed');
      client.close();
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));

      const exported = await moogle('table', 'export', tableId, '--db', sqlite);
      expect(exported.code, exported.stderr).toBe(0);
      const file = join(dir, 'table.json');
      writeFileSync(file, exported.stdout);
      const imported = await moogle('table', 'import', file, '--db', pg.location);
      expect(imported.code, imported.stderr).toBe(0);
      const again = await moogle('table', 'export', tableId, '--db', pg.location);
      expect(JSON.parse(again.stdout)).toEqual(JSON.parse(exported.stdout));
      expect(JSON.parse(again.stdout).encounters[0].entries).toHaveLength(4);
      const twice = await moogle('table', 'import', file, '--db', pg.location);
      expect(twice.code).toBe(2);

      // The same links work on the PostgreSQL server, and the fight goes on where it stopped.
      const moved = await spawnServe(pg.location);
      const table = await http<{ table: { id: string } }>(`${moved.url}/api/table`, gmToken, 'GET');
      expect(table.body.table.id).toBe(tableId);
      const { client: back, state: resumed } = await Client.join(moved.url, id, gmToken);
      expect(resumed.seq).toBe(4);
      expect(resumed.view.combatants.find((c) => c.id === 'heket')).toBeDefined();
      back.close();
      moved.child.kill('SIGTERM');
      await new Promise((resolve) => moved.child.once('exit', resolve));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await pg.dispose();
    }
  });

  it('stops on SIGTERM after the submit in flight, telling clients to reconnect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-table-cli-'));
    try {
      const db = join(dir, 'm.db');
      const created = await moogle('table', 'new', '--system', 'ffrpg', '--name', 'x', '--db', db);
      const gmToken = /GM link .*\/t\/(\S+)$/m.exec(created.stdout)![1]!;
      const server = await spawnServe(db);
      const id = await startEncounterOver(server.url, gmToken, example('ffrpg-wind-cave'), 'term');
      const { client, state } = await Client.join(server.url, id, gmToken);
      client.send({
        type: 'submit',
        expect: 1,
        key: 'in-flight',
        action: { kind: 'command', command: state.actions[0]!.command },
      });
      server.child.kill('SIGTERM');
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      expect(await client.next('accepted')).toMatchObject({ key: 'in-flight', seq: 1 });
      expect(await client.next('reconnect')).toMatchObject({ type: 'reconnect' });
      expect(await exited).toBe(0);
      expect(client.closed?.code).toBe(1012);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deletes a table from the terminal, closing its sockets on the running server (PostgreSQL)', async () => {
    const pg = await freshLocation('postgres');
    try {
      const created = await moogle(
        'table',
        'new',
        '--system',
        'ffrpg',
        '--name',
        'Gone',
        '--db',
        pg.location,
      );
      const tableId = /^Table ([\w-]+):/m.exec(created.stdout)![1]!;
      const gmToken = /GM link .*\/t\/(\S+)$/m.exec(created.stdout)![1]!;
      const server = await spawnServe(pg.location);
      try {
        const id = await startEncounterOver(
          server.url,
          gmToken,
          example('ffrpg-wind-cave'),
          'gone',
        );
        const { client } = await Client.join(server.url, id, gmToken);
        const closed = new Promise<number>((resolve) =>
          client.socket.once('close', (code) => resolve(code)),
        );
        const deleted = await moogle('table', 'delete', tableId, '--db', pg.location);
        expect(deleted.code, deleted.stderr).toBe(0);
        expect(deleted.stdout).toContain('1 links revoked');
        expect(await closed).toBe(4001);
        expect((await moogle('table', 'list', '--db', pg.location)).stdout).not.toContain(tableId);
        expect((await moogle('table', 'delete', tableId, '--db', pg.location)).code).toBe(2);
      } finally {
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
    } finally {
      await pg.dispose();
    }
  });

  it('refuses bad input with exit 2 and a reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-table-cli-'));
    try {
      const db = join(dir, 'm.db');
      expect(
        (await moogle('table', 'new', '--system', 'nope', '--name', 'x', '--db', db)).code,
      ).toBe(2);
      expect((await moogle('table', 'export', 'missing', '--db', db)).code).toBe(2);
      writeFileSync(join(dir, 'bad.json'), '{"format":"moogle-table"');
      const bad = await moogle('table', 'import', join(dir, 'bad.json'), '--db', db);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('not JSON');
      // A device never ends: it is refused, not read until memory runs out.
      const endless = await moogle('table', 'import', '/dev/zero', '--db', db);
      expect(endless.code).toBe(2);
      expect(endless.stderr).toContain('not a regular file');
      expect((await moogle('serve', '--port', 'x', '--db', db)).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
