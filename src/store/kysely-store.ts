import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely, sql, type Transaction } from 'kysely';
import type { SeededDiceState } from '../dice/index.js';
import {
  effectiveHistory,
  err,
  type LogEntry,
  ok,
  type Result,
  SAVE_FORMAT,
  SAVE_VERSION,
} from '../engine/index.js';
import * as campaign from './campaign-log.js';
import type { ChangeFeed } from './changes.js';
import { parseTableExport } from './export-format.js';
import { PRESENCE_CHANNEL } from './migrations.js';
import type { StoreDatabase } from './schema.js';
import * as sessions from './sessions.js';
import { newToken, secretMatches, splitToken } from './tokens.js';
import type {
  AppendOptions,
  AppendResult,
  CampaignChange,
  CampaignLogRecord,
  ChangeListener,
  CreatedSession,
  CreatedToken,
  EncounterRecord,
  EncounterStatus,
  GmRollRecord,
  HeldRollMoves,
  HeldRollRecord,
  JsonValue,
  LibraryListing,
  LibraryRecord,
  LibraryWrite,
  LoadedEncounter,
  NewEncounter,
  NewTable,
  PresenceNotice,
  RosterEntry,
  RosterRow,
  SessionBounds,
  Store,
  StoredEntry,
  StoreKind,
  TableExport,
  TableRecord,
  TableUsage,
  TokenGrant,
  TokenInfo,
  TokenRole,
  Unsubscribe,
} from './types.js';

/** Bounds on what a caller may store, so one bad request cannot fill the disk. */
export const STORE_LIMITS = {
  idBytes: 200,
  nameLength: 200,
  idempotencyKeyLength: 200,
  /** One log entry: a command with its events and rolls is a few KiB; a whole save is 32 MiB. */
  entryBytes: 1024 * 1024,
  rosterStateBytes: 1024 * 1024,
  setupBytes: 8 * 1024 * 1024,
  /** Rows one `entriesSince` returns at most. */
  pageRows: 10_000,
  /** Combatants one encounter may have revealed. */
  revealed: 1000,
  /** GM rolls kept with one encounter. */
  gmRolls: 10_000,
  /** GM rolls one `gmRolls` returns at most. */
  gmRollsShown: 200,
  /** Rolls held for one encounter: one per purpose, a party's worth in play. */
  heldRolls: 1000,
  /** One entry of a table's content library, as JSON: a content file is a few KiB. */
  libraryEntryBytes: 256 * 1024,
  /** Entries one library write may carry (an import of a content pack). */
  libraryWrite: 5000,
} as const;

const STATUSES: readonly EncounterStatus[] = ['active', 'finished', 'abandoned'];

type Db = Kysely<StoreDatabase>;
type TableRow = StoreDatabase['moogle_tables'];
type EncounterRow = StoreDatabase['moogle_encounters'];
type TokenRow = StoreDatabase['moogle_tokens'];
type EntryRow = StoreDatabase['moogle_entries'];
/** An entry's row, and the link it comes through (checked by the insert, not stored). */
type EntryInsert = EntryRow & { readonly link: string | undefined };

/** The one implementation of `Store`: Kysely hides the dialect, so both backends run this code. */
export class KyselyStore implements Store {
  constructor(
    readonly kind: StoreKind,
    private readonly db: Db,
    private readonly feed: ChangeFeed,
    /** Lets go of what the store holds besides its connections (`moogle serve`'s file lock). */
    private readonly release: () => void = () => {},
  ) {}

  async createTable(table: NewTable): Promise<Result<TableRecord>> {
    const invalid =
      badId('system id', table.systemId) ??
      badName(table.name) ??
      (table.id === undefined ? undefined : badId('table id', table.id));
    if (invalid !== undefined) return invalid;
    const row: TableRow = {
      id: table.id ?? randomUUID(),
      system_id: table.systemId,
      name: table.name,
      created_at: now(),
      library_seeded: 0,
    };
    try {
      await this.db.insertInto('moogle_tables').values(row).execute();
    } catch (error) {
      if (isConstraintViolation(error)) return err('table/exists', `table ${row.id} exists`);
      throw error;
    }
    return ok(tableRecord(row));
  }

  async getTable(id: string): Promise<TableRecord | undefined> {
    const row = await this.db
      .selectFrom('moogle_tables')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : tableRecord(row);
  }

