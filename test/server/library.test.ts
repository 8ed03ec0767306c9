import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOwnerToken } from '../../src/server/lobby/owner.js';
import type { StatePayload } from '../../src/server/protocol.js';
import { invite } from '../../src/server/tables.js';
import { stopFallbackPostgres } from '../store/fixtures.js';
import {
  Client,
  example,
  http,
  newTable,
  type Running,
  startEncounterOver,
  startServer,
  type TableFixture,
} from './harness.js';

afterAll(stopFallbackPostgres);

interface Listing {
  system: string;
  kinds: { kind: string; label: string; schema: Record<string, unknown> }[];
  entries: { kind: string; id: string; name: string; version: number; updatedAt: string }[];
}
interface Refusal {
  error: {
    code: string;
    message: string;
    issues?: { file: string; path: (string | number)[]; message: string; line?: number }[];
  };
}
type Entry = { kind: string; id: string; version: number; body: Record<string, unknown> };

const heketOf = (s: StatePayload) => s.view.combatants.find((c) => c.id === 'heket')!;

describe.each(['sqlite', 'postgres'] as const)(
  "a table's content library over HTTP (%s)",
  (kind) => {
    let running: Running;
    let fixture: TableFixture;
    let player: string;
    let spectator: string;
    let other: TableFixture;
    let dir: string;
    const api = (path = '', table = fixture.table.id) =>
      `${running.url}/api/tables/${table}/content${path}`;

    beforeAll(async () => {
      running = await startServer(kind);
      fixture = await newTable(running.store, 'ffrpg', ['hiro', 'haze', 'mint']);
      other = await newTable(running.store, 'ffrpg');
      const made = await invite(running.store, fixture.table, {
        role: 'player',
        characterId: 'hiro',
      });
      const watching = await invite(running.store, fixture.table, { role: 'spectator' });
      if (!made.ok || !watching.ok) throw new Error('no links');
      player = made.value.token;
      spectator = watching.value.token;
      dir = mkdtempSync(join(tmpdir(), 'moogle-library-http-'));
    });
    afterAll(async () => {
      await running?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("lists the table's copy of the starter content, each kind with the schema of its body", async () => {
      const listed = await http<Listing>(api(), fixture.gmToken, 'GET');
      expect(listed.status).toBe(200);
      expect(listed.body.system).toBe('ffrpg');
      const monster = listed.body.kinds.find((k) => k.kind === 'ffrpg/monster')!;
      expect(monster.label).toContain('monster');
      const properties = monster.schema.properties as Record<string, unknown>;
      expect(properties).toHaveProperty('stats');
      expect(properties).not.toHaveProperty('kind');
      expect(monster.schema.required).not.toContain('id');
      expect(listed.body.entries).toContainEqual(
        expect.objectContaining({ kind: 'ffrpg/monster', id: 'heket', name: 'Heket', version: 1 }),
      );
      const hiro = await http<Entry>(api('/ffrpg/character/hiro'), fixture.gmToken, 'GET');
      expect(hiro.status).toBe(200);
      expect(hiro.body).toMatchObject({ kind: 'ffrpg/character', id: 'hiro', version: 1 });
      expect(hiro.body.body).toMatchObject({ name: 'Hiro', weapon: 'valiant-rifle' });
      expect(hiro.body.body).not.toHaveProperty('format');
      // The kind as one escaped segment reads the same entry.
      const escaped = await http<Entry>(api('/ffrpg%2Fcharacter/hiro'), fixture.gmToken, 'GET');
      expect(escaped.body).toEqual(hiro.body);
      const missing = await http<Refusal>(api('/ffrpg/character/nobody'), fixture.gmToken, 'GET');
      expect(missing.status).toBe(404);
    });

    it('refuses an invalid entry beside its field and a missing reference by name, saving nothing', async () => {
      const hiro = (await http<Entry>(api('/ffrpg/character/hiro'), fixture.gmToken, 'GET')).body;
      const stats = hiro.body.stats as Record<string, unknown>;
      const bad = await http<Refusal>(api('/ffrpg/character/hiro'), fixture.gmToken, 'PUT', {
        body: { ...hiro.body, stats: { ...stats, hp: 'lots' } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('content/invalid');
      expect(bad.body.error.issues).toContainEqual(
        expect.objectContaining({
          path: ['stats', 'hp'],
          message: expect.stringContaining('lots'),
        }),
      );
      const masamune = await http<Refusal>(api('/ffrpg/character/hiro'), fixture.gmToken, 'PUT', {
        body: { ...hiro.body, weapon: 'masamune' },
      });
      expect(masamune.status).toBe(400);
      expect(masamune.body.error.issues).toEqual([
        expect.objectContaining({
          path: ['weapon'],
          message: "weapon 'masamune' does not exist in this table's library",
        }),
      ]);
      const wrongId = await http<Refusal>(api('/ffrpg/character/hiro'), fixture.gmToken, 'PUT', {
        body: { ...hiro.body, id: 'haze' },
      });
      expect(wrongId.body.error.issues?.[0]?.path).toEqual(['id']);
      const after = await http<Entry>(api('/ffrpg/character/hiro'), fixture.gmToken, 'GET');
      expect(after.body).toEqual(hiro);
    });

    it('writes an entry with the version it read, and refuses a write from an older read (409)', async () => {
      const hiro = (await http<Entry>(api('/ffrpg/character/hiro'), fixture.gmToken, 'GET')).body;
      const put = await http(api('/ffrpg/character/hiro'), fixture.gmToken, 'PUT', {
        body: { ...hiro.body, name: 'Hiro the Bold' },
        expectedVersion: hiro.version,
      });
      expect(put).toEqual({
        status: 200,
        body: { kind: 'ffrpg/character', id: 'hiro', version: hiro.version + 1 },
      });
      const late = await http<Refusal>(api('/ffrpg/character/hiro'), fixture.gmToken, 'PUT', {
        body: { ...hiro.body, name: 'Hiro the Late' },
        expectedVersion: hiro.version,
      });
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('library/conflict');
      const listed = await http<Listing>(api(), fixture.gmToken, 'GET');
      expect(listed.body.entries).toContainEqual(
        expect.objectContaining({ id: 'hiro', name: 'Hiro the Bold', version: hiro.version + 1 }),
      );
    });

    it('refuses to delete what another entry or the roster uses, naming each, and deletes what nothing uses', async () => {
      const rifle = await http<Refusal>(
        api('/ffrpg/weapon/valiant-rifle'),
        fixture.gmToken,
        'DELETE',
      );
      expect(rifle.status).toBe(409);
      expect(rifle.body.error.message).toContain("character 'hiro'");
      const hiro = await http<Refusal>(api('/ffrpg/character/hiro'), fixture.gmToken, 'DELETE');
      expect(hiro.status).toBe(409);
      expect(hiro.body.error.message).toContain("the roster's character 'hiro'");
      const made = await http(api('/ffrpg/weapon/dagger'), fixture.gmToken, 'PUT', {
        body: { name: 'Dagger', damage: 'STR + d6', skill: 'Swords', damageType: 'physical' },
        expectedVersion: 0,
      });
      expect(made.body).toEqual({ kind: 'ffrpg/weapon', id: 'dagger', version: 1 });
      const deleted = await http(api('/ffrpg/weapon/dagger'), fixture.gmToken, 'DELETE');
      expect(deleted).toEqual({
        status: 200,
        body: { kind: 'ffrpg/weapon', id: 'dagger', version: 2 },
      });
      expect((await http(api('/ffrpg/weapon/dagger'), fixture.gmToken, 'GET')).status).toBe(404);
    });

    it("lets a player's and a spectator's link read what is not the GM's alone, and write nothing", async () => {
      for (const token of [player, spectator]) {
        const listed = await http<Listing>(api(), token, 'GET');
        expect(listed.status).toBe(200);
        expect(listed.body.entries.some((e) => e.id === 'hiro')).toBe(true);
        expect(listed.body.entries.some((e) => e.kind === 'ffrpg/monster')).toBe(false);
        expect((await http(api('/ffrpg/monster/heket'), token, 'GET')).status).toBe(404);
        const hiro = await http<Entry>(api('/ffrpg/character/hiro'), token, 'GET');
        expect(hiro.status).toBe(200);
        const write = await http<Refusal>(api('/ffrpg/character/hiro'), token, 'PUT', {
          body: hiro.body.body,
        });
        expect(write.status).toBe(403);
        expect((await http(api('/ffrpg/weapon/rod'), token, 'DELETE')).status).toBe(403);
        expect(
          (await http(api('/import'), token, 'POST', { files: [{ name: 'a.yaml', text: '' }] }))
            .status,
        ).toBe(403);
        expect((await http(api('/export'), token, 'GET')).status).toBe(403);
      }
      // Another table's GM finds no such table; nobody without a token gets in.
      expect((await http(api(), other.gmToken, 'GET')).status).toBe(404);
      expect((await http(api(), undefined, 'GET')).status).toBe(401);
      // The owner runs every table.
      const owner = await ensureOwnerToken(running.store);
      if (!owner.ok || owner.value === undefined) throw new Error('no owner token');
      expect((await http(api(), owner.value, 'GET')).status).toBe(200);
    });

    it('imports a pack all or nothing, every error naming the file, the path and what was expected', async () => {
      const bomb = [
        'format: 1',
        'kind: ffrpg/monster',
        'id: bomb',
        'name: Bomb',
        'level: 5',
        'attributes: { STR: 8, VIT: 8, AGI: 8, SPD: 8, MAG: 8, SPR: 8 }',
        'stats: { hp: 90, mp: 0, acc: 50, macc: 40, eva: 10, meva: 5, arm: 4, marm: 4 }',
        'weapon: { name: Burn, damage: STR + d8, damageType: physical }',
      ].join('\n');
      const broken = bomb.replace('id: bomb', 'id: grenade').replace('hp: 90', 'hp: lots');
      const refused = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        files: [
          { name: 'monsters/bomb.yaml', text: bomb },
          { name: 'monsters/grenade.yaml', text: broken },
        ],
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues).toEqual([
        expect.objectContaining({
          file: 'monsters/grenade.yaml',
          path: ['stats', 'hp'],
          line: 7,
          message: expect.stringContaining('expected'),
        }),
      ]);
      expect((await http(api('/ffrpg/monster/bomb'), fixture.gmToken, 'GET')).status).toBe(404);

      const dangling = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        files: [{ name: 'bomb.yaml', text: bomb.replace(/weapon: .*/, 'weapon: masamune') }],
      });
      expect(dangling.body.error.issues?.[0]).toMatchObject({
        file: 'bomb.yaml',
        path: ['weapon'],
        message: "weapon 'masamune' does not exist in this table's library",
      });
      for (const name of ['../bomb.yaml', '/etc/bomb.yaml', 'bomb.txt']) {
        const named = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
          files: [{ name, text: bomb }],
        });
        expect(named.status, name).toBe(400);
        expect(named.body.error.issues?.[0]?.file).toBe(name);
      }
      const other = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        files: [{ name: 'x.yaml', text: bomb.replace('ffrpg/monster', 'zodiac/monster') }],
      });
      expect(other.body.error.issues?.[0]?.path).toEqual(['kind']);

      const imported = await http(api('/import'), fixture.gmToken, 'POST', {
        files: [{ name: 'monsters/bomb.yaml', text: bomb }],
      });
      expect(imported).toEqual({ status: 200, body: { added: 1, changed: 0, unchanged: 0 } });
    });

    it('imports a .zip made by zip, and refuses one that climbs out of its folder', async () => {
      const pack = join(dir, 'pack');
      mkdirSync(join(pack, 'weapons'), { recursive: true });
      writeFileSync(
        join(pack, 'weapons', 'kunai.yaml'),
        'format: 1\nkind: ffrpg/weapon\nid: kunai\nname: Kunai\ndamage: STR + d4\nskill: Swords\ndamageType: physical\n',
      );
      execFileSync('zip', ['-qr', join(dir, 'pack.zip'), 'weapons'], { cwd: pack });
      const archive = readFileSync(join(dir, 'pack.zip')).toString('base64');
      const imported = await http(api('/import'), fixture.gmToken, 'POST', { archive });
      expect(imported).toEqual({ status: 200, body: { added: 1, changed: 0, unchanged: 0 } });
      expect((await http(api('/ffrpg/weapon/kunai'), fixture.gmToken, 'GET')).status).toBe(200);

      // zip stores the name as given: one that climbs out of the folder it is unpacked in.
      execFileSync('zip', ['-q', join(dir, 'climb.zip'), '../weapons/kunai.yaml'], {
        cwd: join(pack, 'weapons'),
      });
      expect(
        execFileSync('unzip', ['-Z1', join(dir, 'climb.zip')], { encoding: 'utf8' }),
      ).toContain('../');
      const climbing = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        archive: readFileSync(join(dir, 'climb.zip')).toString('base64'),
      });
      expect(climbing.status).toBe(400);
      expect(climbing.body.error.message).toContain('refused: a path out of the archive');
      const junk = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        archive: Buffer.from('not an archive').toString('base64'),
      });
      expect(junk.body.error.code).toBe('content/bad-archive');

      // A megabyte of zeros zips to a kilobyte: refused for what it unpacks to, before inflating.
      writeFileSync(join(dir, 'zeros.yaml'), Buffer.alloc(9 * 1024 * 1024));
      execFileSync('zip', ['-qj', join(dir, 'bomb.zip'), join(dir, 'zeros.yaml')]);
      const bomb = readFileSync(join(dir, 'bomb.zip'));
      expect(bomb.length).toBeLessThan(64 * 1024);
      const refused = await http<Refusal>(api('/import'), fixture.gmToken, 'POST', {
        archive: bomb.toString('base64'),
      });
      expect(refused.status).toBe(413);
      expect(refused.body.error.message).toContain('unpacks to more than 8 MiB');
    });

    it('exports files laid out as the content folders, as JSON and as a .zip that unzip reads', async () => {
      const exported = await http<{ system: string; files: { name: string; text: string }[] }>(
        api('/export'),
        fixture.gmToken,
        'GET',
      );
      expect(exported.status).toBe(200);
      const names = exported.body.files.map((f) => f.name);
      expect(names).toContain('monsters/heket.json');
      expect(names).toContain('level-tables/standard.json');
      const heket = exported.body.files.find((f) => f.name === 'monsters/heket.json')!;
      expect(JSON.parse(heket.text)).toMatchObject({
        format: 1,
        kind: 'ffrpg/monster',
        id: 'heket',
      });

      const response = await fetch(api('/export?format=zip'), {
        headers: { authorization: `Bearer ${fixture.gmToken}` },
      });
      expect(response.headers.get('content-type')).toBe('application/zip');
      writeFileSync(join(dir, 'export.zip'), Buffer.from(await response.arrayBuffer()));
      const listed = execFileSync('unzip', ['-Z1', join(dir, 'export.zip')], { encoding: 'utf8' });
      expect(listed.trim().split('\n').sort()).toEqual([...names].sort());
      const unzipped = execFileSync(
        'unzip',
        ['-p', join(dir, 'export.zip'), 'monsters/heket.json'],
        {
          encoding: 'utf8',
        },
      );
      expect(unzipped).toBe(heket.text);
      // The same library in: nothing changes.
      const again = await http(api('/import'), fixture.gmToken, 'POST', {
        files: exported.body.files,
      });
      expect(again.body).toEqual({ added: 0, changed: 0, unchanged: names.length });
    });

    it('builds encounters from the library; an encounter keeps the content it started with after an edit', async () => {
      const heket = (await http<Entry>(api('/ffrpg/monster/heket'), fixture.gmToken, 'GET')).body;
      const id = await startEncounterOver(running.url, fixture.gmToken, example('ffrpg-wind-cave'));
      const before = await Client.join(running.url, id, fixture.gmToken);
      expect(heketOf(before.state).maxHp).toBe(200);
      before.client.close();

      const stats = heket.body.stats as Record<string, unknown>;
      const edited = await http(api('/ffrpg/monster/heket'), fixture.gmToken, 'PUT', {
        body: { ...heket.body, stats: { ...stats, hp: 350 } },
        expectedVersion: heket.version,
      });
      expect(edited.status).toBe(200);
      const later = await startEncounterOver(
        running.url,
        fixture.gmToken,
        example('ffrpg-wind-cave'),
      );

      // A server started afresh on the same database rebuilds both from what is stored.
      await running.server.shutdown();
      await running.store.close();
      running = await startServer(kind, running.location);
      const old = await Client.join(running.url, id, fixture.gmToken);
      const fresh = await Client.join(running.url, later, fixture.gmToken);
      expect(heketOf(old.state).maxHp).toBe(200);
      expect(heketOf(old.state)).toEqual(heketOf(before.state));
      expect(heketOf(fresh.state).maxHp).toBe(350);

      // The GM's touch controls offer the table's own sheets to add.
      const kit = await http<{ newcomers: { kind: string; id: string; name: string }[] }>(
        `${running.url}/api/encounters/${id}/gm-kit`,
        fixture.gmToken,
        'GET',
      );
      expect(kit.body.newcomers).toContainEqual({ kind: 'monster', id: 'bomb', name: 'Bomb' });
      // `gm add` in a live fight finds the table's own entries, and not what it deleted.
      const added = await old.client.submit(1, 'add-bomb', {
        kind: 'gm',
        line: 'add bomb to enemies',
      });
      expect(added.type, JSON.stringify(added)).toBe('accepted');
      const kunai = await http(api('/ffrpg/weapon/kunai'), fixture.gmToken, 'DELETE');
      expect(kunai.status).toBe(200);
      const bombGone = await http(api('/ffrpg/monster/bomb'), fixture.gmToken, 'DELETE');
      expect(bombGone.status).toBe(200);
      const refused = await old.client.submit(2, 'add-bomb-2', {
        kind: 'gm',
        line: 'add bomb to enemies',
      });
      expect(refused).toMatchObject({ type: 'refused', code: 'gm/unknown-content' });
      old.client.close();
      fresh.client.close();
    });

    it('takes the session cookie a browser keeps for the table, as the web page sends it', async () => {
      const opened = await fetch(`${running.url}/t/${fixture.gmToken}`, { redirect: 'manual' });
      await opened.text();
      const cookie = opened.headers.get('set-cookie')?.split(';')[0] ?? '';
      expect(cookie).not.toBe('');
      const page = async (path: string, method = 'GET', body?: unknown) => {
        const response = await fetch(api(path), {
          method,
          headers: {
            cookie,
            'x-moogle-table': fixture.table.id,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return {
          status: response.status,
          body: (await response.json()) as Record<string, unknown>,
        };
      };
      expect((await page('')).status).toBe(200);
      const rod = await page('/ffrpg/weapon/rod');
      expect(rod.status).toBe(200);
      const written = await page('/ffrpg/weapon/rod', 'PUT', {
        body: { ...(rod.body.body as object), name: 'Rod of Ages' },
        expectedVersion: rod.body.version,
      });
      expect(written.status).toBe(200);
      // Without the cookie, nothing.
      const bare = await fetch(api(''), { headers: { 'x-moogle-table': fixture.table.id } });
      expect(bare.status).toBe(401);
    });

    it('bounds the entries a table keeps', async () => {
      const small = await startServer(kind, undefined, {
        limits: { libraryEntriesPerTable: 3 },
      });
      try {
        const table = await newTable(small.store, 'ffrpg');
        const url = `${small.url}/api/tables/${table.table.id}/content/ffrpg/weapon/dagger`;
        const refused = await http<Refusal>(url, table.gmToken, 'PUT', {
          body: { name: 'Dagger', damage: 'STR + d6', skill: 'Swords', damageType: 'physical' },
        });
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('quota/library');
      } finally {
        await small.stop();
      }
    });
  },
);
