import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import { type Followed, follow, followingFrom, NOTHING_FOLLOWED } from '../../src/client/follow.js';
import { systemById } from '../../src/rulesets/index.js';
import { buildServer, type ServerOptions, type TableServer } from '../../src/server/app.js';
import type { HostContext } from '../../src/server/live/encounter-host.js';
import { Hub } from '../../src/server/live/hub.js';
import type { ClientMessage, ServerMessage, StatePayload } from '../../src/server/protocol.js';
import { createTable, recruit, starterLibrary } from '../../src/server/tables.js';
import type { Store, StoreKind, TableRecord } from '../../src/store/index.js';
import { freshLocation, type Location, open } from '../store/fixtures.js';

/**
 * Real servers for the server's tests: in this process on a port the system picks, or as
 * `moogle serve` child processes; a real SQLite file or a real PostgreSQL database; clients
 * over real WebSockets. Nothing here stands in for the network or the database.
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${ROOT}bin/moogle.js`;

export function example(name: string): string {
  return readFileSync(`${ROOT}examples/${name}.yaml`, 'utf8');
}

export interface Running {
  readonly url: string;
  readonly store: Store;
  readonly server: TableServer;
  readonly location: Location;
  stop(): Promise<void>;
}

export async function startServer(
  kind: StoreKind,
  location?: Location,
  options: Omit<ServerOptions, 'store'> = {},
): Promise<Running> {
  const where = location ?? (await freshLocation(kind));
  const store = await open(where.location);
  const server = await buildServer({ store, logger: false, ...options });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    store,
    server,
    location: where,
    async stop() {
      await server.shutdown();
      await store.close();
    },
  };
}

/**
 * A server on a fresh store of `kind` for the tests of the `describe` this is called in:
 * started before them, stopped (its store disposed of) after. The object is filled in when it
 * has started, so the tests read `running.url` as they would a server of their own.
 */
export function useServer(kind: StoreKind, options: Omit<ServerOptions, 'store'> = {}): Running {
  const running = {} as Running;
  let started: Running | undefined;
  beforeAll(async () => {
    started = await startServer(kind, undefined, options);
    Object.assign(running, started);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
    await started?.location.dispose();
  });
  return running;
}

/**
 * A hub of encounter hosts in this process over `store` (a real one, or a real one with a
 * method held back), as the server makes its own, with each system's starter library and no
 * log: for tests that drive the hosts without sockets.
 */
export function hubOver(store: Store, options: Partial<HostContext> = {}): Hub {
  return new Hub({
    store,
    systemOf: (ruleset) => systemById(ruleset),
    libraryOf: async (_tableId, system) => {
      const library = starterLibrary(system);
      return library.ok ? library.value : undefined;
    },
    log: () => {},
    ...options,
  });
}

/** `moogle serve` as its own process, on a free port; resolves once it listens. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
}

export function spawnServe(db: string, extra: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', db, '--no-log', ...extra],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /serving on (http:\/\/[^\s]+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

export interface TableFixture {
  readonly table: TableRecord;
  readonly gmToken: string;
}

export async function newTable(
  store: Store,
  system: string,
  characters: readonly string[] = [],
): Promise<TableFixture> {
  const created = await createTable(store, system, `Test ${system}`);
  if (!created.ok) throw new Error(created.error.message);
  for (const c of characters) {
    const added = await recruit(store, created.value.table, c);
    if (!added.ok) throw new Error(added.error.message);
  }
  return { table: created.value.table, gmToken: created.value.gm.token };
}

export async function http<T = Record<string, unknown>>(
  url: string,
  token: string | undefined,
  method: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
}

export async function startEncounterOver(
  url: string,
  gmToken: string,
  file: string,
  seed = 'test',
): Promise<string> {
  const created = await http<{ id: string }>(`${url}/api/table/encounters`, gmToken, 'POST', {
    file,
    seed,
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.id;
}

/**
 * A message as a test reads it: an `entry` or `changed` with the state the client holds after
 * its patch, worked out as every client does (src/client/follow.ts), so every test that reads
 * a state after an entry checks the patches too.
 */