  async deleteTable(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      // Row by row, children first: no reliance on each dialect's cascading.
      const encounters = tx.selectFrom('moogle_encounters').select('id').where('table_id', '=', id);
      await tx.deleteFrom('moogle_entries').where('encounter_id', 'in', encounters).execute();
      await tx.deleteFrom('moogle_gm_rolls').where('encounter_id', 'in', encounters).execute();
      await tx.deleteFrom('moogle_held_rolls').where('encounter_id', 'in', encounters).execute();
      await tx.deleteFrom('moogle_spent_rolls').where('encounter_id', 'in', encounters).execute();
      await tx.deleteFrom('moogle_encounters').where('table_id', '=', id).execute();
      await tx.deleteFrom('moogle_roster').where('table_id', '=', id).execute();
      await tx.deleteFrom('moogle_campaign_log').where('table_id', '=', id).execute();
      const links = tx.selectFrom('moogle_tokens').select('token_id').where('table_id', '=', id);
      const linkSessions = tx
        .selectFrom('moogle_sessions')
        .select('hash')
        .where('token_id', 'in', links);
      await tx.deleteFrom('moogle_tickets').where('session_hash', 'in', linkSessions).execute();
      await tx.deleteFrom('moogle_sessions').where('token_id', 'in', links).execute();
      await tx.deleteFrom('moogle_tokens').where('table_id', '=', id).execute();
      await tx.deleteFrom('moogle_library').where('table_id', '=', id).execute();
      const deleted = await tx.deleteFrom('moogle_tables').where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    });
  }

  async ownerHash(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('moogle_owner')
      .select('hash')
      .where('id', '=', 'owner')
      .executeTakeFirst();
    return row?.hash;
  }

  async setOwnerHash(hash: string, replace: boolean): Promise<boolean> {
    const written = await this.db
      .insertInto('moogle_owner')
      .values({ id: 'owner', hash, created_at: now() })
      .onConflict((c) =>
        replace
          ? c.column('id').doUpdateSet({ hash, created_at: now() })
          : c.column('id').doNothing(),
      )
      .executeTakeFirst();
    return (written.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async listTables(): Promise<readonly TableRecord[]> {
    const rows = await this.db
      .selectFrom('moogle_tables')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(tableRecord);
  }

  async tableUsage(tableId: string): Promise<TableUsage> {
    // octet_length reads a stored value's size, not the value (SQLite 3.43+, PostgreSQL's TOAST
    // header), so a table near its quota costs no more to measure than an empty one.
    const [encounters, roster, links, library] = await Promise.all([
      this.db
        .selectFrom('moogle_encounters')
        .select([
          sql<number | string>`count(*)`.as('n'),
          sql<number | string | null>`sum(octet_length(setup))`.as('bytes'),
        ])
        .where('table_id', '=', tableId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('moogle_roster')
        .select([
          sql<number | string>`count(*)`.as('n'),
          sql<number | string | null>`sum(octet_length(state))`.as('bytes'),
        ])
        .where('table_id', '=', tableId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('moogle_tokens')
        .select([
          sql<number | string>`count(*)`.as('n'),
          sql<number | string>`count(revoked_at)`.as('revoked'),
        ])
        .where('table_id', '=', tableId)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('moogle_library')
        .select([
          sql<number | string>`count(*)`.as('n'),
          sql<number | string | null>`sum(octet_length(body))`.as('bytes'),
        ])
        .where('table_id', '=', tableId)
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow(),
    ]);
    // PostgreSQL's count and sum are bigint, which pg hands back as text.
    return {
      encounters: Number(encounters.n),
      rosterRows: Number(roster.n),
      liveLinks: Number(links.n) - Number(links.revoked),
      links: Number(links.n),
      contentBytes: Number(encounters.bytes ?? 0) + Number(roster.bytes ?? 0),
      libraryEntries: Number(library.n),
      libraryBytes: Number(library.bytes ?? 0),
    };
  }

  async getRoster(tableId: string): Promise<readonly RosterEntry[]> {
    const rows = await this.db
      .selectFrom('moogle_roster')
      .selectAll()
      .where('table_id', '=', tableId)
      .orderBy('character_id')
      .execute();
    return rows.map(rosterEntry);
  }

  async getRosterEntry(tableId: string, characterId: string): Promise<RosterEntry | undefined> {
    const row = await this.db
      .selectFrom('moogle_roster')
      .selectAll()
      .where('table_id', '=', tableId)
      .where('character_id', '=', characterId)
      .executeTakeFirst();
    return row === undefined ? undefined : rosterEntry(row);
  }

  async putRosterEntry(
    tableId: string,
    characterId: string,
    state: JsonValue,
  ): Promise<Result<RosterEntry>> {
    const invalid = badId('character id', characterId);
    if (invalid !== undefined) return invalid;
    const text = jsonText(state, STORE_LIMITS.rosterStateBytes, "the character's state");
    if (!text.ok) return text;
    const row = {
      table_id: tableId,
      character_id: characterId,
      state: text.value,
      updated_at: now(),
    };
    try {
      await this.db
        .insertInto('moogle_roster')
        .values(row)
        .onConflict((conflict) =>
          conflict
            .columns(['table_id', 'character_id'])
            .doUpdateSet({ state: row.state, updated_at: row.updated_at }),
        )
        .execute();
    } catch (error) {
      if (isConstraintViolation(error)) return err('table/not-found', `no table ${tableId}`);
      throw error;
    }
    return ok(rosterEntry(row));
  }

  async finishEncounter(
    encounterId: string,
    roster: readonly { readonly characterId: string; readonly state: JsonValue }[],
    log?: Omit<CampaignChange, 'kind' | 'encounterId'>,
  ): Promise<Result<EncounterRecord>> {
    const rows = rosterRows(roster);
    if (!rows.ok) return rows;
    const finished = await this.db.transaction().execute(async (tx) => {
      const record = await tx
        .selectFrom('moogle_encounters')
        .select(['table_id', 'status'])
        .where('id', '=', encounterId)
        .executeTakeFirst();
      if (record === undefined) return err('encounter/not-found', `no encounter ${encounterId}`);
      // Checked first: a refused log entry leaves the fight active, to be finished again.
      const n =
        log === undefined ? undefined : await campaign.checkChange(tx, record.table_id, log.before);
      if (n !== undefined && !n.ok) return n;
      // The status is the guard: only the update that still finds it active may write, so a
      // fight is applied to the roster once, however many processes or clicks race.
      const updated = await tx
        .updateTable('moogle_encounters')
        .set({ status: 'finished' })
        .where('id', '=', encounterId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if ((updated.numUpdatedRows ?? 0n) === 0n) {
        return err('encounter/closed', `encounter ${encounterId} is ${record.status} already`);
      }
      await upsertRoster(tx, record.table_id, rows.value);
      await dropRollsOfClosed(tx, encounterId);
      if (log !== undefined && n?.ok) {
        await campaign.writeEntry(
          tx,
          record.table_id,
          n.value,
          'after-battle',
          { ...log, encounterId },
          now(),
        );
      }
      return ok(undefined);
    });
    if (!finished.ok) return finished;
    const record = await this.getEncounter(encounterId);
    if (record === undefined) return err('encounter/not-found', `no encounter ${encounterId}`);
    this.feed.published({ encounterId, seq: 0 });
    return ok(record);
  }

  async putRoster(
    tableId: string,
    roster: readonly { readonly characterId: string; readonly state: JsonValue }[],
  ): Promise<Result<readonly RosterEntry[]>> {
    const rows = rosterRows(roster);
    if (!rows.ok) return rows;
    if (!(await this.getTable(tableId))) return err('table/not-found', `no table ${tableId}`);
    await this.db.transaction().execute((tx) => upsertRoster(tx, tableId, rows.value));
    return ok(await this.getRoster(tableId));
  }

  async changeRoster(
    tableId: string,
    change: CampaignChange,
    roster: readonly RosterRow[],
  ): Promise<Result<CampaignLogRecord>> {
    const rows = rosterRows(roster);
    if (!rows.ok) return rows;
    const before = rosterRows(change.before);
    if (!before.ok) return before;
    const report = jsonText(change.report, STORE_LIMITS.rosterStateBytes, 'the report');
    if (!report.ok) return report;
    const service = jsonText(change.service ?? null, STORE_LIMITS.rosterStateBytes, 'the service');
    if (!service.ok) return service;
    return campaign.changeRoster(this.db, tableId, change, rows.value, now());
  }

  campaignLog(tableId: string, limit?: number): Promise<readonly CampaignLogRecord[]> {
    return campaign.campaignLog(this.db, tableId, limit);
  }

  undoCampaignEntry(
    tableId: string,
    by: string,
    expected?: number,
  ): Promise<Result<CampaignLogRecord>> {
    return campaign.undoEntry(this.db, tableId, by, expected, now());
  }

  async removeRosterEntry(tableId: string, characterId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('moogle_roster')
      .where('table_id', '=', tableId)
      .where('character_id', '=', characterId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async createEncounter(encounter: NewEncounter): Promise<Result<EncounterRecord>> {
    const invalid =
      badName(encounter.name) ??
      badId('ruleset', encounter.ruleset) ??
      (encounter.id === undefined ? undefined : badId('encounter id', encounter.id));
    if (invalid !== undefined) return invalid;
    const setup = jsonText(encounter.setup, STORE_LIMITS.setupBytes, 'the setup');
    if (!setup.ok) return setup;
    const row: EncounterRow = {
      id: encounter.id ?? randomUUID(),
      table_id: encounter.tableId,
      name: encounter.name,
      ruleset: encounter.ruleset,
      setup: setup.value,
      initial_dice: JSON.stringify(encounter.initialDice),
      status: 'active',
      created_at: now(),
      revealed: '[]',
    };
    if (!(await this.getTable(encounter.tableId))) {
      return err('table/not-found', `no table ${encounter.tableId}`);
    }
    try {
      await this.db.insertInto('moogle_encounters').values(row).execute();
    } catch (error) {
      if (isConstraintViolation(error)) {
        return err('encounter/exists', `encounter ${row.id} exists`);
      }
      throw error;
    }
    return ok(encounterRecord(row));
  }

  async getEncounter(id: string): Promise<EncounterRecord | undefined> {
    const row = await this.db
      .selectFrom('moogle_encounters')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : encounterRecord(row);
  }

  async listEncounters(tableId: string): Promise<readonly EncounterRecord[]> {
    const rows = await this.db
      .selectFrom('moogle_encounters')
      .selectAll()
      .where('table_id', '=', tableId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(encounterRecord);
  }

  async setEncounterStatus(id: string, status: EncounterStatus): Promise<Result<EncounterRecord>> {
    if (!STATUSES.includes(status)) {
      return err('encounter/bad-status', `status is one of ${STATUSES.join(', ')}`);
    }
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('moogle_encounters').set({ status }).where('id', '=', id).execute();
      if (status !== 'active') await dropRollsOfClosed(tx, id);
    });
    const record = await this.getEncounter(id);
    if (record === undefined) return err('encounter/not-found', `no encounter ${id}`);
    this.feed.published({ encounterId: id, seq: 0 });
    return ok(record);
  }

  async setRevealed(id: string, combatantIds: readonly string[]): Promise<Result<EncounterRecord>> {
    const bad = badId('encounter id', id);
    if (bad) return bad;
    if (
      !Array.isArray(combatantIds) ||
      combatantIds.length > STORE_LIMITS.revealed ||
      combatantIds.some((c) => typeof c !== 'string' || c.length === 0 || c.length > 200)
    ) {
      return err(
        'store/invalid',
        `revealed combatants are at most ${STORE_LIMITS.revealed} ids of 1 to 200 characters`,
      );
    }
    const unique = [...new Set(combatantIds)].sort();
    await this.db
      .updateTable('moogle_encounters')
      .set({ revealed: JSON.stringify(unique) })
      .where('id', '=', id)
      .execute();
    const record = await this.getEncounter(id);
    if (record === undefined) return err('encounter/not-found', `no encounter ${id}`);
    this.feed.published({ encounterId: id, seq: 0 });
    return ok(record);
  }

  async addGmRoll(encounterId: string, roll: GmRollRecord): Promise<Result<true>> {
    const bad = badId('encounter id', encounterId);
    if (bad) return bad;
    const { afterSeq, at, ...rest } = roll;
    const text = JSON.stringify(rest);
    if (text.length > 4096) return err('store/invalid', 'a GM roll is at most 4 KiB');
    // The next number in one statement; two processes taking the same one collide on the key,
    // and the later tries again with the one after.
    for (let attempt = 0; attempt < 5; attempt++) {
      const last = await this.db
        .selectFrom('moogle_gm_rolls')
        .select((eb) => eb.fn.max('n').as('n'))
        .where('encounter_id', '=', encounterId)
        .executeTakeFirst();
      const n = Number(last?.n ?? 0) + 1;
      if (n > STORE_LIMITS.gmRolls)
        return err('quota/gm-rolls', `an encounter keeps at most ${STORE_LIMITS.gmRolls} GM rolls`);
      try {
        await this.db
          .insertInto('moogle_gm_rolls')
          .values({ encounter_id: encounterId, n, after_seq: afterSeq, roll: text, rolled_at: at })
          .execute();
        return ok(true);
      } catch (error) {
        if (!isConstraintViolation(error)) throw error;
        // A missing encounter, or a number another process took first.
        if ((await this.getEncounter(encounterId)) === undefined)
          return err('encounter/not-found', `no encounter ${encounterId}`);
      }
    }
    return err('store/busy', 'too many GM rolls at once; roll again');
  }

  async gmRolls(
    encounterId: string,
    limit: number = STORE_LIMITS.gmRollsShown,
  ): Promise<readonly GmRollRecord[]> {
    const rows = await this.db
      .selectFrom('moogle_gm_rolls')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .orderBy('n', 'desc')
      .limit(Math.max(0, Math.min(Math.floor(limit), STORE_LIMITS.gmRollsShown)))
      .execute();
    return rows.reverse().map(gmRollRecord);
  }

  async holdRoll(encounterId: string, held: HeldRollRecord): Promise<Result<true>> {
    const bad = badId('encounter id', encounterId);
    if (bad) return bad;
    const roll = JSON.stringify(held.roll);
    if (roll.length > 4096 || held.purpose.length > 200 || held.roller.length > 200)
      return err(
        'store/invalid',
        'a held roll is at most 4 KiB, its purpose and roller 200 characters',
      );
    const count = await this.db
      .selectFrom('moogle_held_rolls')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('encounter_id', '=', encounterId)
      .where('purpose', '!=', held.purpose)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= STORE_LIMITS.heldRolls)
      return err('quota/held-rolls', `an encounter holds at most ${STORE_LIMITS.heldRolls} rolls`);
    const row = {
      encounter_id: encounterId,
      purpose: held.purpose,
      roller: held.roller,
      roll,
      after_seq: held.afterSeq,
      held_at: held.at,
    };
    try {
      await this.db
        .insertInto('moogle_held_rolls')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['encounter_id', 'purpose']).doUpdateSet({
            roller: row.roller,
            roll: row.roll,
            after_seq: row.after_seq,
            held_at: row.held_at,
          }),
        )
        .execute();
    } catch (error) {
      if (!isConstraintViolation(error)) throw error;
      return err('encounter/not-found', `no encounter ${encounterId}`);
    }
    this.feed.published({ encounterId, seq: 0 });
    return ok(true);
  }

  async heldRolls(encounterId: string): Promise<readonly HeldRollRecord[]> {
    const rows = await this.db
      .selectFrom('moogle_held_rolls')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .orderBy('purpose')
      .limit(STORE_LIMITS.heldRolls)
      .execute();
    return rows.map((row) => ({
      purpose: row.purpose,
      roller: row.roller,
      roll: JSON.parse(row.roll) as HeldRollRecord['roll'],
      afterSeq: Number(row.after_seq),
      at: row.held_at,
    }));
  }

  async dropHeldRolls(encounterId: string, purposes: readonly string[]): Promise<void> {
    if (purposes.length === 0) return;
    const dropped = await this.db
      .deleteFrom('moogle_held_rolls')
      .where('encounter_id', '=', encounterId)
      .where('purpose', 'in', purposes.slice(0, STORE_LIMITS.heldRolls))
      .executeTakeFirst();
    if (dropped.numDeletedRows > 0n) this.feed.published({ encounterId, seq: 0 });
  }

  async appendEntry(
    encounterId: string,
    expectedSeq: number,
    idempotencyKey: string,
    entry: LogEntry,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const { held, link } = options;
    if (!Number.isSafeInteger(expectedSeq) || expectedSeq < 1) {
      return invalidAppend('the expected number is a whole number, 1 or more');
    }
    if (
      typeof idempotencyKey !== 'string' ||
      idempotencyKey.length === 0 ||
      idempotencyKey.length > STORE_LIMITS.idempotencyKeyLength
    ) {
      return invalidAppend(
        `an idempotency key is 1 to ${STORE_LIMITS.idempotencyKeyLength} characters`,
      );
    }
    if (entry?.seq !== expectedSeq) {
      return invalidAppend(`the entry is numbered ${entry?.seq}, not ${expectedSeq}`);
    }
    const text = jsonText(entry, STORE_LIMITS.entryBytes, 'the entry');
    if (!text.ok) return invalidAppend(text.error.message);
    const row: EntryInsert = {
      encounter_id: encounterId,
      seq: expectedSeq,
      idempotency_key: idempotencyKey,
      entry: text.value,
      appended_at: now(),
      link,
    };
    let inserted = false;
    let moved = false;
    const moves =
      (held?.spend ?? []).some((s) => s.purposes.length > 0) || (held?.restore ?? []).length > 0;
    try {
      // The entry alone is one statement; with held rolls to move, one transaction with it.
      inserted = !moves
        ? await this.insertAfterPrevious(this.db, row)
        : await this.db.transaction().execute(async (tx) => {
            if (!(await this.insertAfterPrevious(tx, row))) return false;
            moved = await moveHeldRolls(tx, encounterId, expectedSeq, held!);
            return true;
          });
    } catch (error) {
      // A racing append took this number or this key first, or the encounter does not exist:
      // the constraints said no, and what follows finds out which.
      if (!isConstraintViolation(error)) throw error;
    }
    if (inserted) {
      if (moved) this.feed.published({ encounterId, seq: 0 });
      this.feed.published({ encounterId, seq: expectedSeq });
      return { ok: true, seq: expectedSeq };
    }
    // Only on the losing path: a retried submit is recognised by its key, whatever number it
    // expected, so the winning path stays one statement. A revoked link hears only that.
    if (link !== undefined && !(await this.tokenLive(link))) {
      return { ok: false, code: 'revoked', message: 'this link was revoked' };
    }
    const earlier = await this.db
      .selectFrom('moogle_entries')
      .select('seq')
      .where('encounter_id', '=', encounterId)
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
    if (earlier !== undefined) return { ok: true, seq: earlier.seq, duplicate: true };
    const encounter = await this.getEncounter(encounterId);
    if (encounter === undefined) {
      return { ok: false, code: 'not-found', message: `no encounter ${encounterId}` };
    }
    if (encounter.status !== 'active') {
      return {
        ok: false,
        code: 'closed',
        message: `encounter ${encounterId} is ${encounter.status}: it takes no more entries`,
      };
    }
    return { ok: false, code: 'stale', current: await this.lastSeq(encounterId) };
  }

  /**
   * One statement, so no transaction is held open across a round trip: the row goes in only
   * when the previous number is there (no gaps); the primary key refuses a number taken. Its
   * SQL is built once per shape (the first entry, any later one) and its values bound per call:
   * kysely building and compiling it anew cost a submit as much as SQLite running it.
   */
  private async insertAfterPrevious(db: Kysely<StoreDatabase>, row: EntryInsert): Promise<boolean> {
    const shape = `${row.seq === 1 ? 'first' : 'later'}${row.link === undefined ? '' : ' through a link'}`;
    let insert = this.inserts.get(shape);
    if (insert === undefined) {
      const sample = {
        ...(row.seq === 1 ? ENTRY_SAMPLE_FIRST : ENTRY_SAMPLE_LATER),
        link: row.link === undefined ? undefined : ENTRY_SAMPLE_LINK,
      };
      insert = boundLater((sample) => this.insertAfterPreviousQuery(sample).compile(), sample);
      this.inserts.set(shape, insert);
    }
    const result = await db.executeQuery(insert(row));
    return (result.numAffectedRows ?? 0n) > 0n;
  }

  /** The append's insert compiled, by shape: the first entry or a later one, through a link or not. */
  private readonly inserts = new Map<string, (row: EntryInsert) => CompiledQuery>();

  private insertAfterPreviousQuery(row: EntryInsert) {
    return this.db
      .insertInto('moogle_entries')
      .columns(['encounter_id', 'seq', 'idempotency_key', 'entry', 'appended_at'])
      .expression(
        this.db
          .selectNoFrom((eb) => [
            eb.cast<string>(eb.val(row.encounter_id), 'text').as('encounter_id'),
            eb.cast<number>(eb.val(row.seq), 'integer').as('seq'),
            eb.cast<string>(eb.val(row.idempotency_key), 'text').as('idempotency_key'),
            eb.cast<string>(eb.val(row.entry), 'text').as('entry'),
            eb.cast<string>(eb.val(row.appended_at), 'text').as('appended_at'),
          ])
          .where((eb) => {
            // A finished or abandoned encounter takes no more entries, whichever process asks.
            const active = eb.exists(
              eb
                .selectFrom('moogle_encounters')
                .select('id')
                .where('id', '=', row.encounter_id)
                .where('status', '=', 'active'),
            );
            const conditions = [active];
            // The link's revocation and this insert are ordered by the database itself.
            if (row.link !== undefined) {
              conditions.push(
                eb.exists(
                  eb
                    .selectFrom('moogle_tokens')
                    .select('token_id')
                    .where('token_id', '=', row.link)
                    .where('revoked_at', 'is', null),
                ),
              );
            }
            if (row.seq === 1) return eb.and(conditions);
            return eb.and([
              ...conditions,
              eb.exists(
                eb
                  .selectFrom('moogle_entries')
                  .select('seq')
                  .where('encounter_id', '=', row.encounter_id)
                  .where('seq', '=', row.seq - 1),
              ),
            ]);
          }),
      );
  }

  async entriesSince(
    encounterId: string,
    afterSeq: number,
    limit: number = STORE_LIMITS.pageRows,
  ): Promise<readonly StoredEntry[]> {
    const rows = await this.db
      .selectFrom('moogle_entries')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('seq', '>', Number.isFinite(afterSeq) ? Math.floor(afterSeq) : 0)
      .orderBy('seq')
      .limit(Math.max(0, Math.min(Math.floor(limit), STORE_LIMITS.pageRows)))
      .execute();
    return rows.map(storedEntry);
  }

  async lastSeq(encounterId: string): Promise<number> {
    const row = await this.db
      .selectFrom('moogle_entries')
      .select('seq')
      .where('encounter_id', '=', encounterId)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.seq ?? 0;
  }

  async loadEncounter(id: string): Promise<Result<LoadedEncounter>> {
    const record = await this.getEncounter(id);
    if (record === undefined) return err('encounter/not-found', `no encounter ${id}`);
    const rows = await this.db
      .selectFrom('moogle_entries')
      .select('entry')
      .where('encounter_id', '=', id)
      .orderBy('seq')
      .execute();
    const log = rows.map((row) => JSON.parse(row.entry) as LogEntry);
    // The save's `dice` is derived, as Encounter.save derives it: where the last command in
    // force left the stream.
    const dice = effectiveHistory(log).applied.at(-1)?.diceAfter ?? record.initialDice;
    return ok({
      record,
      lastSeq: log.length,
      saved: {
        format: SAVE_FORMAT,
        version: SAVE_VERSION,
        ruleset: record.ruleset,
        setup: record.setup,
        initialDice: record.initialDice,
        dice,
        log,
      },
    });
  }

  async createToken(tableId: string, role: TokenRole): Promise<Result<CreatedToken>> {
    const roleError = badRole(role);
    if (roleError !== undefined) return roleError;
    if (!(await this.getTable(tableId))) return err('table/not-found', `no table ${tableId}`);
    const { tokenId, token, hash } = newToken();
    const row: TokenRow = {
      token_id: tokenId,
      table_id: tableId,
      hash,
      role: role.role,
      character_id: role.role === 'player' ? role.characterId : null,
      created_at: now(),
      revoked_at: null,
    };
    await this.db.insertInto('moogle_tokens').values(row).execute();
    return ok({ token, info: tokenInfo(row) });
  }

  async checkToken(token: string): Promise<Result<TokenGrant>> {
    const parts = typeof token === 'string' ? splitToken(token) : undefined;
    if (parts === undefined) return err('token/malformed', 'not a Moogle access token');
    const row = await this.db
      .selectFrom('moogle_tokens')
      .selectAll()
      .where('token_id', '=', parts.tokenId)
      .executeTakeFirst();
    // The comparison runs even for an unknown id, against a hash no secret has, so a miss
    // takes as long as a wrong secret.
    const matches = secretMatches(parts.secret, row?.hash ?? UNUSED_HASH);
    if (row === undefined || !matches) return err('token/unknown', 'this token is not valid');
    if (row.revoked_at !== null) return err('token/revoked', 'this token was revoked');
    return ok(grantOfLink(row));
  }

  async revokeToken(tokenId: string): Promise<boolean> {
    const revoked = await this.db
      .updateTable('moogle_tokens')
      .set({ revoked_at: now() })
      .where('token_id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .returning('table_id')
      .executeTakeFirst();
    if (revoked === undefined) return false;
    this.feed.revoked({ tokenId, tableId: revoked.table_id });
    // Already refused (a session is checked against its link), and now gone: no row stands
    // for a revoked link on any device.
    const ended = this.db
      .selectFrom('moogle_sessions')
      .select('hash')
      .where('token_id', '=', tokenId);
    await this.db.deleteFrom('moogle_tickets').where('session_hash', 'in', ended).execute();
    await this.db.deleteFrom('moogle_sessions').where('token_id', '=', tokenId).execute();
    return true;
  }

  async tokenLive(tokenId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('moogle_tokens')
      .select('revoked_at')
      .where('token_id', '=', tokenId)
      .executeTakeFirst();
    return row !== undefined && row.revoked_at === null;
  }

  async listTokens(tableId: string): Promise<readonly TokenInfo[]> {
    const rows = await this.db
      .selectFrom('moogle_tokens')
      .selectAll()
      .where('table_id', '=', tableId)
      .orderBy('created_at')
      .orderBy('token_id')
      .execute();
    return rows.map(tokenInfo);
  }

  createSession(tokenId: string, bounds: SessionBounds): Promise<Result<CreatedSession>> {
    return sessions.createSession(this.db, grantOfLink, tokenId, bounds);
  }

  checkSession(session: string): Promise<Result<TokenGrant>> {
    return sessions.checkSession(this.db, grantOfLink, session);
  }

  endSession(session: string): Promise<boolean> {
    return sessions.endSession(this.db, session);
  }

  createTicket(session: string, bounds: SessionBounds): Promise<Result<string>> {
    return sessions.createTicket(this.db, grantOfLink, session, bounds);
  }

  takeTicket(ticket: string): Promise<Result<TokenGrant>> {
    return sessions.takeTicket(this.db, grantOfLink, ticket);
  }

  async getLibrary(tableId: string): Promise<LibraryListing | undefined> {
    // One transaction, so the flag and the rows are one moment of the library (PostgreSQL's
    // default would let each query see a later one).
    const transaction =
      this.kind === 'postgres'
        ? this.db.transaction().setIsolationLevel('repeatable read')
        : this.db.transaction();
    return transaction.execute(async (tx) => {
      const table = await tx
        .selectFrom('moogle_tables')
        .select('library_seeded')
        .where('id', '=', tableId)
        .executeTakeFirst();
      if (table === undefined) return undefined;
      const rows = await tx
        .selectFrom('moogle_library')
        .selectAll()
        .where('table_id', '=', tableId)
        .where('deleted', '=', 0)
        .orderBy('kind')
        .orderBy('id')
        .execute();
      return { seeded: table.library_seeded !== 0, entries: rows.map(libraryRecord) };
    });
  }

  async getLibraryEntry(
    tableId: string,
    kind: string,
    id: string,
  ): Promise<LibraryRecord | undefined> {
    const row = await this.db
      .selectFrom('moogle_library')
      .selectAll()
      .where('table_id', '=', tableId)
      .where('kind', '=', kind)
      .where('id', '=', id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    return row === undefined ? undefined : libraryRecord(row);
  }

  async seedLibrary(tableId: string, entries: readonly LibraryWrite[]): Promise<Result<boolean>> {
    const rows = libraryRows(entries);
    if (!rows.ok) return rows;
    return this.db.transaction().execute(async (tx) => {
      // The flag is the guard: of two processes seeding at once, one update finds it unset.
      const marked = await tx
        .updateTable('moogle_tables')
        .set({ library_seeded: 1 })
        .where('id', '=', tableId)
        .where('library_seeded', '=', 0)
        .executeTakeFirst();
      if ((marked.numUpdatedRows ?? 0n) === 0n) {
        return (await this.tableExists(tx, tableId))
          ? ok(false)
          : err('table/not-found', `no table ${tableId}`);
      }
      const at = now();
      const values = rows.value.map((row) => ({
        table_id: tableId,
        kind: row.kind,
        id: row.id,
        version: 1,
        body: row.body,
        deleted: 0,
        updated_at: at,
      }));
      for (const batch of batches(values)) {
        await tx.insertInto('moogle_library').values(batch).execute();
      }
      return ok(true);
    });
  }

  async writeLibrary(
    tableId: string,
    entries: readonly LibraryWrite[],
    deletions: readonly {
      readonly kind: string;
      readonly id: string;
      readonly expectedVersion?: number;
    }[] = [],
  ): Promise<Result<readonly LibraryRecord[]>> {
    if (entries.length + deletions.length > STORE_LIMITS.libraryWrite) {
      return err(
        'store/too-large',
        `one library write changes at most ${STORE_LIMITS.libraryWrite} entries`,
      );
    }
    const rows = libraryRows(entries);
    if (!rows.ok) return rows;
    const named = new Set<string>();
    for (const { kind, id } of [...entries, ...deletions]) {
      const key = `${kind}\u0000${id}`;
      if (named.has(key)) return err('library/duplicate', `${kind} '${id}' is named twice`);
      named.add(key);
    }
    // A refusal midway throws, so the transaction rolls back what it wrote before it.
    try {
      return await this.db
        .transaction()
        .execute((tx) => this.writeLibraryIn(tx, tableId, rows.value, entries, deletions));
    } catch (error) {
      if (error instanceof Refusal) return error.result;
      throw error;
    }
  }

  private async writeLibraryIn(
    tx: Transaction<StoreDatabase>,
    tableId: string,
    rows: readonly { kind: string; id: string; body: string }[],
    entries: readonly LibraryWrite[],
    deletions: readonly {
      readonly kind: string;
      readonly id: string;
      readonly expectedVersion?: number;
    }[],
  ): Promise<Result<readonly LibraryRecord[]>> {
    {
      if (!(await this.tableExists(tx, tableId))) {
        throw new Refusal(err('table/not-found', `no table ${tableId}`));
      }
      const at = now();
      const written: LibraryRecord[] = [];
      const current = async (kind: string, id: string) =>
        tx
          .selectFrom('moogle_library')
          .select(['version', 'deleted', 'body'])
          .where('table_id', '=', tableId)
          .where('kind', '=', kind)
          .where('id', '=', id)
          .executeTakeFirst();
      const stale = (
        kind: string,
        id: string,
        expected: number | undefined,
        found: { version: number; deleted: number } | undefined,
      ): Result<never> | undefined => {
        const present = found === undefined || found.deleted !== 0 ? 0 : found.version;
        if (expected === undefined || expected === present) return undefined;
        return err(
          'library/conflict',
          present === 0
            ? `${kind} '${id}' is not in the library now (expected version ${expected})`
            : `${kind} '${id}' is at version ${present} now, not ${expected}: it was changed meanwhile`,
        );
      };
      for (const [i, row] of rows.entries()) {
        const found = await current(row.kind, row.id);
        const conflict = stale(row.kind, row.id, entries[i]!.expectedVersion, found);
        if (conflict !== undefined) throw new Refusal(conflict);
        if (found !== undefined && found.deleted === 0 && found.body === row.body) {
          written.push(libraryRecord({ ...row, version: found.version, updated_at: at }));
          continue;
        }
        const version = (found?.version ?? 0) + 1;
        // Guarded by the version read: a writer racing this one (another process, read
        // committed) changes no row here, and the whole write is refused, not lost.
        const moved = err(
          'library/conflict',
          `${row.kind} '${row.id}' was changed meanwhile; read it again`,
        );
        if (found === undefined) {
          const inserted = await tx
            .insertInto('moogle_library')
            .values({
              table_id: tableId,
              kind: row.kind,
              id: row.id,
              version,
              body: row.body,
              deleted: 0,
              updated_at: at,
            })
            .onConflict((c) => c.columns(['table_id', 'kind', 'id']).doNothing())
            .executeTakeFirst();
          if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) throw new Refusal(moved);
        } else {
          const updated = await tx
            .updateTable('moogle_library')
            .set({ version, body: row.body, deleted: 0, updated_at: at })
            .where('table_id', '=', tableId)
            .where('kind', '=', row.kind)
            .where('id', '=', row.id)
            .where('version', '=', found.version)
            .executeTakeFirst();
          if ((updated.numUpdatedRows ?? 0n) === 0n) throw new Refusal(moved);
        }
        written.push(libraryRecord({ ...row, version, updated_at: at }));
      }
      for (const { kind, id, expectedVersion } of deletions) {
        const found = await current(kind, id);
        if (found === undefined || found.deleted !== 0) {
          throw new Refusal(
            err('library/not-found', `${kind} '${id}' is not in this table's library`),
          );
        }
        const conflict = stale(kind, id, expectedVersion, found);
        if (conflict !== undefined) throw new Refusal(conflict);
        const deleted = await tx
          .updateTable('moogle_library')
          .set({ version: found.version + 1, body: null, deleted: 1, updated_at: at })
          .where('table_id', '=', tableId)
          .where('kind', '=', kind)
          .where('id', '=', id)
          .where('version', '=', found.version)
          .executeTakeFirst();
        if ((deleted.numUpdatedRows ?? 0n) === 0n) {
          throw new Refusal(
            err('library/conflict', `${kind} '${id}' was changed meanwhile; read it again`),
          );
        }
      }
      await tx
        .updateTable('moogle_tables')
        .set({ library_seeded: 1 })
        .where('id', '=', tableId)
        .execute();
      return ok(written);
    }
  }

  private async tableExists(tx: Transaction<StoreDatabase>, tableId: string): Promise<boolean> {
    const row = await tx
      .selectFrom('moogle_tables')
      .select('id')
      .where('id', '=', tableId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async exportTable(id: string): Promise<Result<TableExport>> {
    // One read transaction, so the export is one moment of the table even while it is played:
    // PostgreSQL's default (read committed) would let each query see a later moment; a SQLite
    // transaction is one snapshot already.
    const transaction =
      this.kind === 'postgres'
        ? this.db.transaction().setIsolationLevel('repeatable read')
        : this.db.transaction();
    const exported = await transaction.execute(async (tx) => {
      const table = await tx
        .selectFrom('moogle_tables')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (table === undefined) return undefined;
      const roster = await tx
        .selectFrom('moogle_roster')
        .selectAll()
        .where('table_id', '=', id)
        .orderBy('character_id')
        .execute();
      const encounters = await tx
        .selectFrom('moogle_encounters')
        .selectAll()
        .where('table_id', '=', id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const entries = await tx
        .selectFrom('moogle_entries')
        .innerJoin('moogle_encounters', 'moogle_encounters.id', 'moogle_entries.encounter_id')
        .selectAll('moogle_entries')
        .where('moogle_encounters.table_id', '=', id)
        .orderBy('moogle_entries.encounter_id')
        .orderBy('moogle_entries.seq')
        .execute();
      const gmRolls = await tx
        .selectFrom('moogle_gm_rolls')
        .innerJoin('moogle_encounters', 'moogle_encounters.id', 'moogle_gm_rolls.encounter_id')
        .selectAll('moogle_gm_rolls')
        .where('moogle_encounters.table_id', '=', id)
        .orderBy('moogle_gm_rolls.encounter_id')
        .orderBy('moogle_gm_rolls.n')
        .execute();
      const tokens = await tx
        .selectFrom('moogle_tokens')
        .selectAll()
        .where('table_id', '=', id)
        .orderBy('created_at')
        .orderBy('token_id')
        .execute();
      const campaignLog = await tx
        .selectFrom('moogle_campaign_log')
        .selectAll()
        .where('table_id', '=', id)
        .orderBy('n')
        .execute();
      const library = await tx
        .selectFrom('moogle_library')
        .selectAll()
        .where('table_id', '=', id)
        .orderBy('kind')
        .orderBy('id')
        .execute();
      return { table, roster, encounters, entries, gmRolls, tokens, library, campaignLog };
    });
    if (exported === undefined) return err('table/not-found', `no table ${id}`);
    const byEncounter = new Map<string, StoredEntry[]>();
    for (const row of exported.entries) {
      const list = byEncounter.get(row.encounter_id) ?? [];
      list.push(storedEntry(row));
      byEncounter.set(row.encounter_id, list);
    }
    const rollsByEncounter = new Map<string, GmRollRecord[]>();
    for (const row of exported.gmRolls) {
      const list = rollsByEncounter.get(row.encounter_id) ?? [];
      list.push(gmRollRecord(row));
      rollsByEncounter.set(row.encounter_id, list);
    }
    return ok({
      format: 'moogle-table',
      version: 1,
      table: tableRecord(exported.table),
      roster: exported.roster.map((row) => {
        const { tableId: _, ...entry } = rosterEntry(row);
        return entry;
      }),
      encounters: exported.encounters.map((row) => {
        const { tableId: _, ...record } = encounterRecord(row);
        const gmRolls = rollsByEncounter.get(row.id);
        return {
          ...record,
          entries: byEncounter.get(row.id) ?? [],
          ...(gmRolls === undefined ? {} : { gmRolls }),
        };
      }),
      ...(exported.table.library_seeded === 0
        ? {}
        : {
            library: {
              entries: exported.library.map((row) =>
                row.deleted === 0
                  ? libraryRecord(row)
                  : {
                      kind: row.kind,
                      id: row.id,
                      version: row.version,
                      body: null,
                      deleted: true as const,
                      updatedAt: row.updated_at,
                    },
              ),
            },
          }),
      tokens: exported.tokens.map((row) => {
        const { tableId: _, ...info } = tokenInfo(row);
        return { ...info, hash: row.hash };
      }),
      campaignLog: exported.campaignLog.map(campaign.logRecord),
    });
  }

  async importTable(input: unknown): Promise<Result<TableRecord>> {
    const parsed = parseTableExport(input);
    if (!parsed.ok) return parsed;
    const data = parsed.value;
    const tableId = data.table.id;
    if (await this.getTable(tableId)) return err('table/exists', `table ${tableId} exists`);
    try {
      await this.db.transaction().execute((tx) => writeExport(tx, data));
    } catch (error) {
      if (isConstraintViolation(error)) {
        return err(
          'import/conflict',
          `table ${tableId}, one of its encounters or one of its tokens is already in this store`,
        );
      }
      throw error;
    }
    for (const encounter of data.encounters) {
      for (const row of encounter.entries) {
        this.feed.published({ encounterId: encounter.id, seq: row.seq });
      }
    }
    return ok(data.table);
  }

  subscribe(encounterId: string, listener: ChangeListener): Promise<Unsubscribe> {
    return this.feed.subscribe(encounterId, listener);
  }

  async publishPresence(notice: PresenceNotice): Promise<void> {
    if (this.kind === 'postgres') {
      await sql`SELECT pg_notify(${PRESENCE_CHANNEL}, ${JSON.stringify(notice)})`.execute(this.db);
    } else {
      this.feed.presence(notice);
    }
  }

  async close(): Promise<void> {
    try {
      await this.feed.close();
      await this.db.destroy();
    } finally {
      this.release();
    }
  }
}

function rosterRows(
  roster: readonly { readonly characterId: string; readonly state: JsonValue }[],
): Result<{ character_id: string; state: string }[]> {
  const rows: { character_id: string; state: string }[] = [];
  for (const entry of roster) {
    const invalid = badId('character id', entry.characterId);
    if (invalid !== undefined) return invalid;
    const text = jsonText(entry.state, STORE_LIMITS.rosterStateBytes, "the character's state");
    if (!text.ok) return text;
    rows.push({ character_id: entry.characterId, state: text.value });
  }
  return ok(rows);
}

/**
 * An entry's `HeldRollMoves`, inside its append's transaction: spent rolls moved aside under
 * the spending entry's number, undone ones moved back as held after entry `seq`. True when a
 * row moved (every process then reads the held rolls again).
 */
async function moveHeldRolls(
  tx: Transaction<StoreDatabase>,
  encounterId: string,
  seq: number,
  moves: HeldRollMoves,
): Promise<boolean> {
  let moved = false;
  for (const spend of moves.spend ?? []) {
    const purposes = spend.purposes.slice(0, STORE_LIMITS.heldRolls);
    if (purposes.length === 0) continue;
    const rows = await tx
      .selectFrom('moogle_held_rolls')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('purpose', 'in', purposes)
      .execute();
    if (rows.length === 0) continue;
    const spent = rows.map((r) => r.purpose);
    // One left from an undo whose redo branch a later command ended: this entry's now.
    await tx
      .deleteFrom('moogle_spent_rolls')
      .where('encounter_id', '=', encounterId)
      .where('spent_seq', '=', spend.seq)
      .where('purpose', 'in', spent)
      .execute();
    await tx
      .insertInto('moogle_spent_rolls')
      .values(rows.map((r) => ({ ...r, spent_seq: spend.seq })))
      .execute();
    await tx
      .deleteFrom('moogle_held_rolls')
      .where('encounter_id', '=', encounterId)
      .where('purpose', 'in', spent)
      .execute();
    moved = true;
  }
  const undone = (moves.restore ?? []).slice(0, STORE_LIMITS.heldRolls);
  if (undone.length > 0) {
    const rows = await tx
      .selectFrom('moogle_spent_rolls')
      .selectAll()
      .where('encounter_id', '=', encounterId)
      .where('spent_seq', 'in', undone)
      .orderBy('spent_seq')
      .execute();
    // The earliest undone command's roll of a purpose is the one held before them all; a later
    // one's stays aside, for a redo of that command to find.
    const earliest = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (!earliest.has(row.purpose)) earliest.set(row.purpose, row);
    const back = [...earliest.values()];
    if (back.length > 0) {
      const purposes = back.map((r) => r.purpose);
      // Undo puts back what was: a roll entered since, for the round after, gives way.
      await tx
        .deleteFrom('moogle_held_rolls')
        .where('encounter_id', '=', encounterId)
        .where('purpose', 'in', purposes)
        .execute();
      await tx
        .insertInto('moogle_held_rolls')
        .values(
          back.map((r) => ({
            encounter_id: r.encounter_id,
            purpose: r.purpose,
            roller: r.roller,
            roll: r.roll,
            after_seq: seq,
            held_at: r.held_at,
          })),
        )
        .execute();
      for (const r of back)
        await tx
          .deleteFrom('moogle_spent_rolls')
          .where('encounter_id', '=', encounterId)
          .where('spent_seq', '=', r.spent_seq)
          .where('purpose', '=', r.purpose)
          .execute();
      moved = true;
    }
  }
  return moved;
}

/** Creates or replaces each character's lasting state, inside the caller's transaction. */
async function upsertRoster(
  tx: Transaction<StoreDatabase>,
  tableId: string,
  rows: readonly { character_id: string; state: string }[],
): Promise<void> {
  const at = now();
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

/** Rows per multi-row insert: well under SQLite's and PostgreSQL's bound on parameters. */
const INSERT_BATCH = 200;

async function writeExport(tx: Transaction<StoreDatabase>, data: TableExport): Promise<void> {
  const tableId = data.table.id;
  await tx
    .insertInto('moogle_tables')
    .values({
      id: tableId,
      system_id: data.table.systemId,
      name: data.table.name,
      created_at: data.table.createdAt,
      // An export from before tables had a library is seeded from the starter content on use.
      library_seeded: data.library === undefined ? 0 : 1,
    })
    .execute();
  const library = (data.library?.entries ?? []).map((entry) => ({
    table_id: tableId,
    kind: entry.kind,
    id: entry.id,
    version: entry.version,
    body: entry.deleted === true ? null : JSON.stringify(entry.body),
    deleted: entry.deleted === true ? 1 : 0,
    updated_at: entry.updatedAt,
  }));
  for (const batch of batches(library)) {
    await tx.insertInto('moogle_library').values(batch).execute();
  }
  const roster = data.roster.map((entry) => ({
    table_id: tableId,
    character_id: entry.characterId,
    state: JSON.stringify(entry.state),
    updated_at: entry.updatedAt,
  }));
  for (const batch of batches(roster)) await tx.insertInto('moogle_roster').values(batch).execute();
  for (const encounter of data.encounters) {
    await tx
      .insertInto('moogle_encounters')
      .values({
        id: encounter.id,
        table_id: tableId,
        name: encounter.name,
        ruleset: encounter.ruleset,
        setup: JSON.stringify(encounter.setup),
        initial_dice: JSON.stringify(encounter.initialDice),
        status: encounter.status,
        created_at: encounter.createdAt,
        revealed: JSON.stringify(encounter.revealed ?? []),
      })
      .execute();
    const entries = encounter.entries.map((row) => ({
      encounter_id: encounter.id,
      seq: row.seq,
      idempotency_key: row.idempotencyKey,
      entry: JSON.stringify(row.entry),
      appended_at: row.appendedAt,
    }));
    for (const batch of batches(entries)) {
      await tx.insertInto('moogle_entries').values(batch).execute();
    }
    const gmRolls = (encounter.gmRolls ?? []).map(({ afterSeq, at, ...roll }, i) => ({
      encounter_id: encounter.id,
      n: i + 1,
      after_seq: afterSeq,
      roll: JSON.stringify(roll),
      rolled_at: at,
    }));
    for (const batch of batches(gmRolls)) {
      await tx.insertInto('moogle_gm_rolls').values(batch).execute();
    }
  }
  const tokens = data.tokens.map((token) => ({
    token_id: token.tokenId,
    table_id: tableId,
    hash: token.hash,
    role: token.role,
    character_id: token.role === 'player' ? token.characterId : null,
    created_at: token.createdAt,
    revoked_at: token.revokedAt,
  }));
  for (const batch of batches(tokens)) await tx.insertInto('moogle_tokens').values(batch).execute();
  for (const batch of batches(campaign.importRows(tableId, data.campaignLog ?? []))) {
    await tx.insertInto('moogle_campaign_log').values(batch).execute();
  }
}

function* batches<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) yield rows.slice(i, i + INSERT_BATCH);
}

/** A SHA-256 no secret hashes to in practice, compared against when a token id is unknown. */
const UNUSED_HASH = '0'.repeat(64);

/**
 * A unique, primary-key or foreign-key refusal from either database: the outcome a caller
 * caused (a taken number, a reused key, a missing parent), told apart from real failures.
 */
/** A refusal thrown out of a transaction so that it rolls back, and answered as its result. */
class Refusal extends Error {
  constructor(readonly result: Result<never>) {
    super('refused');
  }
}

function libraryRecord(row: {
  kind: string;
  id: string;
  version: number;
  body: string | null;
  updated_at: string;
}): LibraryRecord {
  return {
    kind: row.kind,
    id: row.id,
    version: row.version,
    body: JSON.parse(row.body ?? 'null') as JsonValue,
    updatedAt: row.updated_at,
  };
}

/** Entries as rows to write: ids bounded, bodies JSON within `libraryEntryBytes`. */
function libraryRows(
  entries: readonly LibraryWrite[],
): Result<{ kind: string; id: string; body: string }[]> {
  const rows: { kind: string; id: string; body: string }[] = [];
  for (const entry of entries) {
    const invalid = badId('content kind', entry.kind) ?? badId('content id', entry.id);
    if (invalid !== undefined) return invalid;
    const body = jsonText(
      entry.body,
      STORE_LIMITS.libraryEntryBytes,
      `${entry.kind} '${entry.id}'`,
    );
    if (!body.ok) return body;
    rows.push({ kind: entry.kind, id: entry.id, body: body.value });
  }
  return ok(rows);
}

function isConstraintViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_CONSTRAINT') || code === '23505' || code === '23503';
}

function gmRollRecord(row: StoreDatabase['moogle_gm_rolls']): GmRollRecord {
  return {
    ...(JSON.parse(row.roll) as Omit<GmRollRecord, 'afterSeq' | 'at'>),
    afterSeq: row.after_seq,
    at: row.rolled_at,
  };
}

function now(): string {
  return new Date().toISOString();
}

function invalidAppend(message: string): AppendResult {
  return { ok: false, code: 'invalid', message };
}

function badId(what: string, value: unknown): Result<never> | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > STORE_LIMITS.idBytes) {
    return err('store/bad-id', `a ${what} is 1 to ${STORE_LIMITS.idBytes} characters`);
  }
  return undefined;
}

function badName(value: unknown): Result<never> | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > STORE_LIMITS.nameLength) {
    return err('store/bad-name', `a name is 1 to ${STORE_LIMITS.nameLength} characters`);
  }
  return undefined;
}

