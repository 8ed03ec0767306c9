import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactLine } from '../../src/server/app.js';
import { ensureOwnerToken } from '../../src/server/lobby/owner.js';
import type { ServerMessage } from '../../src/server/protocol.js';
import type { Store, TableExport } from '../../src/store/index.js';
import {
  freshLocation,
  KINDS,
  type Location,
  open,
  stopFallbackPostgres,
} from '../store/fixtures.js';
import {
  Client,
  example,
  http,
  type Running,
  type ServeProcess,
  spawnServe,
  startEncounterOver,
  startServer,
} from './harness.js';

afterAll(stopFallbackPostgres);

type Refused = Extract<ServerMessage, { type: 'refused' }>;

interface MadeTable {
  table: { id: string; name: string; systemId: string };
  gm: { token: string; link: string; invite: { tokenId: string } };
}

/** Resolves once the socket is closed, with its code. */
function closed(client: Client): Promise<number> {
  if (client.closed !== undefined) return Promise.resolve(client.closed.code);
  return new Promise((resolve) => client.socket.once('close', (code) => resolve(code)));
}

describe.each(KINDS)('the lobby API (%s)', (kind) => {
  let running: Running;
  let owner: string;

  beforeAll(async () => {
    running = await startServer(kind, undefined, { limits: { tables: 4 } });
    const made = await ensureOwnerToken(running.store);
    if (!made.ok || made.value === undefined) throw new Error('no owner token made');
    owner = made.value;
  });

  afterAll(async () => {
    await running?.stop();
  });

  const api = (path: string) => `${running.url}/api/lobby${path}`;

  it('makes the owner token once, keeps only its hash, and takes a given one instead', async () => {
    const again = await ensureOwnerToken(running.store);
    expect(again).toEqual({ ok: true, value: undefined });
    const hash = await running.store.ownerHash();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(owner);
    // A token the server made is hidden by the logs' redaction wherever it stands, as a link is.
    expect(redactLine(`{"msg":"saw ${owner} here"}`)).not.toContain(owner.slice(-43));
    const other = await startServer(kind);
    try {
      const given = 'given-owner-token-of-a-hosted-service-0123456789';
      expect((await ensureOwnerToken(other.store, given)).ok).toBe(true);
      expect((await http(`${other.url}/api/lobby/tables`, given, 'GET')).status).toBe(200);
      expect((await ensureOwnerToken(other.store, 'short')).ok).toBe(false);
      const replaced = 'a-second-given-owner-token-replaces-the-first-one';
      await ensureOwnerToken(other.store, replaced);
      expect((await http(`${other.url}/api/lobby/tables`, given, 'GET')).status).toBe(401);
      expect((await http(`${other.url}/api/lobby/tables`, replaced, 'GET')).status).toBe(200);
    } finally {
      await other.stop();
    }
  });

  it('creates, lists, links, exports, deletes and imports tables; revokes links', async () => {
    const created = await http<MadeTable>(api('/tables'), owner, 'POST', {
      system: 'ffrpg',
      name: 'Lobby cave',
      characters: ['hiro', 'haze'],
    });
    expect(created.status).toBe(201);
    const { table, gm } = created.body;
    expect(gm.link).toBe(`${running.url}/t/${gm.token}`);
    // The GM link it made runs the table.
    const asGm = await http<{ roster: { character: string }[] }>(
      `${running.url}/api/table`,
      gm.token,
      'GET',
    );
    expect(asGm.status).toBe(200);
    expect(asGm.body.roster.map((r) => r.character).sort()).toEqual(['@party', 'haze', 'hiro']);

    const listed = await http<{ tables: { id: string }[] }>(api('/tables'), owner, 'GET');
    expect(listed.body.tables.map((t) => t.id)).toContain(table.id);

    const player = await http<{ token: string; invite: { tokenId: string; role: string } }>(
      api(`/tables/${table.id}/links`),
      owner,
      'POST',
      { role: 'player', character: 'hiro' },
    );
    expect(player.status).toBe(201);
    expect(player.body.invite.role).toBe('player');
    const notOnRoster = await http(api(`/tables/${table.id}/links`), owner, 'POST', {
      role: 'player',
      character: 'mint',
    });
    expect(notOnRoster.status).toBe(400);
    const coGm = await http<{ token: string; invite: { tokenId: string } }>(
      api(`/tables/${table.id}/links`),
      owner,
      'POST',
      { role: 'gm' },
    );
    expect(coGm.status).toBe(201);
    const links = await http<{ links: { tokenId: string; revokedAt: string | null }[] }>(
      api(`/tables/${table.id}/links`),
      owner,
      'GET',
    );
    expect(links.body.links.map((l) => l.tokenId).sort()).toEqual(
      [gm.invite.tokenId, player.body.invite.tokenId, coGm.body.invite.tokenId].sort(),
    );
    const revoked = await http(
      api(`/tables/${table.id}/links/${coGm.body.invite.tokenId}`),
      owner,
      'DELETE',
    );
    expect(revoked).toEqual({ status: 200, body: { revoked: coGm.body.invite.tokenId } });
    expect((await http(`${running.url}/api/table`, coGm.body.token, 'GET')).status).toBe(401);
    const twice = await http(
      api(`/tables/${table.id}/links/${coGm.body.invite.tokenId}`),
      owner,
      'DELETE',
    );
    expect(twice.status).toBe(400);

    // Deleting closes the sockets of its links, then everything of the table is gone.
    const encounter = await startEncounterOver(
      running.url,
      gm.token,
      example('ffrpg-wind-cave'),
      'lobby',
    );
    const exported = await http<TableExport>(api(`/tables/${table.id}/export`), owner, 'GET');
    expect(exported.status).toBe(200);
    const { client: watching } = await Client.join(running.url, encounter, player.body.token);
    const deleted = await http(api(`/tables/${table.id}`), owner, 'DELETE');
    expect(deleted).toEqual({ status: 200, body: { deleted: table.id, revoked: 2 } });
    const refusal = await watching.until(
      (m): m is Refused => m.type === 'refused' && m.code === 'auth/revoked',
    );
    expect(refusal.code).toBe('auth/revoked');
    expect(await closed(watching)).toBe(4001);
    expect((await http(`${running.url}/api/table`, gm.token, 'GET')).status).toBe(401);
    expect(await running.store.getTable(table.id)).toBeUndefined();
    expect(await running.store.getEncounter(encounter)).toBeUndefined();
    expect(await running.store.getRoster(table.id)).toEqual([]);
    expect(await running.store.listTokens(table.id)).toEqual([]);
    expect((await http(api(`/tables/${table.id}`), owner, 'DELETE')).status).toBe(404);
    expect((await http(api(`/tables/${table.id}/export`), owner, 'GET')).status).toBe(404);

    // An export edited so that Hiro keeps a Status Condition its library does not hold is
    // refused whole, naming it: a character must not hold what no fight could load.
    const edited = structuredClone(exported.body) as unknown as {
      roster: { characterId: string; state: { statuses?: string[] } }[];
    };
    const hiroRow = edited.roster.find((r) => r.characterId === 'hiro')!;
    hiroRow.state.statuses = ['no-such-status'];
    const orphaned = await http<{ error: { code: string; message: string } }>(
      api('/tables/import'),
      owner,
      'POST',
      edited,
    );
    expect(orphaned.status).toBe(400);
    expect(orphaned.body.error.code).toBe('import/malformed');
    expect(orphaned.body.error.message).toContain(
      "status 'no-such-status', held by 'hiro' (lasting status)",
    );
    expect(await running.store.getTable(table.id)).toBeUndefined();

    // The export brings it back, links and all.
    const imported = await http<{ table: { id: string } }>(
      api('/tables/import'),
      owner,
      'POST',
      exported.body,
    );
    expect(imported.status).toBe(201);
    expect(imported.body.table.id).toBe(table.id);
    expect((await http(`${running.url}/api/table`, gm.token, 'GET')).status).toBe(200);
    const twiceImported = await http(api('/tables/import'), owner, 'POST', exported.body);
    expect(twiceImported.status).toBe(409);
    expect((await http(api('/tables/import'), owner, 'POST', { not: 'an export' })).status).toBe(
      400,
    );
  });

  it('refuses links and strangers: 401 without a live credential, 403 for a GM or player link', async () => {
    const created = await http<MadeTable>(api('/tables'), owner, 'POST', {
      system: 'ffrpg',
      name: 'Guarded',
      characters: ['hiro'],
    });
    const { table, gm } = created.body;
    const player = await running.store.createToken(table.id, {
      role: 'player',
      characterId: 'hiro',
    });
    if (!player.ok) throw new Error(player.error.message);
    const routes: [string, string, unknown?][] = [
      ['POST', '/tables', { system: 'ffrpg', name: 'No' }],
      ['GET', '/tables'],
      ['GET', `/tables/${table.id}/export`],
      ['POST', '/tables/import', {}],
      ['DELETE', `/tables/${table.id}`],
      ['POST', `/tables/${table.id}/links`, { role: 'gm' }],
      ['GET', `/tables/${table.id}/links`],
      ['DELETE', `/tables/${table.id}/links/${gm.invite.tokenId}`],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [gm.token, player.value.token]) {
        const answer = await http<{ error: { code: string } }>(api(path), token, method, body);
        expect([method, path, answer.status, answer.body.error.code]).toEqual([
          method,
          path,
          403,
          'role/owner-only',
        ]);
      }
      const none = await http<{ error: { code: string } }>(api(path), undefined, method, body);
      expect([path, none.status, none.body.error.code]).toEqual([path, 401, 'auth/missing']);
      const wrong = await http(api(path), `${owner.slice(0, -4)}AAAA`, method, body);
      expect([path, wrong.status]).toEqual([path, 401]);
    }
    // Nothing was changed by them: the table and its GM link stand.
    expect((await http(`${running.url}/api/table`, gm.token, 'GET')).status).toBe(200);
    // The owner token is no table link.
    expect((await http(`${running.url}/api/table`, owner, 'GET')).status).toBe(401);
  });

  it('bounds the tables a server keeps, and checks what it is sent', async () => {
    const bad = await http<{ error: { code: string } }>(api('/tables'), owner, 'POST', {
      system: 'no-such-system',
      name: 'x',
    });
    expect(bad.status).toBe(400);
    const shapeless = await http<{ error: { code: string } }>(api('/tables'), owner, 'POST', {
      name: 'x'.repeat(201),
    });
    expect([shapeless.status, shapeless.body.error.code]).toEqual([400, 'table/invalid']);
    // A character the system does not have: refused before any table is made.
    const before = (await running.store.listTables()).length;
    const unknown = await http<{ error: { message: string } }>(api('/tables'), owner, 'POST', {
      system: 'ffrpg',
      name: 'Half made',
      characters: ['hiro', 'nobody'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('nobody');
    expect((await running.store.listTables()).length).toBe(before);
    let last = 0;
    for (let i = 0; i < 5 && last !== 409; i++) {
      last = (await http(api('/tables'), owner, 'POST', { system: 'ffrpg', name: `t${i}` })).status;
    }
    const full = await http<{ error: { code: string } }>(api('/tables'), owner, 'POST', {
      system: 'ffrpg',
      name: 'one too many',
    });
    expect([full.status, full.body.error.code]).toEqual([409, 'quota/tables']);
  });
});

describe('the owner rate bucket', () => {
  it('is counted as a link is, not with the failed authentications of its address', async () => {
    const running = await startServer('sqlite', undefined, {
      limits: { failedAuthsPerMinute: 2 },
    });
    try {
      const made = await ensureOwnerToken(running.store);
      const owner = made.ok ? made.value : undefined;
      const answers: number[] = [];
      for (let i = 0; i < 5; i++) {
        answers.push((await http(`${running.url}/api/lobby/tables`, owner, 'GET')).status);
      }
      expect(answers).toEqual([200, 200, 200, 200, 200]);
      const forged: number[] = [];
      for (let i = 0; i < 3; i++) {
        forged.push((await http(`${running.url}/api/lobby/tables`, `${owner}x`, 'GET')).status);
      }
      expect(forged).toEqual([401, 401, 429]);
    } finally {
      await running.stop();
    }
  });
});

describe('the lobby API with two processes on one PostgreSQL', () => {
  let location: Location;
  let store: Store;
  let a: ServeProcess;
  let b: ServeProcess;
  let dir: string;
  const owner = 'owner-token-given-to-both-processes-0123456789';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'moogle-lobby-'));
    const file = join(dir, 'owner-token');
    writeFileSync(file, `${owner}\n`);
    location = await freshLocation('postgres');
    store = await open(location.location);
    [a, b] = await Promise.all([
      spawnServe(location.location, ['--owner-token-file', file]),
      spawnServe(location.location, ['--owner-token-file', file]),
    ]);
  }, 60_000);

  afterAll(async () => {
    for (const p of [a, b]) p?.child.kill('SIGTERM');
    await store?.close();
    await location?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes a table through one process and closes its sockets on the other; prints no token it was given', async () => {
    expect(a.stderr()).not.toContain('owner token');
    const created = await http<MadeTable>(`${a.url}/api/lobby/tables`, owner, 'POST', {
      system: 'ffrpg',
      name: 'Far',
    });
    expect(created.status).toBe(201);
    const { table, gm } = created.body;
    const encounter = await startEncounterOver(b.url, gm.token, example('ffrpg-wind-cave'), 'far');
    const { client } = await Client.join(b.url, encounter, gm.token);
    const listed = await http<{ tables: { id: string }[] }>(
      `${b.url}/api/lobby/tables`,
      owner,
      'GET',
    );
    expect(listed.body.tables.map((t) => t.id)).toContain(table.id);
    const deleted = await http(`${a.url}/api/lobby/tables/${table.id}`, owner, 'DELETE');
    expect(deleted.status).toBe(200);
    expect(await closed(client)).toBe(4001);
    expect((await http(`${b.url}/api/table`, gm.token, 'GET')).status).toBe(401);
  });
});

describe('moogle serve and the owner token', () => {
  it('prints a token it made on the first start only, and that token runs the lobby', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moogle-owner-'));
    const db = join(dir, 'moogle.db');
    try {
      const first = await spawnServe(db, ['--no-demo']);
      let token: string | undefined;
      for (let i = 0; i < 100 && token === undefined; i++) {
        token = /owner token .*: (\S+)$/m.exec(first.stderr())?.[1];
        if (token === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(token).toBeDefined();
      expect((await http(`${first.url}/api/lobby/tables`, token, 'GET')).status).toBe(200);
      const stopped = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGTERM');
      await stopped;
      const second = await spawnServe(db, ['--no-demo']);
      try {
        expect(second.stderr()).not.toContain('owner token');
        expect((await http(`${second.url}/api/lobby/tables`, token, 'GET')).status).toBe(200);
      } finally {
        second.child.kill('SIGTERM');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
