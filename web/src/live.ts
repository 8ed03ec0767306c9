import type {
  ClientMessage,
  Role,
  SeenEntry,
  ServerMessage,
  StatePayload,
  SubmitAction,
} from './types.js';

/**
 * One encounter's live socket: says hello with the last entry it holds, so a reconnect gets
 * exactly the entries it missed; reconnects by itself after a drop (with growing pauses, and
 * at once when the browser says it is online again); keeps what a screen draws.
 */

export type Connection = 'connecting' | 'open' | 'offline';

export interface Refusal {
  readonly code: string;
  readonly message: string;
  /** What was refused, in the words of the screen that sent it. */
  readonly what: string;
  readonly current?: number;
  /** The entered roll that did not fit, when the dice were refused. */
  readonly purpose?: string;
}

/** A GM roll outside the log, kept with the fight: `afterSeq` is the entry it came after. */
export type Rolled = Omit<Extract<ServerMessage, { type: 'rolled' }>, 'type'>;

/** How many of the GM's rolls a screen keeps, newest first (the server keeps them all). */
const ROLLS_SHOWN = 50;

export interface LiveSnapshot {
  readonly connection: Connection;
  /** Reconnects so far: a screen may say it caught up. */
  readonly reconnects: number;
  readonly role: Role | null;
  readonly encounter: {
    readonly id: string;
    readonly name: string;
    readonly system: string;
  } | null;
  readonly entries: readonly SeenEntry[];
  readonly state: StatePayload | null;
  /** A submit sent (or waiting for the connection) and not yet answered. */
  readonly pending: {
    readonly key: string;
    readonly what: string;
    readonly queued: boolean;
  } | null;
  readonly refusal: Refusal | null;
  readonly rolls: readonly Rolled[];
  /** The link does not open this encounter: no retry will help. */
  readonly fatal: string | null;
}

const EMPTY: LiveSnapshot = {
  connection: 'connecting',
  reconnects: 0,
  role: null,
  encounter: null,
  entries: [],
  state: null,
  pending: null,
  refusal: null,
  rolls: [],
  fatal: null,
};

/** Codes after which the same link will never connect. */
const FATAL = /^(auth\/|encounter\/not-found|role\/)/;

const PING_MS = 20_000;
const PONG_WAIT_MS = 10_000;

