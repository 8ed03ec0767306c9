import pg from 'pg';
import { ENTRY_CHANNEL, TOKEN_CHANNEL } from './migrations.js';
import { POSTGRES_TIMEOUTS } from './open-defaults.js';
import type { ChangeListener, EntryAppended, TokenRevoked, Unsubscribe } from './types.js';

/** Delivers "entry appended" and "token revoked" notifications to a store's subscribers. */
export interface ChangeFeed {
  subscribe(encounterId: string, listener: ChangeListener): Promise<Unsubscribe>;
  /** Called by the store after a commit; a feed that hears commits itself ignores it. */
  published(change: EntryAppended): void;
  /** Called by the store after a revocation commits; likewise ignored by a feed that hears it. */
  revoked(change: TokenRevoked): void;
  close(): Promise<void>;
}

/** Listeners by encounter id ('*' for all), and the calls to them. */
class Listeners {
  private readonly byEncounter = new Map<string, Set<ChangeListener>>();

  add(encounterId: string, listener: ChangeListener): Unsubscribe {
    let set = this.byEncounter.get(encounterId);
    if (set === undefined) {
      set = new Set();
      this.byEncounter.set(encounterId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byEncounter.get(encounterId) === set) {
        this.byEncounter.delete(encounterId);
      }
    };
  }

  get size(): number {
    return this.byEncounter.size;
  }

  appended(change: EntryAppended): void {
    for (const key of [change.encounterId, '*']) {
      for (const listener of this.byEncounter.get(key) ?? []) {
        guarded(() => listener.appended(change));
      }
    }
  }

  resync(): void {
    for (const set of this.byEncounter.values()) {
      for (const listener of set) if (listener.resync) guarded(listener.resync);
    }
  }

  /** A link belongs to no one encounter: every listener hears it, once. */
  revoked(change: TokenRevoked): void {
    const heard = new Set<ChangeListener>();
    for (const set of this.byEncounter.values()) {
      for (const listener of set) {
        if (heard.has(listener) || listener.revoked === undefined) continue;
        heard.add(listener);
        const revoked = listener.revoked;
        guarded(() => revoked(change));
      }
    }
  }
}

/**
 * A listener that throws must not keep the others from hearing, nor vanish silently: its error
 * is rethrown on its own, as an EventEmitter listener's would surface.
 */
function guarded(call: () => void): void {
  try {
    call();
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/**
 * SQLite: only processes on this machine can open the file, and the server runs one per file,
 * so notifications stay in the process. Stores opened on the same file in one process share
 * the listeners, so each hears the others' appends as it would on PostgreSQL.
 */
const sqliteListeners = new Map<string, { listeners: Listeners; stores: number }>();

export function inProcessFeed(file: string): ChangeFeed {
  let shared = sqliteListeners.get(file);
  if (shared === undefined) {
    shared = { listeners: new Listeners(), stores: 0 };
    sqliteListeners.set(file, shared);
  }
  shared.stores++;
  const mine = new Set<Unsubscribe>();
  const { listeners } = shared;
  return {
    async subscribe(encounterId, listener) {
      const remove = listeners.add(encounterId, listener);
      const unsubscribe = () => {
        remove();
        mine.delete(unsubscribe);
      };
      mine.add(unsubscribe);
      return unsubscribe;
    },
    published(change) {
      listeners.appended(change);
    },
    revoked(change) {
      listeners.revoked(change);
    },
    async close() {
      for (const unsubscribe of [...mine]) unsubscribe();
      const entry = sqliteListeners.get(file);
      if (entry !== undefined && --entry.stores === 0) sqliteListeners.delete(file);
    },
  };
}

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * PostgreSQL: one connection per store LISTENs on the channels the entries' and the tokens'
 * triggers notify on, so every process hears every commit, its own included (`published` and
 * `revoked` are unused).
 * The payload carries only the encounter id and number: notifications are limited to 8000
 * bytes and can be missed while the connection is down, so listeners read the rows themselves.
 * The connection is opened on the first subscription, and reopened when lost, after which every
 * listener is told to resync.
 */
export function postgresFeed(connectionString: string): ChangeFeed {
  const listeners = new Listeners();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    // Timed as the pool is: a connect to a hung server that never settled would leave
    // `connecting` pending for good, and the feed would never reconnect once it woke.
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: POSTGRES_TIMEOUTS.connectMs,
      query_timeout: POSTGRES_TIMEOUTS.queryMs,
      keepAlive: true,
    });
    next.on('notification', (message) => {
      if (message.payload === undefined) return;
      if (message.channel === ENTRY_CHANNEL) {
        const change = parsePayload(message.payload);
        if (change !== undefined) listeners.appended(change);
      } else if (message.channel === TOKEN_CHANNEL) {
        const change = parseRevoked(message.payload);
        if (change !== undefined) listeners.revoked(change);
      }
    });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('error');
      next.on('error', () => {}); // a dying connection may still report; nothing to do
      void next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', lost);
    await next.connect();
    await next.query(`LISTEN ${ENTRY_CHANNEL}; LISTEN ${TOKEN_CHANNEL}`);
    client = next;
  };

  const scheduleReconnect = () => {
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      ensure().then(
        () => {
          delay = RECONNECT_MIN_MS;
          listeners.resync();
        },
        () => {
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        },
      );
    }, delay);
    retry.unref();
  };

  const ensure = (): Promise<void> => {
    if (client !== undefined) return Promise.resolve();
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async subscribe(encounterId, listener) {
      const remove = listeners.add(encounterId, listener);
      try {
        await ensure();
      } catch (error) {
        remove();
        throw error;
      }
      return remove;
    },
    published() {},
    revoked() {},
    async close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      await connecting?.catch(() => {});
      const last = client;
      client = undefined;
      await last?.end();
    },
  };
}

function parsePayload(payload: string): EntryAppended | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { e, s } = parsed as { e?: unknown; s?: unknown };
    if (typeof e !== 'string' || typeof s !== 'number') return undefined;
    return { encounterId: e, seq: s };
  } catch {
    return undefined;
  }
}

function parseRevoked(payload: string): TokenRevoked | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { t, b } = parsed as { t?: unknown; b?: unknown };
    if (typeof t !== 'string' || typeof b !== 'string') return undefined;
    return { tokenId: t, tableId: b };
  } catch {
    return undefined;
  }
}
