/**
 * `moogle/client`: a typed client of the table server's live protocol (docs/server.md), for
 * browsers and Node alike. It imports nothing of Node: in Node 20, which has no global
 * WebSocket, pass one (`ws`'s) as `WebSocket`, or import `moogle/client/node`, which does.
 */
import { type ClientOptions, EncounterClient } from './encounter-client.js';

export type {
  ClientMessage,
  Connected,
  JsonPatch,
  OfferedAction,
  Outcome,
  Role,
  SeenCombatant,
  SeenEntry,
  SeenView,
  ServerMessage,
  StatePayload,
  SubmitAction,
  Who,
} from '../server/protocol.js';
export {
  CLIENT_PROTOCOL,
  type ClientEvents,
  type ClientOptions,
  type ClientSnapshot,
  type Connection,
  DEFAULT_BACKOFF,
  EncounterClient,
  type Refusal,
  type Rolled,
  type SubmitAnswer,
  type SubmitOptions,
} from './encounter-client.js';
export {
  type Followed,
  type Followup,
  follow,
  followingFrom,
  lastSeq,
  NOTHING_FOLLOWED,
} from './follow.js';
export {
  type SocketOptions,
  socketUrl,
  type WebSocketConstructor,
  type WebSocketLike,
} from './socket.js';

/** A client of one encounter, connecting now. */
export function connect(options: ClientOptions): EncounterClient {
  return new EncounterClient(options).start();
}
