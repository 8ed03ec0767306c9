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
  const db = new Kysely<StoreDatabase>({
    dialect: guardedDialect(new SqliteDialect({ database })),
  });
  const failure = await migrate('sqlite', db, file);
  if (failure !== undefined) {
    await db.destroy().catch(() => {});
    release();
    return failure;
  }
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
    // Branches number their migrations ahead of landing (0009 may land before 0007): a
    // database that ran the later one runs the earlier one when it arrives. Each migration
    // adds its own tables, so the order between branches does not matter.
    allowUnorderedMigrations: true,
  });
  let failure: unknown;
  // SQLite has no migration lock across connections: when two open a new file at once, one
  // migrates and the other fails on what the first created. Trying again finds the migrations
  // run; a real failure fails every time and is reported.
  for (let attempt = 1; attempt <= (kind === 'sqlite' ? 3 : 1); attempt++) {
    try {
      ({ error: failure } = await migrator.migrateToLatest());
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) break;
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
