import type { RawData, WebSocket } from 'ws';
import { CLOSE } from './close-codes.js';
import { nestsDeeperThan } from './json-depth.js';
import { SERVER_LIMITS } from './limits.js';
import { TokenBucket } from './token-bucket.js';

/**
 * Messages that arrive while the connection is still being checked (the token, the encounter):
 * kept from the first moment, so a client may say hello as soon as the socket opens.
 */
export interface EarlyMessages {
  stop(): readonly (readonly [RawData, boolean])[];
}

export function keepEarlyMessages(socket: WebSocket): EarlyMessages {
  const kept: [RawData, boolean][] = [];
  const keep = (data: RawData, isBinary: boolean): void => {
    if (kept.length < SERVER_LIMITS.messageBurst) kept.push([data, isBinary]);
  };
  socket.on('message', keep);
  return {
    stop() {
      socket.off('message', keep);
      return kept;
    },
  };
}

export interface BoundedSocketOptions {
  /** The messages that came while the socket was admitted: read first, in order. */
  readonly early: EarlyMessages;
  /** A message refused here (too fast, too deep), said to the client. */
  refuse(code: string, message: string): void;
  /** Each message within the bounds, as JSON; `undefined` when binary or not JSON. */
  message(parsed: unknown): void;
  /** The socket closed. */
  closed(): void;
}

/**
 * The bounds every live socket keeps once admitted, whatever it serves (an encounter, a table's
 * channel): closed when silent for `idleMs`; at most `messagesPerSecond` messages (a burst of
 * `messageBurst`), the rest refused; a text nested deeper than `jsonDepth` refused before it is
 * parsed, as an HTTP body is (the schemas after it walk the whole depth). The size is bounded
 * by the WebSocket server itself (`maxPayload`).
 */
export function serveBounded(socket: WebSocket, options: BoundedSocketOptions): void {
  const { early, refuse, message, closed } = options;
  const bucket = new TokenBucket(SERVER_LIMITS.messagesPerSecond, SERVER_LIMITS.messageBurst);
  let idle: NodeJS.Timeout | undefined;
  const awake = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => socket.close(CLOSE.policy, 'idle'), SERVER_LIMITS.idleMs);
    idle.unref();
  };
  awake();
  socket.on('close', () => {
    clearTimeout(idle);
    closed();
  });
  const receive = (data: RawData, isBinary: boolean): void => {
    awake();
    if (!bucket.take()) {
      refuse('message/too-fast', `at most ${SERVER_LIMITS.messagesPerSecond} messages a second`);
      return;
    }
    const text = isBinary ? undefined : String(data);
    if (text !== undefined && nestsDeeperThan(text, SERVER_LIMITS.jsonDepth)) {
      refuse(
        'message/invalid',
        `a message nests at most ${SERVER_LIMITS.jsonDepth} arrays and objects deep`,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = text === undefined ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    message(parsed);
  };
  socket.on('message', receive);
  for (const [data, isBinary] of early.stop()) receive(data, isBinary);
}
