import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { err, ok, type Result } from '../engine/index.js';
import { inProcessFeed, postgresFeed } from './changes.js';
import { KyselyStore } from './kysely-store.js';
import { migrationProvider } from './migrations.js';
import type { StoreDatabase } from './schema.js';
import { damaged, integrityProblem, isDamage, takeServeLock } from './sqlite-serve.js';
import { preparedOnce } from './sqlite-statements.js';
import type { Store, StoreKind } from './types.js';
import { guardedDialect, StorageError } from './unavailable.js';

/** Where `moogle serve` keeps everything when given no `--db`. */
export { DEFAULT_SQLITE_PATH, POSTGRES_TIMEOUTS } from './open-defaults.js';

import { DEFAULT_SQLITE_PATH, POSTGRES_TIMEOUTS } from './open-defaults.js';

export interface OpenStoreOptions {
  /**
   * SQLite only. `full` (the default) syncs the write-ahead log at every commit, so an accepted
   * entry survives a power cut as well as a killed process; `normal` survives a killed process
   * (the log is in the operating system's cache) but may lose the last commits on a power cut.
   */
  readonly sqliteSynchronous?: 'full' | 'normal';
  /** PostgreSQL only: connections in the pool (default 10). */
  readonly postgresPoolSize?: number;
  /**
   * SQLite only, for `moogle serve`: refuse a damaged file (`PRAGMA quick_check`) and a file
   * another live `serve` holds (docs/store.md). The CLI's other commands and the tests open
   * stores on a served file, so only the server asks; its hold ends with `close()`.
   */
  readonly serving?: boolean;
}

/**
 * Opens the store at `location`: a `postgres://` or `postgresql://` URL, or a SQLite file path
 * (its folder is created). Runs any migrations not yet run, so the schema is current before
 * anything else happens. A location that cannot be opened is an error value, not a throw.
 */
export async function openStore(
  location: string = DEFAULT_SQLITE_PATH,
  options: OpenStoreOptions = {},
): Promise<Result<Store>> {
  if (typeof location !== 'string' || location.trim() === '') {
    return err('store/bad-location', 'the store is a SQLite file path or a postgres:// URL');
  }
  const isPostgres = /^postgres(ql)?:\/\//i.test(location);
  if (isPostgres) return openPostgres(location, options);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    return err(
      'store/bad-location',
      `only postgres:// URLs or file paths are stores: ${redact(location)}`,
    );
  }
  return openSqlite(location, options);
}

