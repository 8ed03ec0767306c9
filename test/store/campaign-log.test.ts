import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RosterEntry, RosterRow, Store } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const DICE = { algorithm: 'xoshiro128**', words: [1, 2, 3, 4] } as const;

function rows(roster: readonly RosterEntry[]): RosterRow[] {
  return roster.map((r) => ({ characterId: r.characterId, state: r.state }));
}

/**
 * The campaign log (docs/campaign.md): every roster change between fights written with the
 * roster before and after it in one transaction; the newest entry not undone undone, refused
 * when the roster changed otherwise; undone entries kept and marked; carried by export/import.
 */
describe.each(KINDS)('the campaign log on %s', (kind) => {
  let location: Location;
  let store: Store;
  /** Another store on the same database: another process. */
  let other: Store;

  beforeAll(async () => {
    location = await freshLocation(kind);
    store = await open(location.location);
    other = await open(location.location);
  });
  afterAll(async () => {
    await other?.close();
    await store?.close();
    await location?.dispose();
  });

  async function newTable(): Promise<string> {
    const table = await store.createTable({ systemId: 'shining-force', name: 'Guardiana' });
    if (!table.ok) throw new Error(table.error.message);
    const party = await store.putRosterEntry(table.value.id, '@party', { gold: 100 });
    if (!party.ok) throw new Error(party.error.message);
    return table.value.id;
  }

  async function change(tableId: string, gold: number, extra: RosterRow[] = []) {
    const before = rows(await store.getRoster(tableId));
    return store.changeRoster(
      tableId,
      { kind: 'service', service: { type: 'buy' }, report: [`gold ${gold}`], by: 'gm:t1', before },
      [
        ...before.filter((r) => r.characterId !== '@party'),
        { characterId: '@party', state: { gold } },
        ...extra,
      ],
    );
  }

  it('writes each change with the roster before and after, numbered 1, 2, 3', async () => {
    const tableId = await newTable();
    const first = await change(tableId, 80, [{ characterId: 'max', state: { level: 1 } }]);
    expect(first).toMatchObject({ ok: true, value: { n: 1, kind: 'service', by: 'gm:t1' } });
    const second = await change(tableId, 60);
    expect(second).toMatchObject({ ok: true, value: { n: 2 } });
    if (!first.ok || !second.ok) return;
    expect(first.value.before).toEqual([{ characterId: '@party', state: { gold: 100 } }]);
    expect(first.value.after).toEqual([
      { characterId: '@party', state: { gold: 80 } },
      { characterId: 'max', state: { level: 1 } },
    ]);
    expect(second.value.before).toEqual(first.value.after);
    const log = await other.campaignLog(tableId);
    expect(log.map((e) => [e.n, e.report, e.undoneAt])).toEqual([
      [2, ['gold 60'], null],
      [1, ['gold 80'], null],
    ]);
  });

  it('refuses a change worked out from a roster that is no longer there, and writes nothing', async () => {
    const tableId = await newTable();
    const before = rows(await store.getRoster(tableId));
    expect((await change(tableId, 90)).ok).toBe(true);
    const late = await other.changeRoster(
      tableId,
      { kind: 'service', report: ['late'], by: 'gm:t2', before },
      [{ characterId: '@party', state: { gold: 1 } }],
    );
    expect(late).toMatchObject({ ok: false, error: { code: 'campaign/stale' } });
    expect(rows(await store.getRoster(tableId))).toEqual([
      { characterId: '@party', state: { gold: 90 } },
    ]);
    expect(await store.campaignLog(tableId)).toHaveLength(1);
  });

  it('undoes the newest entry, then the one before, and keeps both listed as undone', async () => {
    const tableId = await newTable();
    await change(tableId, 80, [{ characterId: 'max', state: { level: 1 } }]);
    await change(tableId, 50);
    const undone = await other.undoCampaignEntry(tableId, 'gm:t9');
    expect(undone).toMatchObject({ ok: true, value: { n: 2, undoneBy: 'gm:t9' } });
    expect(rows(await store.getRoster(tableId))).toEqual([
      { characterId: '@party', state: { gold: 80 } },
      { characterId: 'max', state: { level: 1 } },
    ]);
    // Only the newest not undone: asking for another is refused.
    expect(await store.undoCampaignEntry(tableId, 'gm:t9', 2)).toMatchObject({
      ok: false,
      error: { code: 'campaign/not-newest' },
    });
    expect(await store.undoCampaignEntry(tableId, 'gm:t9', 1)).toMatchObject({ ok: true });
    // The character the first entry added is gone with it.
    expect(rows(await store.getRoster(tableId))).toEqual([
      { characterId: '@party', state: { gold: 100 } },
    ]);
    expect(await store.undoCampaignEntry(tableId, 'gm:t9')).toMatchObject({
      ok: false,
      error: { code: 'campaign/nothing-to-undo' },
    });
    const log = await store.campaignLog(tableId);
    expect(log.map((e) => [e.n, e.undoneBy !== null])).toEqual([
      [2, true],
      [1, true],
    ]);
  });

  it('refuses to undo when the roster changed otherwise since, and changes nothing', async () => {
    const tableId = await newTable();
    await change(tableId, 70);
    expect((await store.putRosterEntry(tableId, '@party', { gold: 999 })).ok).toBe(true);
    expect(await store.undoCampaignEntry(tableId, 'gm:t1')).toMatchObject({
      ok: false,
      error: { code: 'campaign/changed' },
    });
    expect((await store.getRosterEntry(tableId, '@party'))?.state).toEqual({ gold: 999 });
    expect((await store.campaignLog(tableId))[0]?.undoneAt).toBeNull();
  });

  it('lets one of two changes from the same roster win, when both race', async () => {
    const tableId = await newTable();
    const before = rows(await store.getRoster(tableId));
    const attempt = (s: Store, gold: number) =>
      s.changeRoster(tableId, { kind: 'service', report: [String(gold)], by: 'gm:t1', before }, [
        { characterId: '@party', state: { gold } },
      ]);
    // One SQLite file is served by one process (`moogle serve` locks it), whose one connection
    // runs transactions in turn; PostgreSQL's writers are separate connections.
    const rival = kind === 'postgres' ? other : store;
    const results = await Promise.all([attempt(store, 10), attempt(rival, 20)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toMatchObject([{ error: { code: 'campaign/stale' } }]);
    expect(await store.campaignLog(tableId)).toHaveLength(1);
  });

  it("writes a fight's rewards with the finish, and undoing them leaves the fight finished", async () => {
    const tableId = await newTable();
    const encounter = await store.createEncounter({
      tableId,
      name: 'Gate',
      ruleset: 'shining-force',
      setup: {},
      initialDice: DICE,
    });
    if (!encounter.ok) throw new Error(encounter.error.message);
    const before = rows(await store.getRoster(tableId));
    const finished = await store.finishEncounter(
      encounter.value.id,
      [{ characterId: '@party', state: { gold: 130 } }],
      { report: ['The Force receives 30 gold'], by: 'gm:t1', before },
    );
    expect(finished).toMatchObject({ ok: true, value: { status: 'finished' } });
    const [entry] = await store.campaignLog(tableId);
    expect(entry).toMatchObject({ n: 1, kind: 'after-battle', encounterId: encounter.value.id });
    expect(await store.undoCampaignEntry(tableId, 'gm:t1')).toMatchObject({ ok: true });
    expect((await store.getRosterEntry(tableId, '@party'))?.state).toEqual({ gold: 100 });
    expect((await store.getEncounter(encounter.value.id))?.status).toBe('finished');
  });

  it('carries the log through export and import, undone marks included', async () => {
    const tableId = await newTable();
    await change(tableId, 80);
    await change(tableId, 40);
    await store.undoCampaignEntry(tableId, 'gm:t1');
    const exported = await store.exportTable(tableId);
    if (!exported.ok) throw new Error(exported.error.message);
    expect(exported.value.campaignLog).toHaveLength(2);
    expect(await store.deleteTable(tableId)).toBe(true);
    expect(await store.campaignLog(tableId)).toEqual([]);
    expect(await other.importTable(JSON.parse(JSON.stringify(exported.value)))).toMatchObject({
      ok: true,
    });
    expect(await store.campaignLog(tableId)).toEqual(
      [...(exported.value.campaignLog ?? [])].reverse(),
    );
    // The imported log undoes like the original would have.
    expect(await store.undoCampaignEntry(tableId, 'gm:t1', 1)).toMatchObject({ ok: true });
    expect((await store.getRosterEntry(tableId, '@party'))?.state).toEqual({ gold: 100 });
  });
});