export type Heard =
  | Exclude<ServerMessage, { type: 'entry' | 'changed' }>
  | (Extract<ServerMessage, { type: 'entry' }> & StatePayload)
  | (Extract<ServerMessage, { type: 'changed' }> & StatePayload);

type Of<T extends Heard['type']> = Extract<Heard, { type: T }>;

/** A WebSocket client that keeps every message, in order, and waits for the ones asked for. */
export class Client {
  readonly messages: Heard[] = [];
  /** The messages as they came, patches and all, and the bytes of each. */
  readonly raw: ServerMessage[] = [];
  readonly sizes: number[] = [];
  /** What the socket's messages made of the encounter, as a client holds it. */
  followed: Followed = NOTHING_FOLLOWED;
  private waiters: (() => void)[] = [];
  private readonly consumed = new Set<number>();
  closed: { code: number; reason: string } | undefined;
  /** A patch that did not start from the state held: the server sent something wrong. */
  unfit: string | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = String(data);
      const message = JSON.parse(text) as ServerMessage;
      this.raw.push(message);
      this.sizes.push(Buffer.byteLength(text));
      const next = follow(this.followed, message);
      this.followed = next.followed;
      if (message.type === 'entry' || message.type === 'changed') {
        const state = this.followed.state;
        if (next.hello !== undefined || state === null) {
          this.unfit ??= `${message.type} ${message.seq} from ${message.base} does not fit the state held (${state?.seq})`;
        } else this.messages.push({ ...message, ...state });
      } else this.messages.push(message);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
      this.wake();
    });
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  static connect(url: string, encounterId: string, token: string): Promise<Client> {
    return Client.open(
      `${url.replace(/^http/, 'ws')}/api/encounters/${encounterId}/live?token=${encodeURIComponent(token)}`,
    );
  }

  /** A socket to any address, with headers of the caller's (a session's cookie, an Origin). */
  static open(address: string, headers: Record<string, string> = {}): Promise<Client> {
    const ws = new WebSocket(address, { headers });
    const client = new Client(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  /** Connects and says hello; resolves with the first `state`. */
  static async join(
    url: string,
    encounterId: string,
    token: string,
    since = 0,
  ): Promise<{ client: Client; state: Of<'state'> }> {
    const client = await Client.connect(url, encounterId, token);
    client.send({ type: 'hello', since });
    const state = await client.next('state');
    return { client, state };
  }

  send(message: ClientMessage | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  /**
   * Says hello from `since`; a client that holds nothing yet follows from there, as one that
   * wants only what comes after it (its log starts after `since`).
   */
  hello(since: number): void {
    if (this.followed.entries.length === 0 && this.followed.state === null) {
      this.followed = followingFrom(since);
    }
    this.send({ type: 'hello', since });
  }

  /** The oldest message of this type not yet taken by `next` or `until`. */
  async next<T extends Heard['type']>(type: T, timeoutMs = 15_000): Promise<Of<T>> {
    return this.until((m): m is Of<T> => m.type === type, timeoutMs);
  }

  async until<M extends Heard>(accept: (m: Heard) => m is M, timeoutMs = 15_000): Promise<M> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.unfit !== undefined) throw new Error(this.unfit);
      for (let i = 0; i < this.messages.length; i++) {
        const m = this.messages[i]!;
        if (!this.consumed.has(i) && accept(m)) {
          this.consumed.add(i);
          return m;
        }
      }
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason})`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no matching message; last: ${JSON.stringify(this.messages.slice(-3))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Submits and waits for this key's answer: `accepted` or `refused`. */
  async submit(
    expect: number,
    key: string,
    action: Extract<ClientMessage, { type: 'submit' }>['action'],
    dice?: Extract<ClientMessage, { type: 'submit' }>['dice'],
  ): Promise<Of<'accepted'> | Of<'refused'>> {
    this.send({ type: 'submit', expect, key, action, ...(dice ? { dice } : {}) });
    return this.until(
      (m): m is Of<'accepted'> | Of<'refused'> =>
        (m.type === 'accepted' || m.type === 'refused') && m.key === key,
    );
  }

  close(): void {
    this.socket.close();
  }
}
