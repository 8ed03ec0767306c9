/**
 * What one client may send and how fast: every bound a client controls, in one place
 * (docs/server.md and docs/limits.md list them).
 */
export const SERVER_LIMITS = {
  /** An HTTP body: an encounter file is at most 1 MiB on disk, and arrives as JSON text. */
  httpBodyBytes: 2 * 1024 * 1024,
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
} as const;
