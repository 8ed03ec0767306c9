import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEncounterFile } from '../../src/encounters/file.js';
import { Encounter, type LogEntry, loadEncounter } from '../../src/engine/index.js';
import { RULESETS, SYSTEMS } from '../../src/rulesets/index.js';
import { type JsonValue, openStore, type Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] } as const;

function undoEntry(seq: number): LogEntry {
  return { seq, type: 'undo', steps: 1 };
}

describe.each(KINDS)('store on %s', (kind) => {
  let location: Location;
  let store: Store;

  beforeAll(async () => {
    location = await freshLocation(kind);
    store = await open(location.location);
  });
  afterAll(async () => {
    await store?.close();
    await location?.dispose();
  });

  async function newEncounter(): Promise<{ tableId: string; encounterId: string }> {
    const table = await store.createTable({ systemId: 'ffrpg', name: 'Wind Cave' });
    if (!table.ok) throw new Error(table.error.message);
    const encounter = await store.createEncounter({
      tableId: table.value.id,
      name: 'fight',
      ruleset: 'ffrpg',
      setup: { any: 'setup' },
      initialDice: DICE,
    });
    if (!encounter.ok) throw new Error(encounter.error.message);
    return { tableId: table.value.id, encounterId: encounter.value.id };
  }

  it('reports its kind and opens again without running migrations twice', async () => {
    expect(store.kind).toBe(kind);
    const again = await open(location.location);
    await again.close();
  });

  it('creates, gets and lists tables', async () => {
    const created = await store.createTable({ systemId: 'ffviii', name: 'Balamb', id: 'balamb' });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.value).toMatchObject({ id: 'balamb', systemId: 'ffviii', name: 'Balamb' });
    expect(await store.getTable('balamb')).toEqual(created.value);
    expect(await store.getTable('nowhere')).toBeUndefined();
    expect((await store.listTables()).map((t) => t.id)).toContain('balamb');
    const twice = await store.createTable({ systemId: 'ffviii', name: 'again', id: 'balamb' });
    expect(twice).toMatchObject({ ok: false, error: { code: 'table/exists' } });
    const bad = await store.createTable({ systemId: '', name: 'x' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'store/bad-id' } });
    const unnamed = await store.createTable({ systemId: 'ffrpg', name: '' });
    expect(unnamed).toMatchObject({ ok: false, error: { code: 'store/bad-name' } });
  });

  it('puts, replaces, reads and removes roster entries', async () => {
    const { tableId } = await newEncounter();
    const hiro = { hp: 31, xp: 120, items: [{ id: 'potion', cracked: false }] };
    expect((await store.putRosterEntry(tableId, 'hiro', hiro)).ok).toBe(true);
    expect((await store.putRosterEntry(tableId, 'kiri', { hp: 20 })).ok).toBe(true);
    expect((await store.putRosterEntry(tableId, 'hiro', { ...hiro, hp: 12 })).ok).toBe(true);
    expect((await store.getRosterEntry(tableId, 'hiro'))?.state).toEqual({ ...hiro, hp: 12 });
    expect((await store.getRoster(tableId)).map((e) => e.characterId)).toEqual(['hiro', 'kiri']);
    expect(await store.removeRosterEntry(tableId, 'kiri')).toBe(true);
    expect(await store.removeRosterEntry(tableId, 'kiri')).toBe(false);
    const orphan = await store.putRosterEntry('no-such-table', 'hiro', {});
    expect(orphan).toMatchObject({ ok: false, error: { code: 'table/not-found' } });
  });

  it('keeps what the GM revealed, tells subscribers as number 0, and exports it', async () => {
    const { tableId, encounterId } = await newEncounter();
    expect((await store.getEncounter(encounterId))?.revealed).toEqual([]);
    const heard: number[] = [];
    const stop = await store.subscribe(encounterId, { appended: (c) => heard.push(c.seq) });
    const set = await store.setRevealed(encounterId, ['heket', 'bomb', 'heket']);
    expect(set).toMatchObject({ ok: true, value: { revealed: ['bomb', 'heket'] } });
    expect(await store.setRevealed(encounterId, [''])).toMatchObject({ ok: false });
    await expect.poll(() => heard).toContain(0);
    stop();
    const exported = await store.exportTable(tableId);
    expect(exported.ok && exported.value.encounters[0]?.revealed).toEqual(['bomb', 'heket']);
  });

  it('writes several roster entries all or none', async () => {
    const { tableId } = await newEncounter();
    const written = await store.putRoster(tableId, [
      { characterId: 'keef', state: { hp: 300 } },
      { characterId: '@party', state: null },
    ]);
    expect(written.ok && written.value.map((r) => r.characterId)).toEqual(['@party', 'keef']);
    const bad = await store.putRoster(tableId, [
      { characterId: 'keef', state: { hp: 1 } },
      { characterId: '', state: 1 },
    ]);
    expect(bad.ok).toBe(false);
    expect((await store.getRosterEntry(tableId, 'keef'))?.state).toEqual({ hp: 300 });
    expect(await store.putRoster('no-such-table', [])).toMatchObject({ ok: false });
  });

  it('finishes an encounter and writes its roster once, in one transaction', async () => {
    const { tableId, encounterId } = await newEncounter();
    await store.putRosterEntry(tableId, 'hiro', { xp: 0 });
    const roster: { characterId: string; state: JsonValue }[] = [
      { characterId: 'hiro', state: { xp: 520 } },
      { characterId: '@party', state: { gil: 820 } },
    ];
    const done = await store.finishEncounter(encounterId, roster);
    expect(done).toMatchObject({ ok: true, value: { status: 'finished' } });
    expect((await store.getRoster(tableId)).map((r) => [r.characterId, r.state])).toEqual([
      ['@party', { gil: 820 }],
      ['hiro', { xp: 520 }],
    ]);
    const again = await store.finishEncounter(encounterId, [{ characterId: 'hiro', state: 1 }]);
    expect(again).toMatchObject({ ok: false, error: { code: 'encounter/closed' } });
    expect((await store.getRosterEntry(tableId, 'hiro'))?.state).toEqual({ xp: 520 });
    expect(await store.finishEncounter('nope', [])).toMatchObject({ ok: false });
  });

  it('refuses entries to a finished or abandoned encounter, first or later', async () => {
    for (const status of ['finished', 'abandoned'] as const) {
      const { encounterId } = await newEncounter();
      await store.setEncounterStatus(encounterId, status);
      expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1))).toMatchObject({
        ok: false,
        code: 'closed',
      });
      await store.setEncounterStatus(encounterId, 'active');
      expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1))).toEqual({
        ok: true,
        seq: 1,
      });
      await store.setEncounterStatus(encounterId, status);
      expect(await store.appendEntry(encounterId, 2, 'k2', undoEntry(2))).toMatchObject({
        ok: false,
        code: 'closed',
      });
      expect(await store.lastSeq(encounterId)).toBe(1);
    }
  });

  it('takes an entry through a link only while the link holds, first or later, with held rolls or without', async () => {
    const { tableId, encounterId } = await newEncounter();
    const made = await store.createToken(tableId, { role: 'gm' });
    if (!made.ok) throw new Error(made.error.message);
    const link = made.value.info.tokenId;
    expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1), { link })).toEqual({
      ok: true,
      seq: 1,
    });
    expect(await store.revokeToken(link)).toBe(true);
    const revoked = { ok: false, code: 'revoked', message: 'this link was revoked' };
    expect(await store.appendEntry(encounterId, 2, 'k2', undoEntry(2), { link })).toEqual(revoked);
    expect(
      await store.appendEntry(encounterId, 2, 'k2', undoEntry(2), {
        link,
        held: { restore: [1] },
      }),
    ).toEqual(revoked);
    // Its earlier key is not told to it either: a revoked link hears only that.
    expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1), { link })).toEqual(revoked);
    // A link that never was is as good as revoked.
    expect(
      await store.appendEntry(encounterId, 2, 'k2', undoEntry(2), { link: 'no-such-link' }),
    ).toEqual(revoked);
    expect(await store.lastSeq(encounterId)).toBe(1);
    // Without a link (an import, the CLI) the append goes on as before.
    expect(await store.appendEntry(encounterId, 2, 'k2', undoEntry(2))).toEqual({
      ok: true,
      seq: 2,
    });
    const { encounterId: fresh } = await newEncounter();
    expect(await store.appendEntry(fresh, 1, 'k1', undoEntry(1), { link })).toEqual(revoked);
    expect(await store.lastSeq(fresh)).toBe(0);
  });

  it('creates encounters in a table only, and changes their status', async () => {
    const { tableId, encounterId } = await newEncounter();
    const record = await store.getEncounter(encounterId);
    expect(record).toMatchObject({
      tableId,
      ruleset: 'ffrpg',
      status: 'active',
      initialDice: DICE,
    });
    expect((await store.listEncounters(tableId)).map((e) => e.id)).toEqual([encounterId]);
    const finished = await store.setEncounterStatus(encounterId, 'finished');
    expect(finished).toMatchObject({ ok: true, value: { status: 'finished' } });
    const orphan = await store.createEncounter({
      tableId: 'no-such-table',
      name: 'x',
      ruleset: 'ffrpg',
      setup: {},
      initialDice: DICE,
    });
    expect(orphan).toMatchObject({ ok: false, error: { code: 'table/not-found' } });
  });

  it('appends numbered entries; refuses stale, skipping and malformed ones; knows retries', async () => {
    const { encounterId } = await newEncounter();
    expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1))).toEqual({
      ok: true,
      seq: 1,
    });
    expect(await store.appendEntry(encounterId, 2, 'k2', undoEntry(2))).toEqual({
      ok: true,
      seq: 2,
    });
    // Stale: another submit took 2 first.
    expect(await store.appendEntry(encounterId, 2, 'k3', undoEntry(2))).toEqual({
      ok: false,
      code: 'stale',
      current: 2,
    });
    // Skipping ahead is stale too: the log has no holes.
    expect(await store.appendEntry(encounterId, 5, 'k5', undoEntry(5))).toEqual({
      ok: false,
      code: 'stale',
      current: 2,
    });
    // A retry of k1, whatever number it expects, is the same entry.
    expect(await store.appendEntry(encounterId, 1, 'k1', undoEntry(1))).toEqual({
      ok: true,
      seq: 1,
      duplicate: true,
    });
    expect(await store.appendEntry(encounterId, 3, 'k1', undoEntry(3))).toEqual({
      ok: true,
      seq: 1,
      duplicate: true,
    });
    expect(await store.appendEntry(encounterId, 3, 'k3', undoEntry(4))).toMatchObject({
      ok: false,
      code: 'invalid',
    });
    expect(await store.appendEntry(encounterId, 0, 'k0', undoEntry(0))).toMatchObject({
      ok: false,
      code: 'invalid',
    });
    expect(await store.appendEntry(encounterId, 3, '', undoEntry(3))).toMatchObject({
      ok: false,
      code: 'invalid',
    });
    expect(await store.appendEntry('no-such', 1, 'k', undoEntry(1))).toMatchObject({
      ok: false,
      code: 'not-found',
    });
    expect(await store.appendEntry('no-such', 4, 'k', undoEntry(4))).toMatchObject({
      ok: false,
      code: 'not-found',
    });
    expect(await store.lastSeq(encounterId)).toBe(2);
    const all = await store.entriesSince(encounterId, 0);
    expect(all.map((e) => [e.seq, e.idempotencyKey, e.entry])).toEqual([
      [1, 'k1', undoEntry(1)],
      [2, 'k2', undoEntry(2)],
    ]);
    expect((await store.entriesSince(encounterId, 1)).map((e) => e.seq)).toEqual([2]);
    expect(await store.entriesSince(encounterId, 2)).toEqual([]);
  });

  it('stores the wind cave as it is played, and the engine rebuilds the same encounter', async () => {
    const path = fileURLToPath(new URL('../../examples/ffrpg-wind-cave.yaml', import.meta.url));
    const read = readEncounterFile(path, SYSTEMS);
    if (!read.ok) throw new Error(JSON.stringify(read.errors));
    const { system, setup, name } = read.encounter;
    const created = Encounter.create(system.ruleset, setup, 'wind-cave-seed');
    if (!created.ok) throw new Error(created.error.message);
    const live = created.value;
    const table = await store.createTable({ systemId: system.ruleset.id, name });
    if (!table.ok) throw new Error(table.error.message);
    const stored = await store.createEncounter({
      tableId: table.value.id,
      name,
      ruleset: system.ruleset.id,
      setup: live.setup,
      initialDice: live.save().initialDice,
    });
    if (!stored.ok) throw new Error(stored.error.message);
    const id = stored.value.id;
    // Appends what the engine logged after each step, as the server will.
    let appended = 0;
    const appendNew = async () => {
      for (const entry of live.log.slice(appended)) {
        const result = await store.appendEntry(id, entry.seq, `key-${entry.seq}`, entry);
        expect(result).toEqual({ ok: true, seq: entry.seq });
        appended++;
      }
    };
    for (let i = 0; i < 6 && !live.outcome().over; i++) {
      const submitted = live.submit(live.legalActions()[0]!.command);
      expect(submitted.ok).toBe(true);
      await appendNew();
    }
    expect(live.undo(2).ok).toBe(true);
    await appendNew();
    expect(live.redo(1).ok).toBe(true);
    await appendNew();
    expect(appended).toBeGreaterThanOrEqual(8);

    const loaded = await store.loadEncounter(id);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.lastSeq).toBe(appended);
    expect(loaded.value.saved).toEqual(live.save());
    const rebuilt = loadEncounter(loaded.value.saved, RULESETS);
    if (!rebuilt.ok) throw new Error(rebuilt.error.message);
    expect(rebuilt.value.state).toEqual(live.state);
    expect(rebuilt.value.diceState).toEqual(live.diceState);
    expect(rebuilt.value.log).toEqual(live.log);
    // And it continues the same dice: the next command gives the same events on both.
    const next = live.legalActions()[0]!.command;
    expect(rebuilt.value.submit(next)).toEqual(live.submit(next));
    expect(await store.loadEncounter('no-such')).toMatchObject({
      ok: false,
      error: { code: 'encounter/not-found' },
    });
  });

  it('creates tokens shown once, checks them by role, and revokes them', async () => {
    const { tableId } = await newEncounter();
    const gm = await store.createToken(tableId, { role: 'gm' });
    const player = await store.createToken(tableId, { role: 'player', characterId: 'hiro' });
    const spectator = await store.createToken(tableId, { role: 'spectator' });
    if (!gm.ok || !player.ok || !spectator.ok) throw new Error('token not created');
    expect(gm.value.token.length).toBeGreaterThanOrEqual(43);
    expect(await store.checkToken(gm.value.token)).toEqual({
      ok: true,
      value: { role: 'gm', tokenId: gm.value.info.tokenId, tableId },
    });
    expect(await store.checkToken(player.value.token)).toMatchObject({
      ok: true,
      value: { role: 'player', characterId: 'hiro', tableId },
    });
    expect(await store.checkToken(spectator.value.token)).toMatchObject({
      value: { role: 'spectator' },
    });
    // The secret is never stored: the listing has ids only, and no row holds the token.
    const listed = await store.listTokens(tableId);
    expect(listed).toHaveLength(3);
    expect(JSON.stringify(listed)).not.toContain(gm.value.token.split('.')[1]);
    const exported = await store.exportTable(tableId);
    expect(JSON.stringify(exported)).not.toContain(gm.value.token.split('.')[1]);

    const [id, secret] = gm.value.token.split('.') as [string, string];
    const flipped = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await store.checkToken(flipped)).toMatchObject({
      ok: false,
      error: { code: 'token/unknown' },
    });
    expect(await store.checkToken('nonsense')).toMatchObject({
      ok: false,
      error: { code: 'token/malformed' },
    });
    expect(await store.checkToken(`AAAAAAAAAAAA.${secret}`)).toMatchObject({
      ok: false,
      error: { code: 'token/unknown' },
    });
    expect(await store.revokeToken(player.value.info.tokenId)).toBe(true);
    expect(await store.revokeToken(player.value.info.tokenId)).toBe(false);
    expect(await store.checkToken(player.value.token)).toMatchObject({
      ok: false,
      error: { code: 'token/revoked' },
    });
    expect(await store.createToken('no-such', { role: 'gm' })).toMatchObject({ ok: false });
    expect(await store.createToken(tableId, { role: 'player', characterId: '' })).toMatchObject({
      ok: false,
    });
  });

  it('exports a table and imports it into another store exactly', async () => {
    const { tableId, encounterId } = await newEncounter();
    await store.putRosterEntry(tableId, 'hiro', { hp: 3, gil: 250, note: 'ünïcode ✓' });
    for (let seq = 1; seq <= 3; seq++)
      await store.appendEntry(encounterId, seq, `k${seq}`, undoEntry(seq));
    await store.createToken(tableId, { role: 'gm' });
    const revoked = await store.createToken(tableId, { role: 'spectator' });
    if (revoked.ok) await store.revokeToken(revoked.value.info.tokenId);
    const secret = {
      notation: '1d20',
      label: 'Perception',
      secret: true,
      total: 14,
      text: '1d20 [14] = 14',
      afterSeq: 2,
      at: '2026-12-02T00:30:00.000Z',
    };
    expect(await store.addGmRoll(encounterId, secret)).toEqual({ ok: true, value: true });
    expect(await store.addGmRoll('no-such', secret)).toMatchObject({
      ok: false,
      error: { code: 'encounter/not-found' },
    });
    const exported = await store.exportTable(tableId);
    if (!exported.ok) throw new Error(exported.error.message);
    expect(exported.value.encounters[0]!.entries).toHaveLength(3);
    expect(exported.value.encounters[0]!.gmRolls).toEqual([secret]);

    // Into the same store: refused, it is there.
    expect(await store.importTable(exported.value)).toMatchObject({
      ok: false,
      error: { code: 'table/exists' },
    });
    // Into a fresh store of each kind, through JSON text as a file would carry it.
    for (const targetKind of KINDS) {
      const target = await freshLocation(targetKind);
      const other = await open(target.location);
      try {
        const imported = await other.importTable(JSON.parse(JSON.stringify(exported.value)));
        expect(imported.ok).toBe(true);
        expect(await other.exportTable(tableId)).toEqual(exported);
        expect(await other.gmRolls(encounterId)).toEqual([secret]);
        // The imported log goes on from where it was.
        expect(await other.appendEntry(encounterId, 4, 'k4', undoEntry(4))).toEqual({
          ok: true,
          seq: 4,
        });
        expect(await other.appendEntry(encounterId, 4, 'k3', undoEntry(4))).toMatchObject({
          duplicate: true,
          seq: 3,
        });
      } finally {
        await other.close();
        await target.dispose();
      }
    }
    expect(await store.importTable({ format: 'moogle-table' })).toMatchObject({
      ok: false,
      error: { code: 'import/malformed' },
    });
    const holed = structuredClone(exported.value) as unknown as {
      encounters: { entries: unknown[] }[];
    };
    holed.encounters[0]!.entries.splice(1, 1);
    expect(await store.importTable(holed)).toMatchObject({
      ok: false,
      error: { code: 'import/malformed' },
    });
    expect(await store.exportTable('no-such')).toMatchObject({ ok: false });
  });
});

describe('openStore', () => {
  it('refuses locations that are neither a file nor a postgres URL, as error values', async () => {
    expect(await openStore('')).toMatchObject({ ok: false, error: { code: 'store/bad-location' } });
    expect(await openStore('mysql://x')).toMatchObject({
      ok: false,
      error: { code: 'store/bad-location' },
    });
    // A folder that cannot be made in /proc: Node's recursive mkdir never returns there.
    expect(await openStore('/proc/moogle-no-such/deeper/moogle.db')).toMatchObject({
      ok: false,
      error: { code: 'store/cannot-open' },
    });
    // A folder that cannot be made: its parent is a file.
    const dir = mkdtempSync(join(tmpdir(), 'moogle-store-test-'));
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    expect(await openStore(join(notAFolder, 'moogle.db'))).toMatchObject({
      ok: false,
      error: { code: 'store/cannot-open' },
    });
    const refused = await openStore('postgres://postgres:secret@127.0.0.1:1/none');
    expect(refused).toMatchObject({ ok: false, error: { code: 'store/cannot-open' } });
    if (!refused.ok) expect(refused.error.message).not.toContain('secret');
    rmSync(dir, { recursive: true, force: true });
  });
});
