import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * The database could not be reached or could not do its part (down, hung past a timeout, out
 * of disk, damaged): a fault of the server's, not of the request, and one that passes. Fastify
 * answers it with its `statusCode`; a live submit is refused with its `code`. The driver's own
 * error is the `cause`, for the log: its text names hosts and files no client should see.
 */
export class StorageError extends Error {
  readonly code = 'server/storage';
  readonly statusCode = 503;

  constructor(cause: unknown) {
    super('the database is unavailable; try again shortly', { cause });
    this.name = 'StorageError';
  }
}

/** PostgreSQL SQLSTATE classes of a server that cannot serve, as opposed to a refused query. */
const POSTGRES_UNAVAILABLE = [
  '08', // connection exception
  '53', // insufficient resources: disk full, too many connections
  '57', // operator intervention: shutting down, statement_timeout (57014)
  '58', // system error: I/O
  'XX', // internal error: damaged data
];

/** SQLite result codes of a file that cannot serve: not a constraint or a bad statement. */
const SQLITE_UNAVAILABLE =
  /^SQLITE_(FULL|IOERR|BUSY|LOCKED|CORRUPT|NOTADB|READONLY|CANTOPEN|PROTOCOL|NOMEM)/;

/**
 * Whether a driver's error means the database is unavailable. A PostgreSQL error with a
 * SQLSTATE outside those classes (a constraint, a syntax error) is the query's; an error
 * without one is the connection's (refused, reset, timed out), so it is unavailable too.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StorageError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return SQLITE_UNAVAILABLE.test(code);
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') {
    return POSTGRES_UNAVAILABLE.some((prefix) => code.startsWith(prefix));
  }
  return !(error instanceof TypeError || error instanceof RangeError);
}

function storageErrorOf(error: unknown): unknown {
  return !(error instanceof StorageError) && isUnavailable(error) ? new StorageError(error) : error;
}

async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storageErrorOf(error);
  }
}

/**
 * A dialect whose every call to the database throws `StorageError` when the database is
 * unavailable, and the driver's own error otherwise: the store's callers tell an outage from a
 * bug without knowing which driver failed.
 */
export function guardedDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => guardedDriver(dialect.createDriver()),
  };
}

function guardedDriver(driver: Driver): Driver {
  // The driver's own connection objects go back to it: it releases them by what they are.
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (connection: DatabaseConnection): DatabaseConnection =>
    inner.get(connection) ?? connection;
  const wrapped: Driver = {
    init: () => guarded(() => driver.init()),
    acquireConnection: () =>
      guarded(async () => {
        const connection = await driver.acquireConnection();
        const outer: DatabaseConnection = {
          executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
            guarded(() => connection.executeQuery<R>(query)),
          async *streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
            try {
              yield* connection.streamQuery<R>(query, chunkSize);
            } catch (error) {
              throw storageErrorOf(error);
            }
          },
        };
        inner.set(outer, connection);
        return outer;
      }),
    beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
      guarded(() => driver.beginTransaction(unwrap(connection), settings)),
    commitTransaction: (connection) => guarded(() => driver.commitTransaction(unwrap(connection))),
    rollbackTransaction: (connection) =>
      guarded(() => driver.rollbackTransaction(unwrap(connection))),
    releaseConnection: (connection) => driver.releaseConnection(unwrap(connection)),
    destroy: () => driver.destroy(),
  };
  if (driver.savepoint !== undefined) {
    const savepoint = driver.savepoint.bind(driver);
    wrapped.savepoint = (connection, name, compile) =>
      guarded(() => savepoint(unwrap(connection), name, compile));
  }
  if (driver.rollbackToSavepoint !== undefined) {
    const rollback = driver.rollbackToSavepoint.bind(driver);
    wrapped.rollbackToSavepoint = (connection, name, compile) =>
      guarded(() => rollback(unwrap(connection), name, compile));
  }
  if (driver.releaseSavepoint !== undefined) {
    const release = driver.releaseSavepoint.bind(driver);
    wrapped.releaseSavepoint = (connection, name, compile) =>
      guarded(() => release(unwrap(connection), name, compile));
  }
  return wrapped;
}
