import type {
  ClientMessage,
  Connected,
  Role,
  SeenEntry,
  ServerMessage,
  StatePayload,
  SubmitAction,
} from '../server/protocol.js';
import { type Followed, follow, lastSeq, NOTHING_FOLLOWED } from './follow.js';
import {
  type SocketOptions,
  socketUrl,
  type WebSocketConstructor,
  type WebSocketLike,
} from './socket.js';

/**
 * The protocol this client speaks (src/server/protocol.ts's PROTOCOL_VERSION, which a test
 * holds to this one): the server's own is read off its `welcome`.
 */
export const CLIENT_PROTOCOL = 2;

export type Connection = 'connecting' | 'open' | 'offline';

export interface Refusal {
  readonly code: string;
  readonly message: string;
  /** What was refused, in the words of whoever sent it (`submit`'s `what`). */
  readonly what: string;
  readonly current?: number;
  /** The entered roll that did not fit, when the dice were refused. */
  readonly purpose?: string;
}

/** A GM roll outside the log, kept with the fight: `afterSeq` is the entry it came after. */
export type Rolled = Omit<Extract<ServerMessage, { type: 'rolled' }>, 'type'>;

/** What a client holds of its encounter, replaced whole on every change (a screen redraws it). */
export interface ClientSnapshot {
  readonly connection: Connection;
  /** Reconnects so far: a screen may say it caught up. */
  readonly reconnects: number;
  readonly role: Role | null;
  readonly encounter: {
    readonly id: string;
    readonly name: string;
    readonly system: string;
  } | null;
  /** Every entry from the first, in order, each once. */
  readonly entries: readonly SeenEntry[];
  /** The present as the role sees it, kept up by the patches each entry brings. */
  readonly state: StatePayload | null;
  /** The last submit sent (or waiting for the connection) and not yet answered. */
  readonly pending: {
    readonly key: string;
    readonly what: string;
    readonly queued: boolean;
  } | null;
  readonly refusal: Refusal | null;
  /** The GM's rolls outside the log, newest first (GM only). */
  readonly rolls: readonly Rolled[];
  /** The link does not open this encounter: no retry will help. */
  readonly fatal: string | null;
}

const EMPTY: ClientSnapshot = {
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

/** How a submit ended: applied (now in `state`), or refused and why. */
export type SubmitAnswer =
  | { readonly ok: true; readonly seq: number; readonly duplicate: boolean }
  | {
      readonly ok: false;
      readonly code: string;
      readonly message: string;
      readonly current?: number;
      readonly purpose?: string;
    };

export interface SubmitOptions {
  /** What the submit is, in a screen's words: a refusal says it back. */
  readonly what?: string;
  /** Rolled at the table, by roll purpose (docs/server.md). */
  readonly dice?: Extract<ClientMessage, { type: 'submit' }>['dice'];
  /** The idempotency key: a new one unless given (the same key applies once). */
  readonly key?: string;
  /** The number the entry should take: the state's `seq` plus one unless given. */
  readonly expect?: number;
}

type Presence = Extract<ServerMessage, { type: 'joined' | 'reconnecting' | 'left' }>;

/** What `on` tells besides the snapshot. */
export interface ClientEvents {
  /** A new entry, once, in order (a catch-up's too). */
  entry: SeenEntry;
  /** Someone joined, is reconnecting or left; `connected` is the list after. */
  presence: Presence;
  /** Every message as the server sent it. */
  message: ServerMessage;
  /** The socket closed: the next attempt is in `pauseMs`. */
  retry: { readonly attempt: number; readonly pauseMs: number };
}

export type ClientOptions = SocketOptions & {
  /** A WebSocket class: the global one unless given (Node 20 has none: pass `ws`'s). */
  readonly WebSocket?: WebSocketConstructor;
  /** The pause before reconnect attempt `attempt` (0 first): 250 ms doubling to 5 s unless given. */
  readonly backoff?: (attempt: number) => number;
  /** How often to ping, and how long to wait for the pong before the socket is taken for dead. */
  readonly pingMs?: number;
  readonly pongWaitMs?: number;
  /** How many of the GM's rolls the snapshot keeps, newest first (the server keeps them all). */
  readonly keepRolls?: number;
  /** A new idempotency key (`crypto.getRandomValues` unless given). */
  readonly newKey?: () => string;
};

/** What a browser has and Node does not: read off `globalThis`, so neither needs the DOM's types. */
interface Page {
  addEventListener?(type: 'online' | 'offline', listener: () => void): void;
  removeEventListener?(type: 'online' | 'offline', listener: () => void): void;
  navigator?: { readonly onLine?: boolean };
}
const page = globalThis as Page;

/** Codes after which the same link will never connect. */
const FATAL = /^(auth\/|encounter\/not-found|role\/)/;
const OPEN = 1;
const CLOSED = 3;

/** 250 ms, doubling, at most 5 s: a server restarting is found within seconds. */
export const DEFAULT_BACKOFF = (attempt: number): number => Math.min(5000, 250 * 2 ** attempt);

/** A key unique enough for idempotency; `crypto.randomUUID` needs a secure context. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

interface Waiting {
  readonly message: Extract<ClientMessage, { type: 'submit' }>;
  readonly resolve: (answer: SubmitAnswer) => void;
  /** Accepted as this entry: answered once the state has it. */
  accepted?: { seq: number; duplicate: boolean };
}

