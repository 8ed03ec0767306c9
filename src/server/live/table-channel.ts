import type { Result } from '../../engine/index.js';
import type { PresenceNotice, TableEvent } from '../../store/index.js';
import { CLOSE } from '../close-codes.js';
import { SERVER_LIMITS } from '../limits.js';
import type { Connected, Role, TableMessage, Who } from '../protocol.js';
import { Presence, type PresenceChange, whoOf } from './presence.js';

export interface TableClient {
  readonly role: Role;
  readonly linkId: string;
  send(message: TableMessage): void;
  close(code: number, reason: string): void;
}

/** The scope a table's presence notices name in `encounterId`. */
export const TABLE_SCOPE = 'table:';

interface Room {
  readonly clients: Set<TableClient>;
  /** Who said hello (the others are still being let in). */
  readonly listening: Set<TableClient>;
  readonly presence: Presence;
}

export interface TableChannelContext {
  readonly graceMs: number;
  /** Sends a presence notice to the other processes (the hub's queue). */
  readonly publish: (notice: PresenceNotice) => void;
  /** This process, as its notices name it. */
  readonly process: string;
}

/**
 * The tables this process has screens or sockets of: each table's channel sockets, and who is
 * at the table. A link is at the table while it holds a socket to the table channel or to any
 * encounter of it, in any process: the same `Presence` as an encounter's, counting every socket
 * of the link at the table, so it joins once and leaves once however many screens it has open.
 */
export class TableChannels {
  private readonly rooms = new Map<string, Room>();

  constructor(private readonly context: TableChannelContext) {}

  private room(tableId: string): Room {
    let room = this.rooms.get(tableId);
    if (room === undefined) {
      const made: Room = {
        clients: new Set(),
        listening: new Set(),
        presence: new Presence(this.context.graceMs, (change) => {
          this.changed(made, change);
          if (change.event === 'left') this.prune(tableId);
        }),
      };
      room = made;
      this.rooms.set(tableId, room);
      // The other processes' links at this table are learnt from them.
      this.context.publish({
        kind: 'ask',
        process: this.context.process,
        encounterId: `${TABLE_SCOPE}${tableId}`,
      });
    }
    return room;
  }

  /** Lets a socket into the table's channel: a link holds at most `socketsPerLink` of them. */
  attach(tableId: string, client: TableClient): Result<void> {
    const room = this.room(tableId);
    let ofLink = 0;
    for (const other of room.clients) if (other.linkId === client.linkId) ofLink++;
    if (ofLink >= SERVER_LIMITS.socketsPerLink) {
      return {
        ok: false,
        error: {
          code: 'server/link-full',
          message: `a link holds at most ${SERVER_LIMITS.socketsPerLink} connections to a table`,
        },
      };
    }
    if (room.clients.size >= SERVER_LIMITS.socketsPerEncounter) {
      return {
        ok: false,
        error: {
          code: 'server/table-full',
          message: `a table's channel holds at most ${SERVER_LIMITS.socketsPerEncounter} connections`,
        },
      };
    }
    room.clients.add(client);
    this.linkSocket(tableId, client.linkId, client.role, 1);
    return { ok: true, value: undefined };
  }

  detach(tableId: string, client: TableClient, revoked = false): void {
    const room = this.rooms.get(tableId);
    if (room === undefined || !room.clients.delete(client)) return;
    room.listening.delete(client);
    this.linkSocket(tableId, client.linkId, client.role, -1, revoked);
    this.prune(tableId);
  }

  /** A table nobody here watches and nobody anywhere is at is forgotten: it is asked again. */
  private prune(tableId: string): void {
    const room = this.rooms.get(tableId);
    if (room === undefined || room.clients.size > 0 || room.presence.list().length > 0) return;
    room.presence.close();
    this.rooms.delete(tableId);
  }

  /** The links of this process's channel sockets, to check again when notices were missed. */
  links(): Set<string> {
    const links = new Set<string>();
    for (const room of this.rooms.values()) for (const c of room.clients) links.add(c.linkId);
    return links;
  }

