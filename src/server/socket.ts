import type { WebSocket } from 'ws';
import { type EarlyMessages, serveBounded } from './bounded-socket.js';
import { CLOSE } from './close-codes.js';
import { SERVER_LIMITS } from './limits.js';
import type { EncounterHost, LiveClient } from './live/encounter-host.js';
import type { ReplayBudget } from './live/replays.js';
import { clientMessageSchema, type Role, type ServerMessage } from './protocol.js';

export interface SocketOptions {
  readonly host: EncounterHost;
  readonly role: Role;
  /** The token id the socket came in with. */
  readonly linkId: string;
  /** Sent once the encounter has admitted the socket, and not before. */
  readonly welcome: Extract<ServerMessage, { type: 'welcome' }>;
  /** The catch-up entries each link may still be sent, shared by the whole server. */
  readonly replays: ReplayBudget;
  readonly onRoll: (notation: string) => { total: number; text: string } | { error: string };
  readonly early: EarlyMessages;
}

/**
 * Serves one WebSocket for one encounter and role: asks the encounter to admit it (a socket
 * refused gets `refused` and a close, never `welcome`), checks every message against the
 * protocol, bounds their rate, and passes them to the encounter's host. Nothing a client sends
 * reaches the engine unchecked, and a bad message is answered, never thrown.
 */
export function serveSocket(socket: WebSocket, options: SocketOptions): void {
  const { host, role, linkId, replays, onRoll, early } = options;
  const client: LiveClient = {
    role,
    linkId,
    send(message: ServerMessage) {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
    sendText(text: string) {
      if (socket.readyState === socket.OPEN) socket.send(text);
    },
    close(code: number, reason: string) {
      socket.close(code, reason);
    },
  };
  // Closed while its link was being checked: its `close` has been and gone, so a seat taken
  // now would never be given back.
  if (socket.readyState !== socket.OPEN) return;
  const attached = host.attach(client);
  if (!attached.ok) {
    client.send({ type: 'refused', ...attached.error });
    socket.close(CLOSE.policy, attached.error.code);
    return;
  }
  client.send(options.welcome);
  serveBounded(socket, {
    early,
    refuse: (code, message) => client.send({ type: 'refused', code, message }),
    closed: () => host.detach(client),
    message: (parsed) => {
      const message = clientMessageSchema.safeParse(parsed);
      if (!message.success) {
        const issue = message.error.issues[0];
        client.send({
          type: 'refused',
          code: 'message/invalid',
          message: `not a message of this protocol${issue ? `: ${issue.path.join('.') || 'message'}: ${issue.message}` : ''}`,
        });
        return;
      }
      const m = message.data;
      switch (m.type) {
        case 'hello': {
          // What the hello will send: the entries after `since`, and one for the state.
          const charged = replays.charge(linkId, Math.max(0, host.lastSeq - m.since) + 1);
          if (!charged.ok) {
            client.send({
              type: 'refused',
              code: 'sync/too-often',
              message: `this link was sent at most ${SERVER_LIMITS.replayBurst} catch-up entries at once and ${SERVER_LIMITS.replayPerSecond} a second since: say hello again in ${charged.retryMs} ms`,
              retryMs: charged.retryMs,
            });
            return;
          }
          void host.hello(client, m.since);
          return;
        }
        case 'submit':
          void host.submit(client, m);
          return;
        case 'reveal':
          void host.reveal(client, m.combatant, m.revealed);
          return;
        case 'hold':
          void host.hold(client, m.purpose, m.roll);
          return;
        case 'ping':
          client.send({ type: 'pong' });
          return;
        case 'roll': {
          if (role.role !== 'gm') {
            client.send({
              type: 'refused',
              code: 'role/gm-only',
              message: 'only the GM rolls here',
            });
            return;
          }
          const rolled = onRoll(m.notation);
          if ('error' in rolled) {
            client.send({ type: 'refused', code: 'dice/invalid', message: rolled.error });
            return;
          }
          // Back to the GM's own socket only, secret or not (an open one the GM reads out), and
          // kept with the encounter for the GM: never part of the log the players see.
          void host.gmRoll(client, m, rolled);
          return;
        }
      }
    },
  });
}
