import Database from 'better-sqlite3';
import { err, ok, type Result } from '../engine/index.js';

/** What `moogle serve` holds on a SQLite file while it serves it. */
export interface ServeLock {
  release(): void;
}

/** Beside the database: `moogle.db` is held through `moogle.db.serve-lock`. */
export function serveLockPath(file: string): string {
  return `${file}.serve-lock`;
}

/**
 * Takes the file for this process's `serve`, or says which process has it. A second server on
 * one SQLite file would never hear the first one's entries (notifications stay in a process),
 * so its clients would play on a stale encounter.
 *
 * The hold is a write transaction left open on a small SQLite file beside the database: the
 * operating system's lock on it, which ends with the process however the process ends. A
 * killed server leaves nothing to clean up and a reused pid cannot pass for a live server, as
 * they could with a pid file. The file itself stays (as `-shm` does): deleting it while another
 * process opens it would let two servers hold two different files of one name. It records the
 * holder's pid, readable while held, for the message.
 */
export function takeServeLock(file: string): Result<ServeLock> {
  const path = serveLockPath(file);
  let lock: Database.Database;
  try {
    // No waiting: a server that holds the file holds it for as long as it runs.
    lock = new Database(path, { timeout: 0 });
  } catch (error) {
    return err('store/cannot-open', `cannot open ${path}: ${(error as Error).message}`);
  }
  const refused = (): Result<ServeLock> => {
    let holder = 'another process';
    try {
      const row = lock.prepare('SELECT pid, since FROM holder').get() as
        | { pid: number; since: string }
        | undefined;
      if (row !== undefined) holder = `process ${row.pid}, since ${row.since}`;
    } catch {
      // Still being created by the holder: the message goes without its pid.
    }
    lock.close();
    return err(
      'store/in-use',
      `${file} is already being served by another moogle serve (${holder}); stop that one first, or give this one another --db`,
    );
  };
  try {
    lock.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)');
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (isBusy(error)) return refused();
    lock.close();
    return err('store/cannot-open', `cannot lock ${path}: ${(error as Error).message}`);
  }
  try {
    // Committed so a refused server can read who holds it, then held again: whoever took it in
    // between holds it now, and this one is refused as if it had come second.
    lock.exec('DELETE FROM holder');
    lock
      .prepare('INSERT INTO holder (pid, since) VALUES (?, ?)')
      .run(process.pid, new Date().toISOString());
    lock.exec('COMMIT');
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (isBusy(error)) return refused();
    lock.close();
    return err('store/cannot-open', `cannot lock ${path}: ${(error as Error).message}`);
  }
  return ok({ release: () => lock.close() });
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED');
}

/**
 * A damaged file, found before anything is served from it: `PRAGMA quick_check` reads every
 * page and checks each b-tree's structure (not that indexes match their tables, which
 * `integrity_check` adds at several times the cost: docs/store.md has the figures).
 */
export function integrityProblem(
  database: Database.Database,
  file: string,
): Result<never> | undefined {
  let problem: string | undefined;
  try {
    const rows = database.pragma('quick_check') as { quick_check: string }[];
    const first = rows[0]?.quick_check;
    if (first !== 'ok') problem = first ?? 'no answer';
  } catch (error) {
    problem = (error as Error).message;
  }
  return problem === undefined ? undefined : damaged(file, problem);
}

/** A file SQLite found damaged, with what to do about it: one line. */
export function damaged(file: string, problem: string): Result<never> {
  return err(
    'store/damaged',
    `the SQLite file ${file} is damaged (${problem.split('\n')[0]}): it is not opened; restore it from a backup, or salvage what it holds with 'sqlite3 ${file} .recover' into a new file`,
  );
}

/** Whether SQLite's error says the file itself is damaged, or not a database at all. */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))
  );
}
