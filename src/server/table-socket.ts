import type { WebSocket } from 'ws';
import { z } from 'zod';
import { type EarlyMessages, serveBounded } from './bounded-socket.js';
import { CLOSE } from './close-codes.js';
import type { TableChannels, TableClient } from './live/table-channel.js';
import type { Role, TableMessage } from './protocol.js';

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
  serveBounded(socket, {
    early,
    refuse: (code, message) => client.send({ type: 'refused', code, message }),
    closed: () => tables.detach(tableId, client),
    message: (parsed) => {
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
    },
  });
}