/** A key unique enough for idempotency; `crypto.randomUUID` needs a secure context. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function stateOf(message: StatePayload & { type: string }): StatePayload {
  const { seq, view, outcome, actions, undoable, redoable, status, revealed, connected } = message;
  const { orderRolls } = message;
  return {
    ...{ seq, view, outcome, actions, undoable, redoable, status, revealed, connected },
    ...(orderRolls === undefined ? {} : { orderRolls }),
  };
}

export class LiveEncounter {
  private socket: WebSocket | undefined;
  private current: LiveSnapshot = EMPTY;
  private readonly listeners = new Set<(s: LiveSnapshot) => void>();
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private everOpened = false;
  /** Messages written while the socket was down, sent right after the next hello. */
  private queue: ClientMessage[] = [];

  constructor(private readonly url: string) {}

  get snapshot(): LiveSnapshot {
    return this.current;
  }

  subscribe(listener: (s: LiveSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<LiveSnapshot>): void {
    this.current = { ...this.current, ...patch };
    for (const l of this.listeners) l(this.current);
  }

  private readonly goneOffline = (): void => {
    this.set({ connection: 'offline' });
    this.socket?.close(4000, 'offline');
  };

  private readonly backOnline = (): void => {
    if (this.socket === undefined || this.socket.readyState === WebSocket.CLOSED) {
      clearTimeout(this.retryTimer);
      this.connect();
    }
  };

  start(): void {
    addEventListener('offline', this.goneOffline);
    addEventListener('online', this.backOnline);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    removeEventListener('offline', this.goneOffline);
    removeEventListener('online', this.backOnline);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.socket?.close(1000, 'left');
  }

  private connect(): void {
    if (this.stopped) return;
    if (!navigator.onLine) {
      this.set({ connection: 'offline' });
      return;
    }
    this.set({ connection: 'connecting' });
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      const since = this.current.entries.at(-1)?.seq ?? 0;
      socket.send(JSON.stringify({ type: 'hello', since } satisfies ClientMessage));
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) socket.send(JSON.stringify(message));
      if (this.current.pending?.queued)
        this.set({ pending: { ...this.current.pending, queued: false } });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.receive(JSON.parse(String(event.data)) as ServerMessage);
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      if (this.stopped || this.current.fatal !== null) return;
      if (!navigator.onLine) {
        this.set({ connection: 'offline' });
        return;
      }
      this.set({ connection: 'connecting' });
      const pause = Math.min(5000, 250 * 2 ** this.retries);
      this.retries += 1;
      this.retryTimer = setTimeout(() => this.connect(), pause);
    };
  }

  private ping(): void {
    const socket = this.socket;
    if (socket?.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: 'ping' } satisfies ClientMessage));
    clearTimeout(this.pongTimer);
    // No answer: the connection is dead without having said so (a phone changing networks).
    this.pongTimer = setTimeout(() => socket.close(4001, 'no pong'), PONG_WAIT_MS);
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'welcome': {
        const reconnects = this.everOpened ? this.current.reconnects + 1 : 0;
        this.everOpened = true;
        this.retries = 0;
        this.set({
          role: message.role,
          encounter: message.encounter,
          reconnects,
        });
        return;
      }
      case 'entries': {
        const last = this.current.entries.at(-1)?.seq ?? 0;
        const fresh = message.entries.filter((e) => e.seq > last);
        this.set({ entries: [...this.current.entries, ...fresh] });
        return;
      }
      case 'state':
        this.set({ state: stateOf(message), connection: 'open' });
        return;
      case 'entry': {
        const last = this.current.entries.at(-1)?.seq ?? 0;
        if (message.entry.seq > last + 1) {
          // A gap: ask again from what is held; the answer fills it.
          this.socket?.send(JSON.stringify({ type: 'hello', since: last } satisfies ClientMessage));
          return;
        }
        const entries =
          message.entry.seq === last + 1
            ? [...this.current.entries, message.entry]
            : this.current.entries;
        this.set({ entries, state: stateOf(message), connection: 'open' });
        return;
      }
      case 'accepted':
        if (this.current.pending?.key === message.key) this.set({ pending: null, refusal: null });
        return;
      case 'refused': {
        if (message.code === 'sync/ahead') {
          // The encounter was rewound elsewhere (a restore): start again from nothing.
          this.set({ entries: [] });
          this.socket?.send(JSON.stringify({ type: 'hello', since: 0 } satisfies ClientMessage));
          return;
        }
        if (message.code === 'sync/too-often') {
          // This link asked for too many catch-ups at once (many screens on one link): ask again.
          const socket = this.socket;
          setTimeout(() => {
            if (socket !== this.socket || socket?.readyState !== WebSocket.OPEN) return;
            const since = this.current.entries.at(-1)?.seq ?? 0;
            socket.send(JSON.stringify({ type: 'hello', since } satisfies ClientMessage));
          }, message.retryMs ?? 1000);
          return;
        }
        const mine = message.key !== undefined && this.current.pending?.key === message.key;
        const what = mine ? this.current.pending!.what : 'the last request';
        this.set({
          refusal: {
            code: message.code,
            message: message.message,
            what,
            ...(message.current === undefined ? {} : { current: message.current }),
            ...(message.purpose === undefined ? {} : { purpose: message.purpose }),
          },
          ...(mine ? { pending: null } : {}),
          // A revoked link is fatal however long it was open: connecting again is refused.
          ...(FATAL.test(message.code) &&
          message.key === undefined &&
          (!this.everOpened || message.code === 'auth/revoked')
            ? { fatal: message.message }
            : {}),
        });
        return;
      }
      case 'rolled': {
        const { type: _, ...rolled } = message;
        this.set({ rolls: [rolled, ...this.current.rolls].slice(0, ROLLS_SHOWN) });
        return;
      }
      case 'gm-rolls':
        // Every hello brings the kept ones again: what this screen holds is replaced, not added to.
        this.set({ rolls: [...message.rolls].reverse().slice(0, ROLLS_SHOWN) });
        return;
      case 'pong':
        clearTimeout(this.pongTimer);
        return;
      case 'reconnect':
        this.socket?.close(4002, 'server asked');
        return;
      case 'joined':
      case 'reconnecting':
      case 'left':
        // Each carries the whole list after it: nothing to work out here.
        if (this.current.state !== null) {
          this.set({ state: { ...this.current.state, connected: message.connected } });
        }
        return;
    }
  }

  private send(message: ClientMessage): boolean {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /**
   * Submits against the state this screen shows: if the encounter moved on meanwhile (another
   * screen acted, or this one was offline), the server refuses it as stale and says why.
   */
  submit(
    action: SubmitAction,
    what: string,
    dice?: Extract<ClientMessage, { type: 'submit' }>['dice'],
  ): void {
    const state = this.current.state;
    if (state === null) return;
    const key = newKey();
    const message: ClientMessage = {
      type: 'submit',
      expect: state.seq + 1,
      key,
      action,
      ...(dice === undefined || Object.keys(dice).length === 0 ? {} : { dice }),
    };
    const sent = this.send(message);
    if (!sent) this.queue.push(message);
    this.set({ pending: { key, what, queued: !sent }, refusal: null });
  }

  roll(notation: string, secret: boolean, label?: string): void {
    this.send({ type: 'roll', notation, secret, ...(label ? { label } : {}) });
  }

  reveal(combatant: string, revealed: boolean): void {
    this.send({ type: 'reveal', combatant, revealed });
  }

  /** A player's own order roll, held by the server for the round's command; `null` takes it back. */
  hold(purpose: string, roll: Extract<ClientMessage, { type: 'hold' }>['roll']): void {
    this.send({ type: 'hold', purpose, roll });
  }

  dismissRefusal(): void {
    this.set({ refusal: null });
  }
}