/**
 * One encounter's live connection (docs/server.md, "The client"): says hello with the last
 * entry it holds, so a reconnect gets exactly what it missed; keeps the entries once each and
 * the state by its patches, asking for the whole state again on a gap or a patch that does not
 * fit; reconnects by itself with growing pauses (at once when a browser says it is online
 * again); submits with idempotency keys and expected numbers, sending again after a reconnect
 * what was not answered, so a submit applies once whatever the network did.
 */
export class EncounterClient {
  private socket: WebSocketLike | undefined;
  private current: ClientSnapshot = EMPTY;
  private followed: Followed = NOTHING_FOLLOWED;
  private readonly listeners = new Set<(s: ClientSnapshot) => void>();
  private readonly handlers: { [K in keyof ClientEvents]: Set<(e: ClientEvents[K]) => void> } = {
    entry: new Set(),
    presence: new Set(),
    message: new Set(),
    retry: new Set(),
  };
  private retries = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private stopped = false;
  private everOpened = false;
  /** Submits not answered yet, by key (a key sent twice waits twice), in the order sent. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Other messages written while the socket was down, sent right after the next hello. */
  private queue: ClientMessage[] = [];
  private readonly WebSocketClass: WebSocketConstructor;

  constructor(private readonly options: ClientOptions) {
    const Class =
      options.WebSocket ??
      (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ??
      undefined;
    if (Class === undefined) {
      throw new Error('no WebSocket here: pass one as `WebSocket` (in Node, the `ws` package)');
    }
    this.WebSocketClass = Class;
  }

  get snapshot(): ClientSnapshot {
    return this.current;
  }

  /** The present as the role sees it (null until the first `state`). */
  get state(): StatePayload | null {
    return this.current.state;
  }

  /** Called with every new snapshot; returns the way to stop. */
  subscribe(listener: (s: ClientSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  on<K extends keyof ClientEvents>(event: K, handler: (e: ClientEvents[K]) => void): () => void {
    const set = this.handlers[event] as Set<(e: ClientEvents[K]) => void>;
    set.add(handler);
    return () => set.delete(handler);
  }

  private emit<K extends keyof ClientEvents>(event: K, value: ClientEvents[K]): void {
    for (const handler of this.handlers[event] as Set<(e: ClientEvents[K]) => void>) {
      handler(value);
    }
  }

  private set(patch: Partial<ClientSnapshot>): void {
    this.current = { ...this.current, ...patch };
    for (const l of this.listeners) l(this.current);
  }

  /** Resolves with the first snapshot (this one or a later one) that `accept` takes. */
  until(accept: (s: ClientSnapshot) => boolean): Promise<ClientSnapshot> {
    if (accept(this.current)) return Promise.resolve(this.current);
    return new Promise((resolve, reject) => {
      const off = this.subscribe((s) => {
        if (s.fatal !== null) {
          off();
          reject(new Error(s.fatal));
        } else if (accept(s)) {
          off();
          resolve(s);
        }
      });
    });
  }

  /** Resolves with the first state held (whole, after the hello). */
  async ready(): Promise<StatePayload> {
    return (await this.until((s) => s.state !== null && s.connection === 'open')).state!;
  }

  /** A browser tells when it goes offline and online again; Node does not. */
  private get browser(): boolean {
    return (
      typeof page.addEventListener === 'function' && typeof page.navigator?.onLine === 'boolean'
    );
  }

  private online(): boolean {
    return page.navigator?.onLine ?? true;
  }

  private readonly goneOffline = (): void => {
    this.set({ connection: 'offline' });
    this.socket?.close(4000, 'offline');
  };

  private readonly backOnline = (): void => {
    if (this.socket === undefined || this.socket.readyState === CLOSED) {
      clearTimeout(this.retryTimer);
      void this.connect();
    }
  };

  /** Connects (once); returns this client. */
  start(): this {
    if (this.started) return this;
    this.started = true;
    if (this.browser) {
      page.addEventListener?.('offline', this.goneOffline);
      page.addEventListener?.('online', this.backOnline);
    }
    void this.connect();
    return this;
  }

  /** Leaves for good: unanswered submits are answered `client/closed`. */
  close(): void {
    this.stopped = true;
    if (this.browser) {
      page.removeEventListener?.('offline', this.goneOffline);
      page.removeEventListener?.('online', this.backOnline);
    }
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.socket?.close(1000, 'left');
    this.answerAll({ ok: false, code: 'client/closed', message: 'the client was closed' });
  }

  private answerAll(answer: SubmitAnswer): void {
    const waiting = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const w of waiting) w.resolve(answer);
  }

  /** The oldest submit of this key still waiting for the server's answer. */
  private unanswered(key: string): Waiting | undefined {
    return this.waiting.get(key)?.find((w) => w.accepted === undefined);
  }

  private answered(key: string, w: Waiting, answer: SubmitAnswer): void {
    const left = (this.waiting.get(key) ?? []).filter((other) => other !== w);
    if (left.length === 0) this.waiting.delete(key);
    else this.waiting.set(key, left);
    w.resolve(answer);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    if (!this.online()) {
      this.set({ connection: 'offline' });
      return;
    }
    this.set({ connection: 'connecting' });
    let url: string;
    try {
      url = await socketUrl(this.options);
    } catch (error) {
      // The credential itself refused (the link revoked, the session ended): no retry helps.
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'auth/revoked' || code === 'auth/invalid') {
        const message = error instanceof Error ? error.message : String(code);
        this.set({ connection: 'offline', fatal: message });
        this.answerAll({ ok: false, code, message });
        return;
      }
      // No ticket now (the server is away): try again later.
      this.retry();
      return;
    }
    if (this.stopped) return;
    const socket = new this.WebSocketClass(url);
    this.socket = socket;
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.sendOn(socket, { type: 'hello', since: lastSeq(this.followed) });
      // Every submit not answered goes again with its key: applied once, whatever was lost.
      for (const waiting of this.waiting.values()) {
        for (const w of waiting) if (w.accepted === undefined) this.sendOn(socket, w.message);
      }
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) this.sendOn(socket, message);
      if (this.current.pending?.queued) {
        this.set({ pending: { ...this.current.pending, queued: false } });
      }
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), this.options.pingMs ?? 20_000);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      this.receive(message);
    };
    // A socket that fails to open closes too; the close is where the retry is decided.
    socket.onerror = () => {};
    socket.onclose = () => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      if (this.stopped || this.current.fatal !== null) return;
      if (!this.online()) {
        this.set({ connection: 'offline' });
        return;
      }
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    this.set({ connection: 'connecting' });
    const attempt = this.retries;
    const pauseMs = (this.options.backoff ?? DEFAULT_BACKOFF)(attempt);
    this.retries += 1;
    this.emit('retry', { attempt, pauseMs });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), pauseMs);
  }

  /** Closes the socket as a network failure would: the client reconnects by itself. */
  drop(): void {
    this.socket?.close(4003, 'dropped');
  }

  private ping(): void {
    const socket = this.socket;
    if (socket?.readyState !== OPEN) return;
    this.sendOn(socket, { type: 'ping' });
    clearTimeout(this.pongTimer);
    // No answer: the connection is dead without having said so (a phone changing networks).
    this.pongTimer = setTimeout(
      () => socket.close(4001, 'no pong'),
      this.options.pongWaitMs ?? 10_000,
    );
  }

  private sendOn(socket: WebSocketLike, message: ClientMessage): void {
    socket.send(JSON.stringify(message));
  }

  private send(message: ClientMessage): boolean {
    if (this.socket?.readyState === OPEN) {
      this.sendOn(this.socket, message);
      return true;
    }
    return false;
  }

  private receive(message: ServerMessage): void {
    this.emit('message', message);
    const followup = follow(this.followed, message);
    const changed = followup.followed !== this.followed;
    this.followed = followup.followed;
    if (followup.hello !== undefined) this.send({ type: 'hello', since: followup.hello });
    const held: Partial<ClientSnapshot> = changed
      ? { entries: this.followed.entries, state: this.followed.state }
      : {};
    switch (message.type) {
      case 'welcome': {
        if (message.protocol !== CLIENT_PROTOCOL) {
          this.set({
            fatal: `the server speaks protocol ${message.protocol}, this client ${CLIENT_PROTOCOL}: reload the page, or update the client`,
          });
          this.socket?.close(1000, 'protocol');
          this.answerAll({ ok: false, code: 'client/protocol', message: 'protocol mismatch' });
          return;
        }
        const reconnects = this.everOpened ? this.current.reconnects + 1 : 0;
        this.everOpened = true;
        this.retries = 0;
        this.set({ role: message.role, encounter: message.encounter, reconnects });
        return;
      }
      case 'state':
      case 'entry':
      case 'changed':
        this.set({ ...held, ...(this.followed.resyncing ? {} : { connection: 'open' }) });
        break;
      case 'entries':
        if (changed) this.set(held);
        break;
      case 'accepted': {
        const waiting = this.unanswered(message.key);
        if (waiting !== undefined) {
          waiting.accepted = { seq: message.seq, duplicate: message.duplicate };
        }
        if (this.current.pending?.key === message.key) this.set({ pending: null, refusal: null });
        break;
      }
      case 'refused':
        this.refused(message);
        if (changed) this.set(held);
        break;
      case 'rolled': {
        const { type: _, ...rolled } = message;
        this.set({ rolls: [rolled, ...this.current.rolls].slice(0, this.options.keepRolls ?? 50) });
        return;
      }
      case 'gm-rolls':
        // Every hello brings the kept ones again: what this client holds is replaced.
        this.set({
          rolls: [...message.rolls].reverse().slice(0, this.options.keepRolls ?? 50),
        });
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
        if (changed) this.set(held);
        this.emit('presence', message);
        return;
    }
    for (const entry of followup.fresh) this.emit('entry', entry);
    this.answerApplied();
  }

  /** Accepted submits are answered once the state holds their entry. */
  private answerApplied(): void {
    if (this.followed.resyncing) return;
    const seq = this.current.state?.seq ?? 0;
    for (const [key, waiting] of [...this.waiting]) {
      for (const w of waiting) {
        if (w.accepted !== undefined && w.accepted.seq <= seq) {
          this.answered(key, w, { ok: true, ...w.accepted });
        }
      }
    }
  }

  private refused(message: Extract<ServerMessage, { type: 'refused' }>): void {
    if (message.code === 'sync/ahead') return;
    if (message.code === 'sync/too-often') {
      // This link asked for too many catch-ups at once (many screens on one link): ask again.
      const socket = this.socket;
      setTimeout(() => {
        if (socket !== this.socket || socket?.readyState !== OPEN) return;
        this.sendOn(socket, { type: 'hello', since: lastSeq(this.followed) });
      }, message.retryMs ?? 1000);
      return;
    }
    const waiting = message.key === undefined ? undefined : this.unanswered(message.key);
    if (waiting !== undefined) {
      this.answered(message.key!, waiting, {
        ok: false,
        code: message.code,
        message: message.message,
        ...(message.current === undefined ? {} : { current: message.current }),
        ...(message.purpose === undefined ? {} : { purpose: message.purpose }),
      });
    }
    const mine = message.key !== undefined && this.current.pending?.key === message.key;
    const what = mine ? this.current.pending!.what : 'the last request';
    // A revoked link is fatal however long it was open: connecting again is refused.
    const fatal =
      FATAL.test(message.code) &&
      message.key === undefined &&
      (!this.everOpened || message.code === 'auth/revoked');
    this.set({
      refusal: {
        code: message.code,
        message: message.message,
        what,
        ...(message.current === undefined ? {} : { current: message.current }),
        ...(message.purpose === undefined ? {} : { purpose: message.purpose }),
      },
      ...(mine ? { pending: null } : {}),
      ...(fatal ? { fatal: message.message } : {}),
    });
    if (fatal) {
      this.answerAll({ ok: false, code: message.code, message: message.message });
    }
  }

  /**
   * Submits against the state this client holds (or `expect`): if the encounter moved on
   * meanwhile, the server refuses it as stale and says why. Resolves once it is applied and the
   * state holds it, or with the refusal; a submit sent while the socket was down goes after the
   * next hello, and one whose answer was lost goes again with the same key.
   */
  submit(action: SubmitAction, options: SubmitOptions = {}): Promise<SubmitAnswer> {
    const expect = options.expect ?? (this.current.state?.seq ?? 0) + 1;
    const key = options.key ?? (this.options.newKey ?? randomKey)();
    const dice = options.dice;
    const message: Extract<ClientMessage, { type: 'submit' }> = {
      type: 'submit',
      expect,
      key,
      action,
      ...(dice === undefined || Object.keys(dice).length === 0 ? {} : { dice }),
    };
    if (this.current.fatal !== null) {
      return Promise.resolve({ ok: false, code: 'client/closed', message: this.current.fatal });
    }
    const answered = new Promise<SubmitAnswer>((resolve) => {
      this.waiting.set(key, [...(this.waiting.get(key) ?? []), { message, resolve }]);
    });
    const sent = this.send(message);
    this.set({
      pending: { key, what: options.what ?? action.kind, queued: !sent },
      refusal: null,
    });
    return answered;
  }

  /** GM only: a roll outside the log; it comes back in `rolls`. */
  roll(notation: string, secret: boolean, label?: string): void {
    this.sendOrQueue({ type: 'roll', notation, secret, ...(label ? { label } : {}) });
  }

  /** GM only: show (or hide again) a combatant's exact figures to the players. */
  reveal(combatant: string, revealed: boolean): void {
    this.sendOrQueue({ type: 'reveal', combatant, revealed });
  }

  /**
   * Player only, when the players roll what orders a round: its own character's roll for the
   * round's command (`initiative:hiro`), held by the server until then; `null` takes it back.
   */
  hold(purpose: string, roll: Extract<ClientMessage, { type: 'hold' }>['roll']): void {
    this.sendOrQueue({ type: 'hold', purpose, roll });
  }

  private sendOrQueue(message: ClientMessage): void {
    if (!this.send(message)) this.queue.push(message);
  }

  dismissRefusal(): void {
    this.set({ refusal: null });
  }

  /** Who is connected now, as the role may see it. */
  get connected(): readonly Connected[] {
    return this.current.state?.connected ?? [];
  }
}
