/**
 * What one client may send and how fast: every bound a client controls, in one place
 * (docs/server.md and docs/limits.md list them).
 */
export const SERVER_LIMITS = {
  /** An HTTP body: an encounter file is at most 1 MiB on disk, and arrives as JSON text. */
  httpBodyBytes: 2 * 1024 * 1024,
  /**
   * A body refused for its size is read to its end and dropped when it says it is at most this
   * long, so the client (still sending it) hears why: closing on it mid-send makes the client's
   * write fail, and it sees a broken connection instead of the 413. A longer one is answered
   * and the connection closed.
   */
  refusedBodyDrainBytes: 16 * 1024 * 1024,
  /** HTTP requests (and WebSocket upgrades) per minute, per link (per address without one). */
  requestsPerMinute: 300,
  /** One WebSocket message from a client: a command with its entered dice, or a GM line. */
  messageBytes: 64 * 1024,
  /** Messages a socket may send per second on average, and in a burst. */
  messagesPerSecond: 20,
  messageBurst: 40,
  /** Sockets one encounter holds: a GM, players and spectators on a few devices each. */
  socketsPerEncounter: 64,
  /**
   * Sockets one link holds in one encounter, and the seat of the GM (all GM links together) and
   * of each character of the party (all its player links together): a seat always gets in up
   * to this, and spectators share what the seats leave of `socketsPerEncounter`.
   */
  socketsPerLink: 8,
  /** Sockets the whole server holds; more are refused at the upgrade. */
  sockets: 5000,
  /** A socket that says nothing (not even a ping) for this long is closed. */
  idleMs: 120_000,
  /** `/readyz` answers 503 when the store has not answered its probe in this long. */
  readyMs: 1_000,
  /** Entries sent in one catch-up message; a longer gap arrives in several. */
  entriesPerCatchUp: 200,
  /**
   * Entries one link may be sent in catch-ups (its sockets together, server-wide): a bucket of
   * this many, refilled at this rate a second. A hello counts the entries it replays plus one for
   * the state; past the bucket it is refused `sync/too-often` with the wait in `retryMs`.
   */
  replayBurst: 10_000,
  replayPerSecond: 1_000,
  /** Encounters kept in memory with nobody connected before they are dropped. */
  idleEncounters: 256,
  /** A GM line (`gm hp heket 30`). */
  lineLength: 500,
  /** An idempotency key chosen by the client. */
  keyLength: 200,
  /**
   * How deeply an HTTP body or a WebSocket message may nest: the protocol's deepest message is
   * a handful of levels; checked before parsing, so a deeper one costs nothing to refuse.
   */
  jsonDepth: 64,
  /**
   * Requests a minute from one address with a token that is not a live link (forged, mistyped,
   * revoked), counted apart from its other requests: guessing links is slow, a typo is not.
   */
  failedAuthsPerMinute: 30,
  /** Entries in one encounter's log: a long fight is a few hundred, undos included. */
  entriesPerEncounter: 10_000,
  /** Tables one store keeps (the lobby API creates and imports them). */
  tables: 10_000,
  /** Encounters a table keeps (finished and abandoned ones too): years of weekly sessions. */
  encountersPerTable: 2_000,
  /** Characters on a table's roster. */
  rosterPerTable: 200,
  /** Links of a table not revoked, the GM's own included. */
  liveLinksPerTable: 100,
  /** Links a table ever had, revoked ones too: their rows stay, so revoking does not free one. */
  linksPerTable: 1_000,
  /**
   * Bytes a table stores as encounter setups, roster states and log entries, checked when it
   * starts an encounter or changes its roster; a submit is bounded by `entriesPerEncounter`.
   */
  tableContentBytes: 256 * 1024 * 1024,
  /**
   * A session a link's visit makes (the browser's cookie): ended after this long from its
   * making, whatever its use; the link opens a new one.
   */
  sessionMs: 30 * 24 * 60 * 60 * 1000,
  /** Sessions one link keeps (its devices): one more ends its oldest. */
  sessionsPerLink: 50,
  /** A WebSocket ticket of a session: used once, within this long. */
  ticketMs: 30_000,
  /** Entries in a table's content library: a system's starter content is a few hundred. */
  libraryEntriesPerTable: 5_000,
  /** Bytes of a table's content library as stored (each entry is at most 256 KiB). */
  libraryBytesPerTable: 32 * 1024 * 1024,
} as const;

export type ServerLimits = { readonly [K in keyof typeof SERVER_LIMITS]: number };
