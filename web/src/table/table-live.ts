import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Api } from '../api.js';
import type { Connected, TableMessage } from '../types.js';

/**
 * The table's own socket (`/api/table/live`): who is at the table, and what happens at it (an
 * encounter started or ended, the roster or the links changed). One a page, whatever screen it
 * shows: the table page and an encounter's screen both follow it. Reconnects by itself; a
 * revoked link's page is told so and stops.
 */

export type TableEvent = Extract<
  TableMessage,
  { type: 'encounter-started' | 'encounter-ended' | 'roster-changed' | 'invites-changed' }
>;

export interface TableSnapshot {
  readonly open: boolean;
  /** Every link at the table now (link ids for the GM alone). */
  readonly connected: readonly Connected[];
  /** The link no longer opens the table (revoked): no retry will help. */
  readonly fatal: string | null;
}

const PING_MS = 25_000;

export class TableLive {
  private socket: WebSocket | undefined;
  private stopped = false;
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly watchers = new Set<(s: TableSnapshot) => void>();
  private readonly listeners = new Set<(e: TableEvent) => void>();
  snapshot: TableSnapshot = { open: false, connected: [], fatal: null };

  /** `url`: the socket's address, asked again before every (re)connect (it holds a ticket). */
  constructor(private readonly url: () => Promise<string>) {}

  subscribe(watch: (s: TableSnapshot) => void): () => void {
    this.watchers.add(watch);
    return () => this.watchers.delete(watch);
  }

  /** Every event from now on. */
  on(listen: (e: TableEvent) => void): () => void {
    this.listeners.add(listen);
    return () => this.listeners.delete(listen);
  }

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.socket?.close(1000, 'left');
  }

  private set(next: Partial<TableSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    for (const watch of this.watchers) watch(this.snapshot);
  }

  private retry(): void {
    const pause = Math.min(5000, 250 * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => void this.connect(), pause);
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.snapshot.fatal !== null) return;
    let url: string;
    try {
      url = await this.url();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'auth/revoked' || code === 'auth/invalid') {
        this.set({ fatal: error instanceof Error ? error.message : 'this link was revoked' });
      } else if (!this.stopped) {
        this.retry();
      }
      return;
    }
    if (this.stopped) return;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: 'hello' }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ping' }));
      }, PING_MS);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.receive(JSON.parse(String(event.data)) as TableMessage);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      this.set({ open: false });
      if (event.code === 4001) this.set({ fatal: 'this link was revoked' });
      if (this.stopped || this.snapshot.fatal !== null) return;
      this.retry();
    };
  }

  private receive(message: TableMessage): void {
    switch (message.type) {
      case 'welcome':
        this.retries = 0;
        return;
      case 'connected':
        this.set({ open: true, connected: message.connected });
        return;
      case 'joined':
      case 'reconnecting':
      case 'left':
        this.set({ connected: message.connected });
        return;
      case 'refused':
        if (message.code === 'auth/revoked' || message.code === 'auth/invalid') {
          this.set({ fatal: message.message });
        }
        return;
      case 'pong':
      case 'reconnect':
        return;
      default:
        for (const listen of this.listeners) listen(message);
    }
  }
}

/** The page's table socket, for whatever part of it wants who is here or what happened. */
export const TableLiveContext = createContext<TableLive | null>(null);

/** The table socket of this page, open while the page is. */
export function useTableSocket(api: Api): TableLive {
  const [live] = useState(() => {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // A one-use ticket of the page's session for each (re)connect, as the encounter's socket.
    return new TableLive(
      async () =>
        `${scheme}//${location.host}/api/table/live?ticket=${encodeURIComponent(await api.ticket())}`,
    );
  });
  useEffect(() => {
    live.start();
    return () => live.stop();
  }, [live]);
  return live;
}

/** Who is at the table now, kept as it changes. */
export function useTablePresence(): TableSnapshot {
  const live = useContext(TableLiveContext);
  const [snapshot, setSnapshot] = useState<TableSnapshot>(
    live?.snapshot ?? { open: false, connected: [], fatal: null },
  );
  useEffect(() => {
    if (live === null) return;
    setSnapshot(live.snapshot);
    return live.subscribe(setSnapshot);
  }, [live]);
  return snapshot;
}

/** Calls `listen` for each table event while the component is shown. */
export function useTableEvents(listen: (e: TableEvent) => void): void {
  const live = useContext(TableLiveContext);
  useEffect(() => live?.on(listen), [live, listen]);
}
