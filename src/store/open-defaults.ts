/** Where `moogle serve` keeps its SQLite file unless told otherwise (a module with no drivers). */
export const DEFAULT_SQLITE_PATH = './moogle-data/moogle.db';

/**
 * How long a PostgreSQL store waits before a call fails with `StorageError`: during an outage a
 * request is refused in bounded time instead of hanging (docs/store.md, docs/limits.md).
 */
export const POSTGRES_TIMEOUTS = {
  /** Opening a connection: a server that is down refuses at once; a hung one never answers. */
  connectMs: 3_000,
  /** One statement, timed by the server, which cancels it and frees what it held. */
  statementMs: 5_000,
  /** One query, timed here: a hung or unreachable server cannot cancel anything. */
  queryMs: 6_000,
} as const;
