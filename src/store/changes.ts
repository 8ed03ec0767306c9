import pg from 'pg';
import { ENTRY_CHANNEL, PRESENCE_CHANNEL, TOKEN_CHANNEL } from './migrations.js';
import { POSTGRES_TIMEOUTS } from './open-defaults.js';
import type {
  ChangeListener,
  EntryAppended,
  PresenceNotice,
  TokenRevoked,
  Unsubscribe,
} from './types.js';

/** Delivers "entry appended" and "token revoked" notifications to a store's subscribers. */
export interface ChangeFeed {
  subscribe(encounterId: string, listener: ChangeListener): Promise<Unsubscribe>;
  /** Called by the store after a commit; a feed that hears commits itself ignores it. */
  published(change: EntryAppended): void;
  /** Called by the store after a revocation commits; likewise ignored by a feed that hears it. */
  revoked(change: TokenRevoked): void;
  /** Called by the store to send a presence notice; a feed that hears NOTIFYs ignores it. */
  presence(notice: PresenceNotice): void;
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
    this.toEach((listener) => listener.revoked?.(change));
  }

  /** Presence is sorted by encounter by the hub: every listener hears it, once. */
  presence(notice: PresenceNotice): void {
    this.toEach((listener) => listener.presence?.(notice));
  }

  private toEach(call: (listener: ChangeListener) => void): void {
    const heard = new Set<ChangeListener>();
    for (const set of this.byEncounter.values()) {
      for (const listener of set) {
        if (heard.has(listener)) continue;
        heard.add(listener);
        guarded(() => call(listener));
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
    presence(notice) {
      listeners.presence(notice);
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
      } else if (message.channel === PRESENCE_CHANNEL) {
        const notice = parsePresence(message.payload);
        if (notice !== undefined) listeners.presence(notice);
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
    await next.query(
      `LISTEN ${ENTRY_CHANNEL}; LISTEN ${TOKEN_CHANNEL}; LISTEN ${PRESENCE_CHANNEL}`,
    );
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
    presence() {},
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

/** Each field checked: any client of the database may NOTIFY on the channel. */
function parsePresence(payload: string): PresenceNotice | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const n = parsed as Record<string, unknown>;
  const text = (value: unknown): value is string =>
    typeof value === 'string' && value.length > 0 && value.length <= 200;
  if (!text(n.process)) return undefined;
  switch (n.kind) {
    case 'beat':
    case 'gone':
      return { kind: n.kind, process: n.process };
    case 'ask':
      return text(n.encounterId)
        ? { kind: 'ask', process: n.process, encounterId: n.encounterId }
        : undefined;
    case 'link': {
      const { encounterId, link, role, character, sockets } = n;
      if (!text(encounterId) || !text(link)) return undefined;
      if (role !== 'gm' && role !== 'player' && role !== 'spectator') return undefined;
      if (character !== undefined && !text(character)) return undefined;
      if (typeof sockets !== 'number' || !Number.isInteger(sockets) || sockets < 0) {
        return undefined;
      }
      return {
        kind: 'link',
        process: n.process,
        encounterId,
        link,
        role,
        ...(character === undefined ? {} : { character }),
        sockets,
      };
    }
    case 'table': {
      const { tableId, event } = n;
      if (!text(tableId) || typeof event !== 'object' || event === null) return undefined;
      const e = event as Record<string, unknown>;
      switch (e.type) {
        case 'roster-changed':
        case 'invites-changed':
          return { kind: 'table', process: n.process, tableId, event: { type: e.type } };
        case 'encounter-started':
          return text(e.id) && typeof e.name === 'string' && e.name.length <= 200
            ? {
                kind: 'table',
                process: n.process,
                tableId,
                event: { type: 'encounter-started', id: e.id, name: e.name },
              }
            : undefined;
        case 'encounter-ended':
          return text(e.id) && (e.status === 'finished' || e.status === 'abandoned')
            ? {
                kind: 'table',
                process: n.process,
                tableId,
                event: { type: 'encounter-ended', id: e.id, status: e.status },
              }
            : undefined;
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}
