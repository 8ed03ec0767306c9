import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { CLOSE } from './close-codes.js';
import { nestsDeeperThan } from './json-depth.js';
import { SERVER_LIMITS } from './limits.js';
import type { TableChannels, TableClient } from './live/table-channel.js';
import type { Role, TableMessage } from './protocol.js';
import type { EarlyMessages } from './socket.js';
import { TokenBucket } from './token-bucket.js';

/** What a client says on the table channel: `hello` (who is here now) and `ping`. */
const tableClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('ping') }),
]);

export interface TableSocketOptions {
  readonly tables: TableChannels;
  readonly tableId: string;
  readonly role: Role;
  readonly linkId: string;
  readonly welcome: Extract<TableMessage, { type: 'welcome' }>;
  readonly early: EarlyMessages;
}

/**
 * Serves one socket of a table's channel: admitted (a link's cap) before its `welcome`, its
 * messages bounded in rate, size and depth as an encounter socket's are, closed when silent for
 * `idleMs`. It only listens: nothing a client sends here changes anything.
 */
export function serveTableSocket(socket: WebSocket, options: TableSocketOptions): void {
  const { tables, tableId, role, linkId, early } = options;
  const client: TableClient = {
    role,
    linkId,
    send(message) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
    close(code, reason) {
      socket.close(code, reason);
    },
  };
  if (socket.readyState !== socket.OPEN) return;
  const attached = tables.attach(tableId, client);
  if (!attached.ok) {
    client.send({ type: 'refused', ...attached.error });
    socket.close(CLOSE.policy, attached.error.code);
    return;
  }
  client.send(options.welcome);
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
    tables.detach(tableId, client);
  });
  const receive = (data: RawData, isBinary: boolean): void => {
    awake();
    if (!bucket.take()) {
      client.send({
        type: 'refused',
        code: 'message/too-fast',
        message: `at most ${SERVER_LIMITS.messagesPerSecond} messages a second`,
      });
      return;
    }
    const text = isBinary ? undefined : String(data);
    let parsed: unknown;
    if (text !== undefined && !nestsDeeperThan(text, SERVER_LIMITS.jsonDepth)) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const message = tableClientMessage.safeParse(parsed);
    if (!message.success) {
      client.send({
        type: 'refused',
        code: 'message/invalid',
        message: 'the table channel takes {"type":"hello"} and {"type":"ping"}',
      });
      return;
    }
    if (message.data.type === 'hello') tables.hello(tableId, client);
    else client.send({ type: 'pong' });
  };
  socket.on('message', receive);
  for (const [data, isBinary] of early.stop()) receive(data, isBinary);
}
