import { isIP } from 'node:net';
import type { Command } from 'commander';
import { DEFAULT_SQLITE_PATH } from '../store/open-defaults.js';
import { ExitStatus } from './input.js';
import type { Io } from './io.js';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

interface ServeFlags {
  readonly port: string;
  readonly host: string;
  readonly db: string;
  readonly publicUrl?: string;
  readonly trustProxy?: string;
  readonly log: boolean;
  readonly demo: boolean;
  readonly ownerTokenFile?: string;
}

/** The environment variable an owner token may be given in instead of a file. */
export const OWNER_TOKEN_ENV = 'MOOGLE_OWNER_TOKEN';

/** The owner token given (a file wins over the environment), or undefined to keep or make one. */
async function givenOwnerToken(flags: ServeFlags): Promise<string | undefined> {
  if (flags.ownerTokenFile !== undefined) {
    const { readBoundedText } = await import('../content/read-bounded.js');
    const read = readBoundedText(flags.ownerTokenFile, 1024);
    if (!read.ok) throw new ExitStatus(2, `cannot read ${flags.ownerTokenFile}: ${read.reason}`);
    return read.text.trim();
  }
  const env = process.env[OWNER_TOKEN_ENV]?.trim();
  return env === undefined || env === '' ? undefined : env;
}

/** A port from the command line: a whole number 0-65535 (0 asks the system for a free one). */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(port) || port > 65535) {
    throw new ExitStatus(2, `--port takes a whole number 0-65535, not '${text}'`);
  }
  return port;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `10.0.0.0/255.0.0.0`) or one of proxy-addr's names. */
function isProxyAddress(text: string): boolean {
  if (PROXY_NAMES.has(text)) return true;
  const [address, range, ...rest] = text.split('/');
  if (rest.length > 0 || address === undefined || isIP(address) === 0) return false;
  return range === undefined || /^\d{1,3}$/.test(range) || isIP(range) === 4;
}

/**
 * `--trust-proxy`: a number of proxy hops in front of the server, or the proxies' addresses and
 * CIDR ranges separated by commas (proxy-addr's names `loopback`, `linklocal`, `uniquelocal`
 * too), as Fastify's `trustProxy` takes them.
 */
export function parseTrustProxy(text: string): number | string[] {
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 100) return hops;
  } else {
    const addresses = text
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a.length > 0);
    if (addresses.length > 0 && addresses.every(isProxyAddress)) return addresses;
  }
  throw new ExitStatus(
    2,
    `--trust-proxy takes a number of proxies (1-100) or their addresses separated by commas, not '${text}'`,
  );
}

/**
 * `moogle serve`: the table server on SQLite by default or a PostgreSQL URL. Prints one line,
 * `Moogle is serving on <url>`, once it listens (tests and scripts read it); SIGTERM and SIGINT
 * finish in-flight submits, tell clients to reconnect, then exit 0.
 */
export function registerServe(program: Command, io: Io): void {
  program
    .command('serve')
    .description('Serve live encounters to a GM and players over HTTP and WebSocket')
    .option('--port <n>', 'the port to listen on (0: any free port)', String(DEFAULT_PORT))
    .option('--host <address>', 'the address to listen on', DEFAULT_HOST)
    .option('--db <path|url>', 'a SQLite file, or a postgres:// URL', DEFAULT_SQLITE_PATH)
    .option('--public-url <url>', 'the address links are made with (behind a proxy)')
    .option(
      '--trust-proxy <hops|addresses>',
      "behind a reverse proxy: how many (or which) proxies' X-Forwarded-For to believe",
    )
    .option('--no-log', 'no request logs on stdout')
    .option('--no-demo', 'on an empty store, start without the demo table per system')
    .option(
      '--owner-token-file <path>',
      `the lobby API's owner token, kept hashed (or ${OWNER_TOKEN_ENV}); else one is made on first start and printed once`,
    )
    .action(async (flags: ServeFlags) => {
      const port = parsePort(flags.port);
      const trustProxy =
        flags.trustProxy === undefined ? undefined : parseTrustProxy(flags.trustProxy);
      // Loaded here, not at start: `moogle roll` should not pay for a web server and two drivers.
      const { openStore } = await import('../store/index.js');
      const { buildServer } = await import('../server/app.js');
      const given = await givenOwnerToken(flags);
      const store = await openStore(flags.db, { serving: true });
      if (!store.ok) throw new ExitStatus(2, store.error.message);
      const { ensureOwnerToken } = await import('../server/lobby/owner.js');
      const owner = await ensureOwnerToken(store.value, given);
      if (!owner.ok) {
        await store.value.close();
        throw new ExitStatus(2, owner.error.message);
      }
      const server = await buildServer({
        store: store.value,
        logger: flags.log,
        ...(flags.publicUrl === undefined ? {} : { publicUrl: flags.publicUrl }),
        ...(trustProxy === undefined ? {} : { trustProxy }),
      });
      let address: string;
      try {
        address = await server.app.listen({ port, host: flags.host });
      } catch (error) {
        await server.shutdown();
        await store.value.close();
        throw new ExitStatus(2, `cannot listen on ${flags.host}:${port}: ${String(error)}`);
      }
      // An empty store gets a demo table per system, so the first run has fights to open.
      const { createDemoTables } = await import('./demo-tables.js');
      const demos =
        flags.demo && (await store.value.listTables()).length === 0
          ? await createDemoTables(store.value)
          : [];
      // Listening for signals before saying so: whoever reads the line may signal at once, and
      // a SIGTERM before the handler would kill the process without closing the store.
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          // The other signal's handler goes too: a second signal while stopping ends the process
          // at once, as a second Ctrl-C does, instead of starting a second shutdown.
          process.removeListener('SIGTERM', onTerm);
          process.removeListener('SIGINT', onInt);
          io.err(`Moogle: ${signal}: finishing submits in flight, then stopping`);
          void server
            .shutdown(`the server is stopping (${signal}): connect again`)
            .then(() => store.value.close())
            .then(resolve);
        };
        const onTerm = (): void => stop('SIGTERM');
        const onInt = (): void => stop('SIGINT');
        process.once('SIGTERM', onTerm);
        process.once('SIGINT', onInt);
      });
      io.err(
        `Moogle is serving on ${address} (${store.value.kind})${demos.length > 0 ? '; demo tables (GM links):' : ''}`,
      );
      for (const demo of demos) io.err(`  ${demo.system}: ${address}/t/${demo.gmToken}`);
      if (owner.value !== undefined) {
        io.err(`  owner token for the lobby API (keep it secret; shown only now): ${owner.value}`);
      }
      if (demos.length === 0) {
        io.err('  a new table and its GM link: moogle table new --system ffrpg --name "Wind Cave"');
      }
      await stopped;
    });
}
