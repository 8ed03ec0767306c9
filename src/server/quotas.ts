import { err, ok, type Result } from '../engine/index.js';
import { type LibraryRecord, type LibraryWrite, STORE_LIMITS, type Store } from '../store/index.js';
import type { ServerLimits } from './limits.js';

/**
 * What one table may store, so that one GM's link cannot fill the server's disk: counts of what
 * a table keeps and the size of its content, far above what a campaign uses (docs/limits.md).
 * Checked before a write, from the database's own counts, so every process on a database sees
 * the same figures; requests racing each other may each pass, so a table can pass a quota by as
 * many writes as it has in flight at once (a few: its links are rate-limited).
 */
export type TableQuotas = Pick<
  ServerLimits,
  | 'encountersPerTable'
  | 'rosterPerTable'
  | 'liveLinksPerTable'
  | 'linksPerTable'
  | 'tableContentBytes'
>;

/** What a request adds to a table: a row of one kind, or (`roster`) roster states changed. */
export type Addition = 'encounter' | 'character' | 'link' | 'roster';

const MIB = 1024 * 1024;

function size(bytes: number): string {
  return bytes >= MIB ? `${+(bytes / MIB).toFixed(1)} MiB` : `${bytes} bytes`;
}

export async function withinQuota(
  store: Store,
  tableId: string,
  adding: Addition,
  quotas: TableQuotas,
): Promise<Result<void>> {
  const usage = await store.tableUsage(tableId);
  if (adding === 'encounter' && usage.encounters >= quotas.encountersPerTable) {
    return err(
      'quota/encounters',
      `a table keeps at most ${quotas.encountersPerTable} encounters; start a new table`,
    );
  }
  if (adding === 'character' && usage.rosterRows >= quotas.rosterPerTable) {
    return err(
      'quota/roster',
      `a table's roster holds at most ${quotas.rosterPerTable - 1} characters`,
    );
  }
  if (adding === 'link') {
    if (usage.liveLinks >= quotas.liveLinksPerTable) {
      return err(
        'quota/live-links',
        `a table has at most ${quotas.liveLinksPerTable} links not revoked; revoke one first`,
      );
    }
    if (usage.links >= quotas.linksPerTable) {
      return err('quota/links', `a table makes at most ${quotas.linksPerTable} links in all`);
    }
    return ok(undefined);
  }
  if (usage.contentBytes >= quotas.tableContentBytes) {
    return err(
      'quota/content',
      `a table stores at most ${size(quotas.tableContentBytes)} of encounter setups and roster states`,
    );
  }
  return ok(undefined);
}

/** What bounds a table's content library. */
export type LibraryQuotas = Pick<ServerLimits, 'libraryEntriesPerTable' | 'libraryBytesPerTable'>;

/**
 * Whether a table's library, with `writes` made, stays within its quotas: counted from the
 * entries the write is checked against, so an import is refused whole, before anything is written.
 */
export function withinLibraryQuota(
  entries: readonly LibraryRecord[],
  writes: readonly LibraryWrite[],
  quotas: LibraryQuotas,
): Result<void> {
  const sizes = new Map(entries.map((e) => [`${e.kind}/${e.id}`, bytesOf(e.body)]));
  for (const write of writes) {
    const bytes = bytesOf(write.body);
    if (bytes > STORE_LIMITS.libraryEntryBytes) {
      return err(
        'quota/library-entry',
        `${write.kind} '${write.id}' is ${bytes} bytes as JSON; an entry is at most ${STORE_LIMITS.libraryEntryBytes} bytes`,
      );
    }
    sizes.set(`${write.kind}/${write.id}`, bytes);
  }
  if (sizes.size > quotas.libraryEntriesPerTable) {
    return err(
      'quota/library',
      `a table's library holds at most ${quotas.libraryEntriesPerTable} entries; this makes ${sizes.size}`,
    );
  }
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (total > quotas.libraryBytesPerTable) {
    return err(
      'quota/library',
      `a table's library holds at most ${quotas.libraryBytesPerTable / 1024 / 1024} MiB; this makes ${(total / 1024 / 1024).toFixed(1)} MiB`,
    );
  }
  return ok(undefined);
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