async function openSqlite(path: string, options: OpenStoreOptions): Promise<Result<Store>> {
  const file = resolve(path);
  let database: Database.Database;
  try {
    makeFolders(dirname(file));
    database = new Database(file);
    // WAL: readers never block the writer, and a commit is one append to the log.
    const mode = database.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`journal mode is ${String(mode)}, not wal`);
    database.pragma(`synchronous = ${options.sqliteSynchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    // SQLite checks foreign keys only when asked, per connection.
    database.pragma('foreign_keys = ON');
    // Another connection on the file (a second store, an export) waits instead of failing.
    database.pragma('busy_timeout = 5000');
  } catch (error) {
    // Page 1 damaged fails here, before any check: said as the check would say it.
    if (isDamage(error)) return damaged(file, (error as Error).message);
    return err('store/cannot-open', `cannot open SQLite file ${file}: ${(error as Error).message}`);
  }
  let release = (): void => {};
  if (options.serving === true) {
    const lock = takeServeLock(file);
    if (!lock.ok) {
      database.close();
      return lock;
    }
    const damaged = integrityProblem(database, file);
    if (damaged !== undefined) {
      database.close();
      lock.value.release();
      return damaged;
    }
    release = lock.value.release;
  }
  const statements = preparedOnce(database);
  const db = new Kysely<StoreDatabase>({
    dialect: guardedDialect(new SqliteDialect({ database: statements })),
  });
  // Kysely runs SQLite's migrations with no transaction and no lock, so two stores opening a
  // new file at once interleaved them (0007's ALTER TABLE ran twice). One IMMEDIATE
  // transaction around them all: the second opener waits (busy_timeout) and then finds them
  // run, and a migration that fails leaves the file as it was.
  const locked = await beginImmediate(database, file);
  if (!locked.ok) {
    await db.destroy().catch(() => {});
    release();
    return locked;
  }
  const failure = await migrate('sqlite', db, file);
  if (database.inTransaction) database.exec(failure === undefined ? 'COMMIT' : 'ROLLBACK');
  if (failure !== undefined) {
    await db.destroy().catch(() => {});
    release();
    return failure;
  }
  statements.keepFromNowOn();
  return ok(new KyselyStore('sqlite', db, inProcessFeed(file), release));
}

async function openPostgres(url: string, options: OpenStoreOptions): Promise<Result<Store>> {
  // Migrations run on a pool of their own, without the statement timeouts: one may rebuild a
  // large table, or wait for another process's migration lock, for longer than a request may.
  const migrating = pool(url, 2, false);
  const migrator = new Kysely<StoreDatabase>({
    dialect: guardedDialect(new PostgresDialect({ pool: migrating })),
  });
  const failure = await migrate('postgres', migrator, redact(url));
  await migrator.destroy().catch(() => {});
  if (failure !== undefined) return failure;
  const db = new Kysely<StoreDatabase>({
    dialect: guardedDialect(
      new PostgresDialect({ pool: pool(url, options.postgresPoolSize ?? 10, true) }),
    ),
  });
  return ok(new KyselyStore('postgres', db, postgresFeed(url)));
}

function pool(url: string, max: number, timed: boolean): pg.Pool {
  const made = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectMs,
    // A connection whose server vanished (a cut cable, a killed VM) is found by the kernel.
    keepAlive: true,
    ...(timed
      ? {
          statement_timeout: POSTGRES_TIMEOUTS.statementMs,
          query_timeout: POSTGRES_TIMEOUTS.queryMs,
        }
      : {}),
  });
  // An idle pooled connection that the server drops reports here; the next query reconnects.
  made.on('error', () => {});
  return made;
}

/**
 * Takes SQLite's write lock, waiting without blocking the event loop: better-sqlite3's own
 * busy wait is synchronous, so a second store of the same process would hold the thread the
 * first needs to finish its migrations.
 */
async function beginImmediate(database: Database.Database, file: string): Promise<Result<void>> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  const busyTimeout = database.pragma('busy_timeout', { simple: true });
  database.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        database.exec('BEGIN IMMEDIATE');
        return ok(undefined);
      } catch (error) {
        const busy = (error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
        if (!busy || Date.now() > deadline) {
          return err(
            'store/cannot-open',
            `cannot open the store at ${file}: ${(error as Error).message}`,
          );
        }
        await new Promise((wake) => setTimeout(wake, 25));
      }
    }
  } finally {
    database.pragma(`busy_timeout = ${Number(busyTimeout)}`);
  }
}

/** How long a store waits for another one's migrations on the same SQLite file. */
const MIGRATION_LOCK_WAIT_MS = 30_000;

/** Runs the migrations not yet run; the failure, if any, as the error to return. */
async function migrate(
  kind: StoreKind,
  db: Kysely<StoreDatabase>,
  where: string = '',
): Promise<Result<never> | undefined> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(kind),
    migrationTableName: 'moogle_migration',
    migrationLockTableName: 'moogle_migration_lock',
  });
  let failure: unknown;
  // SQLite's are run inside the caller's IMMEDIATE transaction (see `beginImmediate`), so a
  // second store on the file finds them run rather than racing them.
  try {
    ({ error: failure } = await migrator.migrateToLatest());
  } catch (error) {
    failure = error;
  }
  if (failure === undefined) return undefined;
  // The driver's own words: a StorageError's are for clients, this is for whoever runs it.
  const cause = failure instanceof StorageError ? failure.cause : failure;
  const message = cause instanceof Error ? cause.message : String(cause);
  // Kysely refuses a database whose run migrations it does not know: a newer Moogle's.
  const code = /corrupted migrations/i.test(message) ? 'store/newer-schema' : 'store/cannot-open';
  return err(code, `cannot open the store at ${where}: ${message}`);
}

/** A URL as it may be printed: without its password. */
function redact(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
}

/**
 * `mkdir -p`, one level at a time: Node's own recursive mkdir never returns on some paths
 * (`/proc/x/y` loops forever on ENOENT), and a path from a user must fail, not hang.
 */
function makeFolders(folder: string): void {
  const missing: string[] = [];
  let at = folder;
  for (;;) {
    try {
      if (!statSync(at).isDirectory()) throw new Error(`${at} is not a folder`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      missing.push(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
    }
  }
  for (const dir of missing.reverse()) mkdirSync(dir);
}
