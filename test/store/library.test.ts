import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableLibrary } from '../../src/server/library/library.js';
import { importTable } from '../../src/server/lobby/operations.js';
import { createTable } from '../../src/server/tables.js';
import { STORE_LIMITS, type Store, type TableExport } from '../../src/store/index.js';
import { freshLocation, KINDS, type Location, open, stopFallbackPostgres } from './fixtures.js';

afterAll(stopFallbackPostgres);

const dagger = (sides: number) => ({
  kind: 'ffrpg/weapon',
  id: 'dagger',
  body: {
    format: 1,
    kind: 'ffrpg/weapon',
    id: 'dagger',
    name: 'Dagger',
    damage: `STR + d${sides}`,
    skill: 'Swords',
    damageType: 'physical',
  },
});

describe.each(KINDS)("a table's content library on %s", (kind) => {
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

  async function bareTable(): Promise<string> {
    const table = await store.createTable({ systemId: 'ffrpg', name: 'Library' });
    if (!table.ok) throw new Error(table.error.message);
    return table.value.id;
  }

  it('is seeded once: a second seeding (another process, an import) finds it seeded', async () => {
    const id = await bareTable();
    expect(await store.getLibrary(id)).toEqual({ seeded: false, entries: [] });
    expect(await store.seedLibrary(id, [dagger(4)])).toEqual({ ok: true, value: true });
    expect(await store.seedLibrary(id, [dagger(9)])).toEqual({ ok: true, value: false });
    const listing = await store.getLibrary(id);
    expect(listing?.seeded).toBe(true);
    expect(listing?.entries.map((e) => [e.kind, e.id, e.version])).toEqual([
      ['ffrpg/weapon', 'dagger', 1],
    ]);
    expect(listing?.entries[0]?.body).toEqual(dagger(4).body);
    expect(await store.seedLibrary('no-such-table', [])).toMatchObject({
      ok: false,
      error: { code: 'table/not-found' },
    });
  });

  it('counts versions up with every change, a deletion included, and keeps an unchanged body at its version', async () => {
    const id = await bareTable();
    const first = await store.writeLibrary(id, [dagger(4)]);
    expect(first.ok && first.value[0]?.version).toBe(1);
    const same = await store.writeLibrary(id, [dagger(4)]);
    expect(same.ok && same.value[0]?.version).toBe(1);
    const changed = await store.writeLibrary(id, [{ ...dagger(5), expectedVersion: 1 }]);
    expect(changed.ok && changed.value[0]?.version).toBe(2);
    const stale = await store.writeLibrary(id, [{ ...dagger(6), expectedVersion: 1 }]);
    expect(stale).toMatchObject({ ok: false, error: { code: 'library/conflict' } });
    expect((await store.getLibraryEntry(id, 'ffrpg/weapon', 'dagger'))?.body).toEqual(
      dagger(5).body,
    );
    expect(await store.writeLibrary(id, [], [{ kind: 'ffrpg/weapon', id: 'dagger' }])).toEqual({
      ok: true,
      value: [],
    });
    expect(await store.getLibraryEntry(id, 'ffrpg/weapon', 'dagger')).toBeUndefined();
    expect((await store.getLibrary(id))?.entries).toEqual([]);
    // Back again: version 4 (1, 2, deleted as 3), so no reader takes it for the old one.
    const back = await store.writeLibrary(id, [{ ...dagger(7), expectedVersion: 0 }]);
    expect(back.ok && back.value[0]?.version).toBe(4);
    const gone = await store.writeLibrary(id, [], [{ kind: 'ffrpg/weapon', id: 'nothing' }]);
    expect(gone).toMatchObject({ ok: false, error: { code: 'library/not-found' } });
  });

  it('writes all or nothing: a conflict on the last entry leaves the first unwritten', async () => {
    const id = await bareTable();
    await store.writeLibrary(id, [dagger(4)]);
    const rod = {
      kind: 'ffrpg/weapon',
      id: 'rod',
      body: { format: 1, kind: 'ffrpg/weapon', id: 'rod', name: 'Rod' },
    };
    const refused = await store.writeLibrary(id, [rod, { ...dagger(8), expectedVersion: 5 }]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'library/conflict' } });
    expect(await store.getLibraryEntry(id, 'ffrpg/weapon', 'rod')).toBeUndefined();
    const deleting = await store.writeLibrary(
      id,
      [rod],
      [{ kind: 'ffrpg/weapon', id: 'dagger', expectedVersion: 9 }],
    );
    expect(deleting.ok).toBe(false);
    expect(await store.getLibraryEntry(id, 'ffrpg/weapon', 'rod')).toBeUndefined();
    expect((await store.getLibraryEntry(id, 'ffrpg/weapon', 'dagger'))?.version).toBe(1);
    expect(await store.writeLibrary(id, [rod, rod])).toMatchObject({
      ok: false,
      error: { code: 'library/duplicate' },
    });
  });

  it('lets one of two writers racing from the same version win, and refuses the other', async () => {
    const id = await bareTable();
    await store.writeLibrary(id, [dagger(4)]);
    for (let round = 0; round < 5; round++) {
      const version = (await store.getLibraryEntry(id, 'ffrpg/weapon', 'dagger'))!.version;
      const raced = await Promise.all(
        [6, 8, 10].map((sides) =>
          store.writeLibrary(id, [{ ...dagger(sides + round * 10), expectedVersion: version }]),
        ),
      );
      expect(raced.filter((r) => r.ok)).toHaveLength(1);
      for (const lost of raced.filter((r) => !r.ok)) {
        expect(lost).toMatchObject({ ok: false, error: { code: 'library/conflict' } });
      }
      expect((await store.getLibraryEntry(id, 'ffrpg/weapon', 'dagger'))!.version).toBe(
        version + 1,
      );
    }
    const created = await Promise.all(
      [4, 6].map((sides) =>
        store.writeLibrary(id, [
          {
            ...dagger(sides),
            id: 'knife',
            body: { ...dagger(sides).body, id: 'knife' },
            expectedVersion: 0,
          },
        ]),
      ),
    );
    expect(created.filter((r) => r.ok)).toHaveLength(1);
  });

  it('bounds an entry, and counts the library in the table usage', async () => {
    const id = await bareTable();
    const huge = {
      kind: 'ffrpg/weapon',
      id: 'huge',
      body: { name: 'x'.repeat(STORE_LIMITS.libraryEntryBytes) },
    };
    expect(await store.writeLibrary(id, [huge])).toMatchObject({
      ok: false,
      error: { code: 'store/too-large' },
    });
    await store.writeLibrary(id, [dagger(4)]);
    const usage = await store.tableUsage(id);
    expect(usage.libraryEntries).toBe(1);
    expect(usage.libraryBytes).toBe(JSON.stringify(dagger(4).body).length);
  });

  it('a new table starts with a copy of its starter content; a table made before libraries is seeded when first used', async () => {
    const made = await createTable(store, 'ffrpg', 'New');
    if (!made.ok) throw new Error(made.error.message);
    const listing = await store.getLibrary(made.value.table.id);
    expect(listing?.seeded).toBe(true);
    expect(listing?.entries.some((e) => e.kind === 'ffrpg/character' && e.id === 'hiro')).toBe(
      true,
    );

    // What migration 0007 leaves a table made before it: no rows, not seeded.
    const old = await store.createTable({ systemId: 'ffrpg', name: 'Old' });
    if (!old.ok) throw new Error(old.error.message);
    expect((await store.getLibrary(old.value.id))?.seeded).toBe(false);
    const read = await tableLibrary(store, old.value);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.library.get('ffrpg/monster', 'heket')).toBeDefined();
    expect(read.value.entries.map((e) => `${e.kind}/${e.id}`)).toEqual(
      listing?.entries.map((e) => `${e.kind}/${e.id}`),
    );
    // The GM deleting everything is not "never seeded": nothing comes back.
    const all = read.value.entries.map(({ kind, id }) => ({ kind, id }));
    expect((await store.writeLibrary(old.value.id, [], all)).ok).toBe(true);
    const empty = await tableLibrary(store, old.value);
    expect(empty.ok && empty.value.entries).toEqual([]);
  });

  it('exports and imports the library with the table, deletions and versions kept', async () => {
    const id = await bareTable();
    await store.writeLibrary(id, [dagger(4)]);
    await store.writeLibrary(id, [dagger(5)]);
    const rod = {
      kind: 'ffrpg/weapon',
      id: 'rod',
      body: { ...dagger(8).body, id: 'rod', name: 'Rod' },
    };
    await store.writeLibrary(id, [rod]);
    await store.writeLibrary(id, [], [{ kind: 'ffrpg/weapon', id: 'rod' }]);
    const exported = await store.exportTable(id);
    if (!exported.ok) throw new Error(exported.error.message);
    expect(exported.value.library?.entries).toEqual([
      expect.objectContaining({ kind: 'ffrpg/weapon', id: 'dagger', version: 2 }),
      expect.objectContaining({ id: 'rod', version: 2, body: null, deleted: true }),
    ]);
    await store.deleteTable(id);
    expect((await store.tableUsage(id)).libraryEntries).toBe(0);
    const imported = await importTable(store, exported.value);
    expect(imported.ok, JSON.stringify(imported)).toBe(true);
    expect(await store.exportTable(id)).toEqual(exported);
    const back = await store.writeLibrary(id, [rod]);
    expect(back.ok && back.value[0]?.version).toBe(3);

    // An export from before libraries: imported unseeded, seeded when used.
    await store.deleteTable(id);
    const { library: _, ...older } = exported.value;
    expect((await store.importTable(older as TableExport)).ok).toBe(true);
    expect((await store.getLibrary(id))?.seeded).toBe(false);
  });

  it('refuses a table import whose library holds an entry the rules would refuse, naming it', async () => {
    const id = await bareTable();
    await store.writeLibrary(id, [dagger(4)]);
    const exported = await store.exportTable(id);
    if (!exported.ok) throw new Error(exported.error.message);
    await store.deleteTable(id);
    const bad = {
      ...exported.value,
      library: {
        entries: [
          {
            ...exported.value.library!.entries[0]!,
            body: { ...dagger(4).body, damage: 'lots' },
          },
        ],
      },
    };
    const refused = await importTable(store, bad);
    expect(refused).toMatchObject({ ok: false, error: { code: 'import/malformed' } });
    expect(!refused.ok && refused.error.message).toContain('weapons/dagger.json');
    expect(!refused.ok && refused.error.message).toContain('damage');
    expect(await store.getTable(id)).toBeUndefined();
  });
});