function badRole(role: TokenRole): Result<never> | undefined {
  switch (role?.role) {
    case 'gm':
    case 'spectator':
      return undefined;
    case 'player':
      return badId('character id', role.characterId);
    default:
      return err('token/bad-role', 'a role is gm, player (with a character id) or spectator');
  }
}

/** JSON text of a value within a size, or why not (a cycle, a BigInt, too large). */
function jsonText(value: unknown, maxBytes: number, what: string): Result<string> {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return err('store/not-json', `${what} is not plain JSON: ${(error as Error).message}`);
  }
  if (text === undefined) return err('store/not-json', `${what} is not plain JSON`);
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    return err('store/too-large', `${what} is over ${maxBytes} bytes as JSON`);
  }
  return ok(text);
}

function tableRecord(row: TableRow): TableRecord {
  return { id: row.id, systemId: row.system_id, name: row.name, createdAt: row.created_at };
}

function rosterEntry(row: StoreDatabase['moogle_roster']): RosterEntry {
  return {
    tableId: row.table_id,
    characterId: row.character_id,
    state: JSON.parse(row.state) as JsonValue,
    updatedAt: row.updated_at,
  };
}

function encounterRecord(row: EncounterRow): EncounterRecord {
  return {
    id: row.id,
    tableId: row.table_id,
    name: row.name,
    ruleset: row.ruleset,
    setup: JSON.parse(row.setup) as unknown,
    initialDice: JSON.parse(row.initial_dice) as SeededDiceState,
    status: row.status as EncounterStatus,
    createdAt: row.created_at,
    revealed: JSON.parse(row.revealed) as string[],
  };
}

