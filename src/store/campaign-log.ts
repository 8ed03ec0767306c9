import type { Kysely, Transaction } from 'kysely';
import { err, ok, type Result } from '../engine/index.js';
import type { StoreDatabase } from './schema.js';
import type {
  CampaignChange,
  CampaignLogKind,
  CampaignLogRecord,
  JsonValue,
  RosterRow,
} from './types.js';

/**
 * The campaign log (docs/campaign.md, "The campaign log"): every roster change between fights
 * is written with an entry holding the whole roster before and after it, in the transaction
 * that changes the roster. Undo needs no rule: it puts `before` back while the roster is still
 * `after`. Rosters are compared as the text the database holds, so a change made by anything
 * else (a CLI, another process) is seen and never silently overwritten.
 */

type Db = Kysely<StoreDatabase>;
type Tx = Transaction<StoreDatabase>;
type LogRow = StoreDatabase['moogle_campaign_log'];

/** Bounds on the log: entries one table keeps, and entries one read returns. */
export const CAMPAIGN_LOG_LIMITS = { entries: 10_000, shown: 200 } as const;

const KINDS: readonly CampaignLogKind[] = ['recruit', 'service', 'after-battle'];

/** A roster as one text, from rows as the database holds them (state as JSON text). */
function snapshotText(rows: readonly { character_id: string; state: string }[]): string {
  const sorted = [...rows].sort((a, b) =>
    a.character_id < b.character_id ? -1 : a.character_id > b.character_id ? 1 : 0,
  );
  return `[${sorted
    .map((r) => `{"characterId":${JSON.stringify(r.character_id)},"state":${r.state}}`)
    .join(',')}]`;
}

/** The same text for rows given as values: what a caller read with `getRoster`. */
export function rowsSnapshot(rows: readonly RosterRow[]): string {
  return snapshotText(
    rows.map((r) => ({ character_id: r.characterId, state: JSON.stringify(r.state) })),
  );
}

async function currentSnapshot(tx: Tx, tableId: string): Promise<string> {
  const rows = await tx
    .selectFrom('moogle_roster')
    .select(['character_id', 'state'])
    .where('table_id', '=', tableId)
    .execute();
  return snapshotText(rows);
}

/**
 * One change or undo of a table's roster at a time, by writing to its table row first: in
 * PostgreSQL the row stays locked until the transaction ends (read committed would let two
 * check the same roster and both write); in SQLite the write lock is taken before anything is
 * read, so a second writer waits its turn instead of failing to upgrade a read.
 */
async function lockTable(tx: Tx, tableId: string): Promise<boolean> {
  const updated = await tx
    .updateTable('moogle_tables')
    .set((eb) => ({ id: eb.ref('id') }))
    .where('id', '=', tableId)
    .executeTakeFirst();
  return (updated.numUpdatedRows ?? 0n) > 0n;
}

/** Makes the roster exactly `rows`: rows not in it removed, the rest created or replaced. */
async function replaceRoster(
  tx: Tx,
  tableId: string,
  rows: readonly { character_id: string; state: string }[],
  at: string,
): Promise<void> {
  const keep = rows.map((r) => r.character_id);
  let removal = tx.deleteFrom('moogle_roster').where('table_id', '=', tableId);
  if (keep.length > 0) removal = removal.where('character_id', 'not in', keep);
  await removal.execute();
  for (const row of rows) {
    await tx
      .insertInto('moogle_roster')
      .values({ table_id: tableId, ...row, updated_at: at })
      .onConflict((conflict) =>
        conflict
          .columns(['table_id', 'character_id'])
          .doUpdateSet({ state: row.state, updated_at: at }),
      )
      .execute();
  }
}

function stale(): Result<never> {
  return err(
    'campaign/stale',
    'the roster changed while this was worked out (another change came first): look again and retry',
  );
}

/**
 * Inside the caller's transaction, before it writes: the table locked, the roster still what
 * the change was worked out from, and room in the log. The next entry's number, or why not.
 */
export async function checkChange(
  tx: Tx,
  tableId: string,
  before: readonly RosterRow[],
): Promise<Result<number>> {
  if (!(await lockTable(tx, tableId))) return err('table/not-found', `no table ${tableId}`);
  if ((await currentSnapshot(tx, tableId)) !== rowsSnapshot(before)) return stale();
  const last = await tx
    .selectFrom('moogle_campaign_log')
    .select((eb) => eb.fn.max('n').as('n'))
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  const n = Number(last?.n ?? 0) + 1;
  if (n > CAMPAIGN_LOG_LIMITS.entries) {
    return err(
      'campaign/log-full',
      `a table keeps at most ${CAMPAIGN_LOG_LIMITS.entries} campaign log entries: export it and start a new table`,
    );
  }
  return ok(n);
}

