import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** More distinct statements than the store has queries: only `in (…)` lists of many lengths pass it. */
const STATEMENTS_KEPT = 256;

/**
 * The database as kysely's SQLite dialect uses it, with each statement prepared once: the
 * dialect prepares the SQL of every query anew, and a submit's few queries spent about as long
 * being compiled by SQLite as being run. Kysely binds every value as a parameter, so the text
 * of a query repeats exactly. A statement still being iterated is busy: its SQL then gets a
 * fresh one, not kept.
 */
export function preparedOnce(
  database: Database.Database,
): SqliteDatabase & { keepFromNowOn(): void } {
  const kept = new Map<string, Database.Statement>();
  // Off while the migrations run: two stores opening a new file at once race to migrate it,
  // and the loser's retry must prepare what it runs against the schema as it now is.
  let keeping = false;
  return {
    keepFromNowOn: () => {
      keeping = true;
    },
    close: () => {
      kept.clear();
      database.close();
    },
    prepare: (sql) => {
      if (!keeping) return database.prepare(sql);
      const found = kept.get(sql);
      if (found !== undefined && !found.busy) {
        // The most recently used last: the first is the one to drop.
        kept.delete(sql);
        kept.set(sql, found);
        return found;
      }
      const statement = database.prepare(sql);
      if (found === undefined) {
        kept.set(sql, statement);
        if (kept.size > STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      }
      return statement;
    },
  };
}