function storedEntry(row: EntryRow): StoredEntry {
  return {
    seq: row.seq,
    idempotencyKey: row.idempotency_key,
    entry: JSON.parse(row.entry) as LogEntry,
    appendedAt: row.appended_at,
  };
}

function tokenInfo(row: TokenRow): TokenInfo {
  const common = {
    tokenId: row.token_id,
    tableId: row.table_id,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
  if (row.role === 'player')
    return { role: 'player', characterId: row.character_id ?? '', ...common };
  // Only 'gm' grants the GM's rights: a role this version does not know reads as the least.
  return { role: row.role === 'gm' ? 'gm' : 'spectator', ...common };
}

/** What a link's row grants, revoked or not: its callers check that. */
function grantOfLink(row: TokenRow): TokenGrant {
  const { tokenId, tableId, createdAt: _c, revokedAt: _r, ...role } = tokenInfo(row);
  return { ...role, tokenId, tableId };
}

/** Values no entry holds, each told apart in a compiled query's parameters. */
const ENTRY_SAMPLE_LATER: EntryRow = {
  encounter_id: '\u0000encounter',
  seq: 1_000_003,
  idempotency_key: '\u0000key',
  entry: '\u0000entry',
  appended_at: '\u0000at',
};
const ENTRY_SAMPLE_FIRST: EntryRow = { ...ENTRY_SAMPLE_LATER, seq: 1 };
const ENTRY_SAMPLE_LINK = '\u0000link';

/**
 * A query compiled once, from a sample row whose values are told apart, into a function that
 * binds another row's values in their places: each parameter is one of the sample's fields, the
 * number before its seq (the entry it follows), or a constant of the query itself.
 */
function boundLater(
  compile: (sample: EntryInsert) => CompiledQuery,
  sample: EntryInsert,
): (row: EntryInsert) => CompiledQuery {
  const compiled = compile(sample);
  const fields = Object.keys(sample) as (keyof EntryInsert)[];
  const places = compiled.parameters.map((parameter) => {
    const field = fields.find((name) => sample[name] === parameter);
    if (field !== undefined) return (row: EntryInsert) => row[field];
    if (parameter === sample.seq - 1) return (row: EntryInsert) => row.seq - 1;
    return () => parameter;
  });
  return (row) =>
    CompiledQuery.raw(
      compiled.sql,
      places.map((place) => place(row)),
    );
}

/**
 * A fight that ended takes no more entries, so no undo: the rolls held for its next round and
 * those kept for an undo to give back are let go of with it.
 */
async function dropRollsOfClosed(
  tx: Transaction<StoreDatabase>,
  encounterId: string,
): Promise<void> {
  await tx.deleteFrom('moogle_held_rolls').where('encounter_id', '=', encounterId).execute();
  await tx.deleteFrom('moogle_spent_rolls').where('encounter_id', '=', encounterId).execute();
}