  /** The client's `hello`: who is here now, and from now on every change and event. */
  hello(tableId: string, client: TableClient): void {
    const room = this.rooms.get(tableId);
    if (room === undefined || !room.clients.has(client)) return;
    room.listening.add(client);
    client.send({ type: 'connected', connected: connectedFor(room, client.role) });
  }

  /**
   * A socket of a link at the table opened or closed here, to the channel or to an encounter of
   * it; `final`: the link was revoked, so it leaves without a grace.
   */
  linkSocket(tableId: string, link: string, role: Role, delta: 1 | -1, final = false): void {
    const room = this.room(tableId);
    const sockets = room.presence.local(link, role, delta, final);
    this.tellOne(tableId, link, whoOf(role), sockets);
  }

  private tellOne(tableId: string, link: string, who: Who, sockets: number): void {
    this.context.publish({
      kind: 'link',
      process: this.context.process,
      encounterId: `${TABLE_SCOPE}${tableId}`,
      link,
      role: who.role,
      ...(who.role === 'player' ? { character: who.character } : {}),
      sockets,
    });
  }

  /** Another process's notice about a table's link; a table with no room here is nobody's concern. */
  remote(notice: Extract<PresenceNotice, { kind: 'link' }>): void {
    const room = this.rooms.get(notice.encounterId.slice(TABLE_SCOPE.length));
    room?.presence.remote(notice);
  }

  /** Another process asks for this one's links at a table. */
  tell(tableId: string): void {
    const room = this.rooms.get(tableId);
    if (room === undefined) return;
    for (const [link, { who, sockets }] of room.presence.mine()) {
      this.tellOne(tableId, link, who, sockets);
    }
  }

  /** Every table's links this process holds, as when notices were dropped. */
  tellAll(): void {
    for (const tableId of this.rooms.keys()) this.tell(tableId);
  }

  forget(process: string): void {
    for (const room of this.rooms.values()) room.presence.forget(process);
  }

  /** Notices were missed: what the others said is dropped, and they are asked again. */
  forgetElsewhere(): void {
    for (const [tableId, room] of this.rooms) {
      room.presence.forgetElsewhere();
      this.context.publish({
        kind: 'ask',
        process: this.context.process,
        encounterId: `${TABLE_SCOPE}${tableId}`,
      });
    }
  }

  /** Something happened at the table: every screen that said hello hears it. */
  event(tableId: string, event: TableEvent): void {
    const room = this.rooms.get(tableId);
    if (room === undefined) return;
    for (const client of room.listening) client.send(event);
  }

  /** A revoked link's channel sockets are told why and closed; it has left the table at once. */
  revoke(linkId: string): void {
    for (const [tableId, room] of this.rooms) {
      room.presence.revoked(linkId);
      for (const client of [...room.clients]) {
        if (client.linkId !== linkId) continue;
        this.detach(tableId, client, true);
        client.send({ type: 'refused', code: 'auth/revoked', message: 'this link was revoked' });
        client.close(CLOSE.revoked, 'revoked');
      }
    }
  }

  /** Whether a link is at the table now (connected or reconnecting), for the take-over mark. */
  connected(tableId: string): Connected[] {
    return this.rooms.get(tableId)?.presence.list() ?? [];
  }

  /** The channel sockets this process holds: while any, it beats. */
  get clientCount(): number {
    let count = 0;
    for (const room of this.rooms.values()) count += room.clients.size;
    return count;
  }

  /** Tells every socket to connect again (the server is stopping). */
  dismiss(reason: string): void {
    for (const room of this.rooms.values()) {
      for (const client of room.clients) client.send({ type: 'reconnect', reason });
    }
  }

  close(): void {
    for (const room of this.rooms.values()) room.presence.close();
    this.rooms.clear();
  }

  private changed(room: Room, change: PresenceChange): void {
    for (const client of room.listening) {
      const gm = client.role.role === 'gm';
      client.send({
        type: change.event,
        who: change.who,
        ...(gm ? { link: change.link } : {}),
        connected: connectedFor(room, client.role),
      });
    }
  }
}

/** Link ids are the GM's alone, as in an encounter. */
function connectedFor(room: Room, role: Role): Connected[] {
  const all = room.presence.list();
  return role.role === 'gm' ? all : all.map(({ link: _l, ...rest }) => rest);
}