/** Writes entry `n` with the roster as it now stands in the transaction as its `after`. */
export async function writeEntry(
  tx: Tx,
  tableId: string,
  n: number,
  kind: CampaignLogKind,
  change: Omit<CampaignChange, 'kind'>,
  at: string,
): Promise<CampaignLogRecord> {
  const row: LogRow = {
    table_id: tableId,
    n,
    kind,
    encounter_id: change.encounterId ?? null,
    service: change.service === undefined ? null : JSON.stringify(change.service),
    report: JSON.stringify(change.report),
    roster_before: rowsSnapshot(change.before),
    roster_after: await currentSnapshot(tx, tableId),
    done_by: change.by,
    done_at: at,
    undone_by: null,
    undone_at: null,
  };
  await tx.insertInto('moogle_campaign_log').values(row).execute();
  return logRecord(row);
}

export async function changeRoster(
  db: Db,
  tableId: string,
  change: CampaignChange,
  roster: readonly { character_id: string; state: string }[],
  at: string,
): Promise<Result<CampaignLogRecord>> {
  return db.transaction().execute(async (tx) => {
    const n = await checkChange(tx, tableId, change.before);
    if (!n.ok) return n;
    await replaceRoster(tx, tableId, roster, at);
    return ok(await writeEntry(tx, tableId, n.value, change.kind, change, at));
  });
}

export async function campaignLog(
  db: Db | Tx,
  tableId: string,
  limit: number = CAMPAIGN_LOG_LIMITS.shown,
): Promise<CampaignLogRecord[]> {
  const rows = await db
    .selectFrom('moogle_campaign_log')
    .selectAll()
    .where('table_id', '=', tableId)
    .orderBy('n', 'desc')
    .limit(Math.max(0, Math.min(limit, CAMPAIGN_LOG_LIMITS.entries)))
    .execute();
  return rows.map(logRecord);
}

export async function undoEntry(
  db: Db,
  tableId: string,
  by: string,
  expected: number | undefined,
  at: string,
): Promise<Result<CampaignLogRecord>> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockTable(tx, tableId))) return err('table/not-found', `no table ${tableId}`);
    const newest = await tx
      .selectFrom('moogle_campaign_log')
      .selectAll()
      .where('table_id', '=', tableId)
      .where('undone_at', 'is', null)
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (newest === undefined) {
      return err('campaign/nothing-to-undo', 'every entry of the campaign log is undone');
    }
    if (expected !== undefined && newest.n !== expected) {
      return err(
        'campaign/not-newest',
        `entry ${expected} is not the newest not undone (that is ${newest.n}): only the newest can be undone`,
      );
    }
    if ((await currentSnapshot(tx, tableId)) !== newest.roster_after) {
      return err(
        'campaign/changed',
        `the roster changed since entry ${newest.n} otherwise than by the campaign log: undoing it would lose that change`,
      );
    }
    const before = JSON.parse(newest.roster_before) as { characterId: string; state: JsonValue }[];
    await replaceRoster(
      tx,
      tableId,
      before.map((r) => ({ character_id: r.characterId, state: JSON.stringify(r.state) })),
      at,
    );
    await tx
      .updateTable('moogle_campaign_log')
      .set({ undone_by: by, undone_at: at })
      .where('table_id', '=', tableId)
      .where('n', '=', newest.n)
      .execute();
    return ok(logRecord({ ...newest, undone_by: by, undone_at: at }));
  });
}

/** Rows for an import: the log as exported, oldest first. */
export function importRows(tableId: string, log: readonly CampaignLogRecord[]): LogRow[] {
  return log.map((entry) => ({
    table_id: tableId,
    n: entry.n,
    kind: entry.kind,
    encounter_id: entry.encounterId,
    service: entry.service === null ? null : JSON.stringify(entry.service),
    report: JSON.stringify(entry.report),
    roster_before: rowsSnapshot(entry.before),
    roster_after: rowsSnapshot(entry.after),
    done_by: entry.by,
    done_at: entry.at,
    undone_by: entry.undoneBy,
    undone_at: entry.undoneAt,
  }));
}

export function logRecord(row: LogRow): CampaignLogRecord {
  return {
    n: row.n,
    kind: KINDS.includes(row.kind as CampaignLogKind) ? (row.kind as CampaignLogKind) : 'service',
    encounterId: row.encounter_id,
    service: row.service === null ? null : (JSON.parse(row.service) as JsonValue),
    report: JSON.parse(row.report) as string[],
    before: JSON.parse(row.roster_before) as RosterRow[],
    after: JSON.parse(row.roster_after) as RosterRow[],
    by: row.done_by,
    at: row.done_at,
    undoneBy: row.undone_by,
    undoneAt: row.undone_at,
  };
}
