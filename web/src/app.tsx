import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, makeApi } from './api.js';
import { EncounterScreen } from './encounter/screen.js';
import { LibraryPage } from './library/library-page.js';
import { type TableEvent, TableLiveContext, useTableSocket } from './table/table-live.js';
import { TablePage } from './table/table-page.js';
import type { TableInfo } from './types.js';

/** `#/e/<id>`: the encounter open on this screen, so a reload or a shared address keeps it. */
function encounterFromHash(): string | undefined {
  const match = /^#\/e\/([^/]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/** `#/library`: the GM's content library. */
function libraryFromHash(): boolean {
  return location.hash === '#/library';
}

export function App({ tableId }: { tableId: string }) {
  const api = useMemo(() => makeApi(tableId), [tableId]);
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [open, setOpen] = useState(encounterFromHash);
  const [library, setLibrary] = useState(libraryFromHash);

  const reload = useCallback(async () => {
    try {
      const table = await api.get<TableInfo>('/api/table');
      setInfo(table);
      setError(null);
      return table;
    } catch (e) {
      setError(e instanceof Error ? e : new Error(String(e)));
      return null;
    }
  }, [api]);

  useEffect(() => {
    void reload().then((table) => {
      // A player's phone opens the fight going on, without a list to pick from.
      if (table && table.role.role !== 'gm' && encounterFromHash() === undefined) {
        const active = table.encounters.filter((e) => e.status === 'active');
        if (active.length === 1) location.hash = `#/e/${active[0]!.id}`;
      }
    });
    const onHash = () => {
      setOpen(encounterFromHash());
      setLibrary(libraryFromHash());
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, [reload]);

  // The table's socket: a player's screen follows the GM into each new fight, and every screen
  // hears at once that a fight ended or the roster changed.
  const table = useTableSocket(api);
  const [revoked, setRevoked] = useState<string | null>(null);
  useEffect(() => table.subscribe((s) => setRevoked(s.fatal)), [table]);
  const role = info?.role.role;
  useEffect(
    () =>
      table.on((event: TableEvent) => {
        if (event.type === 'encounter-started' && role !== undefined && role !== 'gm') {
          location.hash = `#/e/${encodeURIComponent(event.id)}`;
        }
        if (event.type !== 'invites-changed') void reload();
      }),
    [table, role, reload],
  );

  useEffect(() => {
    if (info) document.title = `${info.table.name} · Moogle`;
  }, [info]);

  if (error !== null && info === null) {
    return (
      <main class="page">
        <h1>Moogle</h1>
        <p role="alert" class="refusal">
          {error instanceof ApiError && error.status === 401
            ? 'This browser has no session at this table, or its link was revoked: open your table link again.'
            : `This table does not open: ${error.message}`}
        </p>
      </main>
    );
  }
  if (info === null) {
    return (
      <main class="page" aria-busy="true">
        <p>Opening the table…</p>
      </main>
    );
  }
  const notice = revoked !== null && (
    <p role="alert" class="refusal revoked">
      This link was revoked: the GM can give you a new one.
    </p>
  );
  if (open !== undefined) {
    const record = info.encounters.find((e) => e.id === open);
    return (
      <TableLiveContext.Provider value={table}>
        {notice}
        <EncounterScreen
          key={open}
          api={api}
          info={info}
          encounterId={open}
          name={record?.name ?? 'Encounter'}
          onLeave={() => {
            location.hash = '';
            void reload();
          }}
        />
      </TableLiveContext.Provider>
    );
  }
  if (library && info.role.role === 'gm') return <LibraryPage api={api} info={info} />;
  return (
    <TableLiveContext.Provider value={table}>
      {notice}
      <TablePage api={api} info={info} reload={reload} />
    </TableLiveContext.Provider>
  );
}
