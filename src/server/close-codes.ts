/*
 * Its own file, below both the socket and the encounter host that close sockets with them: the
 * host imported them from socket.ts, which imports the host.
 */

/** Close codes a client reads: see docs/server.md. */
export const CLOSE = {
  /** The server is stopping or restarting: connect again. */
  restart: 1012,
  /** Too many messages, or silent too long. */
  policy: 1008,
  /** The server failed (a bug, logged): connect again. */
  internal: 1011,
  /** The database is unavailable: connect again in a few seconds. */
  unavailable: 1013,
  /** The link was revoked: connecting again with it is refused. */
  revoked: 4001,
} as const;
