import type { ContentLibrary } from '../../content/index.js';
import {
  type AnyEncounter,
  type CommandBase,
  type EncounterCheckpoint,
  type EngineError,
  type EnteredRolls,
  type EventBase,
  enteredMisfit,
  type LegalAction,
  type LogEntry,
  loadEncounter,
  type Result,
  recordedRolls,
} from '../../engine/index.js';
import { StatesAfterEntries } from '../../engine/states-after.js';
import { diff, type JsonValue, jsonEqual, SharedPatches } from '../../json-patch/index.js';
import type { AnySystem, EncounterView, OrderRolls } from '../../rulesets/system.js';
import {
  gmCommandFrom,
  gmExamplesOf,
  oddsOf,
  type Secrecy,
  type SeenView,
  secrecyFor,
  seenEntry,
  seenView,
} from '../../session/index.js';
import { playersSide } from '../../sim/players.js';
import type { EncounterRecord, HeldRollMoves, HeldRollRecord, Store } from '../../store/index.js';
import { POSTGRES_TIMEOUTS } from '../../store/open-defaults.js';
import { StorageError } from '../../store/unavailable.js';
import { CLOSE } from '../close-codes.js';
import { SERVER_LIMITS } from '../limits.js';
import { checkSubmit, offeredTo } from '../permissions.js';
import type {
  ClientMessage,
  Connected,
  GmKit,
  OfferedAction,
  Role,
  SeenEntry,
  ServerMessage,
  StatePayload,
  Who,
} from '../protocol.js';
import { Presence, type PresenceChange, whoOf } from './presence.js';

/** Sheets the GM's add panel lists at most: content is the server's, not a client's, to size. */
const KIT_NEWCOMERS = 1000;

/** One socket as an encounter sees it: who it speaks for, and how to reach it. */
export interface LiveClient {
  readonly role: Role;
  /** The link (token id) the socket came in with: its caps, throttles and revocation. */
  readonly linkId: string;
  send(message: ServerMessage): void;
  /** The same message already as JSON: a broadcast is serialized once per audience. */
  sendText(text: string): void;
  close(code: number, reason: string): void;
}

export interface HostContext {
  readonly store: Store;
  readonly systemOf: (rulesetId: string) => AnySystem | undefined;
  /**
   * The content `gm add` finds newcomers in: the table's library as it is now (the GM may have
   * changed it since the fight began; what the fight already holds it keeps).
   */
  readonly libraryOf: (tableId: string, system: AnySystem) => Promise<ContentLibrary | undefined>;
  readonly log: (level: 'info' | 'warn' | 'error', message: string, fields?: object) => void;
  /** The quota on an encounter's log; `SERVER_LIMITS.entriesPerEncounter` unless given. */
  readonly entriesPerEncounter?: number;
  /** How long a submit may wait for its answer; `SUBMIT_ANSWER_MS` unless given. */
  readonly submitAnswerMs?: number;
  /** How long a link whose last socket closed shows as reconnecting before it has left. */
  readonly presenceGraceMs?: number;
  /** Tells the other processes how many sockets of a link this one now holds here (the hub). */
  readonly publishPresence?: (encounterId: string, link: string, who: Who, sockets: number) => void;
  /** A socket of a link opened or closed here: it is at the encounter's table too (the hub). */
  readonly linkSocket?: (
    tableId: string,
    link: string,
    role: Role,
    delta: 1 | -1,
    final: boolean,
  ) => void;
}

/**
 * `HostContext.submitAnswerMs` unless given: one PostgreSQL query's worst wait (a connection
 * within `connectMs`, its answer within `queryMs`), the longest a healthy submit could need.
 */
export const SUBMIT_ANSWER_MS = POSTGRES_TIMEOUTS.connectMs + POSTGRES_TIMEOUTS.queryMs;

/** `HostContext.presenceGraceMs` unless given: a reload, or a phone's network changing. */
export const PRESENCE_GRACE_MS = 5_000;

type Submit = Extract<ClientMessage, { type: 'submit' }>;

/**
 * A client that said hello: the last entry it was sent, and the state it holds (the payload it
 * was sent last, with every patch and presence list after it), which the next patch starts from.
 */
interface Listener {
  sent: number;
  holds: StatePayload;
}

/**
 * The change from one state to the next, as JSON (the payloads are plain JSON throughout), its
 * members' patches shared with the other audiences of the same broadcast that hold them too.
 */
function patchText(from: StatePayload, to: StatePayload, shared: SharedPatches): string {
  return JSON.stringify(diff(from as unknown as JsonValue, to as unknown as JsonValue, shared));
}

/** The present state of the encounter, as `now()` works it out once per change. */
interface Present {
  readonly view: EncounterView;
  readonly party: string | undefined;
  readonly outcome: StatePayload['outcome'];
  readonly legal: readonly LegalAction<CommandBase>[];
  readonly offer: (action: LegalAction<CommandBase>) => OfferedAction;
  readonly byAudience: Map<string, StatePayload>;
  /**
   * The view every role but the GM's is shown: they hide the same combatants (`secrecyFor`),
   * so they are sent one view, and a broadcast patches it once for them all.
   */
  tableView: SeenView | undefined;
  /** Each audience's payload as JSON: every hello and broadcast of this present sends it. */
  readonly textByAudience: Map<string, string>;
  /** The characters of the party: each has a seat of its own (`attach`). */
  readonly partyMembers: readonly string[];
  /** Whose entries the players and spectators now see rendered alike (`entryKey`). */
  tableEntryKey: string | undefined;
  /** The rolls that order the next round, and whether the players enter them (the option). */
  readonly order: OrderRolls;
  /** The players' rolls held for it and not yet spent by a command (`heldNow`). */
  readonly held: readonly HeldRollRecord[];
}

/** A submit refused because the store failed: nothing was stored, and the same key may retry. */
const UNSTORED = 'the entry could not be stored; try again';

function audienceKey(role: Role): string {
  return role.role === 'player' ? `player:${role.characterId}` : role.role;
}

/** How long a catch-up renders entries before it lets the event loop serve everyone else. */
const RENDER_SLICE_MS = 2;

/**
 * Between slices the render rests as long as it ran: on a busy machine a process that keeps
 * the CPU for a long stretch is scheduled late when it next wakes, and every socket of the
 * process waits with it; at half the CPU a first replay takes twice as long and nobody notices.
 */
const yieldToLoop = (): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, RENDER_SLICE_MS));

/**
 * One encounter held live by this process: the engine's encounter rebuilt from the store, the
 * clients watching it, and the one queue its submits go through. The store is the truth: an
 * entry is shown to anyone only once it is committed, and when another process got there
 * first this one reloads from the store instead of trusting what it holds.
 */
export class EncounterHost {
  private readonly clients = new Set<LiveClient>();
  /**
   * The clients that said hello, each with the last entry number it was sent and the state it
   * holds: a client hears about entries only after its hello, each entry once, in order, and
   * each with the patch from the state it holds.
   */
  private readonly listening = new Map<LiveClient, Listener>();
  /**
   * Entries rendered as JSON, by `entryKey`, at `seq - 1`: a replay is read from here instead of
   * being described again for every hello. Made for `rendered.states`; a reload starts afresh.
   */
  private rendered: { states: StatesAfterEntries; texts: Map<string, string[]> } | undefined;
  private readonly keys = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private states: StatesAfterEntries;
  private present: Present | undefined;
  /** Where the encounter was before an entry applied here but not yet stored. */
  private unstored: EncounterCheckpoint | undefined;
  private lastUsed = Date.now();
  /**
   * The last entry pushed to this host's clients: the end of the committed log as they know it.
   * The encounter runs ahead of it only while a submit's entry waits for its append.
   */
  private shown: number;
  /** Who is connected, here and through the other processes. */
  private readonly presence: Presence;
  /**
   * The offers made for the present before this one, by label and command: an offer whose
   * odds and rolls did not change is kept as the same object (and so is its hidden-target
   * form, `withoutKnockOut`), and a patch from one state to the next passes over it unread.
   */
  private offeredBefore = new Map<string, OfferedAction>();
  private readonly withoutKnockOut = new WeakMap<OfferedAction, OfferedAction>();

  private constructor(
    private readonly context: HostContext,
    private record: EncounterRecord,
    readonly system: AnySystem,
    private encounter: AnyEncounter,
    keys: readonly (readonly [string, number])[],
    /**
     * The players' rolls held for the command that rolls them, as the store last said: read again
     * on every notice of the encounter (another process's player may have entered one).
     */
    private held: readonly HeldRollRecord[],
    /**
     * The table's library as last read: what the GM's touch controls and examples offer. Read
     * again on every hello, `gm-kit` and `gm add`, so a GM's edit shows on the next screen.
     */
    private library: ContentLibrary | undefined,
  ) {
    for (const [key, seq] of keys) this.keys.set(key, seq);
    this.states = StatesAfterEntries.of(system.ruleset, encounter.setup, encounter.log);
    this.shown = encounter.logLength;
    this.presence = new Presence(context.presenceGraceMs ?? PRESENCE_GRACE_MS, (change) =>
      this.presenceChanged(change),
    );
  }

  /** Never rejects for an unavailable store: the hub would keep the rejection as the host. */
  static async open(context: HostContext, id: string): Promise<Result<EncounterHost>> {
    let loaded: Awaited<ReturnType<typeof loadFromStore>>;
    let library: ContentLibrary | undefined;
    try {
      loaded = await loadFromStore(context, id);
      if (loaded.ok) {
        library = await context.libraryOf(loaded.value.record.tableId, loaded.value.system);
      }
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      return { ok: false, error: { code: 'server/storage', message: error.message } };
    }
    if (!loaded.ok) return loaded;
    const { record, system, encounter, keys, held } = loaded.value;
    return {
      ok: true,
      value: new EncounterHost(context, record, system, encounter, keys, held, library),
    };
  }

  get id(): string {
    return this.record.id;
  }

  get tableId(): string {
    return this.record.tableId;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  get idleSince(): number {
    return this.clients.size > 0 ? Date.now() : this.lastUsed;
  }

  get lastSeq(): number {
    return this.encounter.logLength;
  }

  get current(): AnyEncounter {
    return this.encounter;
  }

  get status(): EncounterRecord['status'] {
    return this.record.status;
  }

  /**
   * What the GM's touch controls offer now: the system's statuses and clock, and the sheets
   * `gm add` finds in the table's content (characters and monsters), as many as a screen lists.
   */
  async gmKit(): Promise<GmKit> {
    await this.refreshLibrary();
    const library = this.library;
    const newcomers: { kind: string; id: string; name: string }[] = [];
    for (const kind of library?.kinds() ?? []) {
      // `ffrpg/monster`: the sheets of this system's characters and monsters.
      const what = kind.slice(kind.indexOf('/') + 1);
      if (!kind.startsWith(`${this.system.ruleset.id}/`)) continue;
      if (what !== 'character' && what !== 'monster') continue;
      for (const entity of library!.all(kind)) {
        if (newcomers.length === KIT_NEWCOMERS) break;
        // Listed only when `gm add` takes it: its sheet builds from content.
        if (!this.system.newcomer(library!, entity.id).ok) continue;
        const name = (entity as { name?: unknown }).name;
        newcomers.push({
          kind: what,
          id: entity.id,
          name: typeof name === 'string' ? name : entity.id,
        });
      }
    }
    return { menu: this.system.gmMenu(this.encounter.state), newcomers };
  }

  /** Reads the table's library again; a store that fails leaves the one read before. */
  private async refreshLibrary(): Promise<void> {
    try {
      const library = await this.context.libraryOf(this.tableId, this.system);
      if (library !== undefined) this.useLibrary(library);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
    }
  }

  private useLibrary(library: ContentLibrary): void {
    if (library === this.library) return;
    this.library = library;
    // The GM's examples name content: states made with the old library are made again.
    this.present = undefined;
  }

  /**
   * Admits a socket, or says why not. The GM (all its links together) and each character of
   * the party (all its player links together) have a seat of `socketsPerLink` sockets that is
   * always theirs; spectators, and players of characters not in this fight, share what the
   * seats leave of `socketsPerEncounter`. No link holds more than `socketsPerLink`.
   */
  attach(client: LiveClient): Result<void> {
    const perLink = SERVER_LIMITS.socketsPerLink;
    const party = this.now().partyMembers;
    const seatOf = (role: Role): string | undefined =>
      role.role === 'gm'
        ? 'gm'
        : role.role === 'player' && party.includes(role.characterId)
          ? `player:${role.characterId}`
          : undefined;
    const seat = seatOf(client.role);
    let ofLink = 0;
    let ofSeat = 0;
    let shared = 0;
    for (const other of this.clients) {
      if (other.linkId === client.linkId) ofLink++;
      const theirs = seatOf(other.role);
      if (theirs === undefined) shared++;
      else if (theirs === seat) ofSeat++;
    }
    const sharedSeats = Math.max(
      0,
      SERVER_LIMITS.socketsPerEncounter - perLink * (1 + party.length),
    );
    const refuse = (code: string, message: string): Result<void> => ({
      ok: false,
      error: { code, message },
    });
    if (ofLink >= perLink) {
      return refuse(
        'server/link-full',
        `a link holds at most ${perLink} connections to an encounter`,
      );
    }
    if (seat !== undefined && ofSeat >= perLink) {
      return refuse(
        'server/seat-full',
        `a seat holds at most ${perLink} connections to an encounter`,
      );
    }
    if (seat === undefined && shared >= sharedSeats) {
      return refuse(
        'server/encounter-full',
        `spectators hold at most ${sharedSeats} connections to this encounter; the rest are the GM's and the players'`,
      );
    }
    this.clients.add(client);
    this.localPresence(client, 1);
    return { ok: true, value: undefined };
  }

  /** `revoked`: the link cannot come back, so it has left at once, without a grace. */
  detach(client: LiveClient, revoked = false): void {
    if (this.clients.delete(client)) this.localPresence(client, -1, revoked);
    this.listening.delete(client);
    // Nobody left to replay to: the renderings are rebuilt if anyone comes back.
    if (this.clients.size === 0) this.rendered = undefined;
    this.lastUsed = Date.now();
  }

  private localPresence(client: LiveClient, delta: 1 | -1, final = false): void {
    const sockets = this.presence.local(client.linkId, client.role, delta, final);
    this.context.publishPresence?.(this.id, client.linkId, whoOf(client.role), sockets);
    this.context.linkSocket?.(this.record.tableId, client.linkId, client.role, delta, final);
  }

  /** What another process holds of a link here (the hub hears it from the store's feed). */
  remotePresence(notice: Parameters<Presence['remote']>[0]): void {
    this.presence.remote(notice);
  }

  /** Another process is gone: its sockets here are no more. */
  forgetProcess(process: string): void {
    this.presence.forget(process);
  }

  /** What every other process said is dropped, to be asked again (notices were missed). */
  forgetElsewhere(): void {
    this.presence.forgetElsewhere();
  }

  /** This process's links here and their sockets, for a process that asks. */
  localPresenceList(): { link: string; who: Who; sockets: number }[] {
    return this.presence.mine().map(([link, { who, sockets }]) => ({ link, who, sockets }));
  }

  /** Who is connected as the role may see it: link ids are the GM's alone. */
  private connectedFor(role: Role): Connected[] {
    return role.role === 'gm' ? this.presence.list() : this.presence.listWithoutLinks();
  }

  /**
   * Tells every client that said hello, the GM with the link; the state payloads cached carry
   * the list, so they are made again.
   */
  private presenceChanged(change: PresenceChange): void {
    this.present?.byAudience.clear();
    this.present?.textByAudience.clear();
    let gm: string | undefined;
    let others: string | undefined;
    // Each client puts the list in the state it holds; so does what the next patch starts from.
    const withList = new Map<StatePayload, StatePayload>();
    for (const [client, listener] of this.listening) {
      let holds = withList.get(listener.holds);
      if (holds === undefined) {
        holds = { ...listener.holds, connected: this.connectedFor(client.role) };
        withList.set(listener.holds, holds);
      }
      listener.holds = holds;
      if (client.role.role === 'gm') {
        gm ??= JSON.stringify({
          type: change.event,
          who: change.who,
          link: change.link,
          connected: this.connectedFor(client.role),
        });
        client.sendText(gm);
      } else {
        others ??= JSON.stringify({
          type: change.event,
          who: change.who,
          connected: this.connectedFor(client.role),
        });
        client.sendText(others);
      }
    }
  }

  /** The links this host's clients came in with. */
  links(): Set<string> {
    return new Set([...this.clients].map((client) => client.linkId));
  }

  /** Every socket of a revoked link is told why and closed; it hears nothing more from here. */
  revoke(linkId: string): void {
    this.presence.revoked(linkId);
    for (const client of [...this.clients]) {
      if (client.linkId !== linkId) continue;
      this.detach(client, true);
      client.send({ type: 'refused', code: 'auth/revoked', message: 'this link was revoked' });
      client.close(CLOSE.revoked, 'revoked');
    }
  }

  /**
   * Whether the client's link still holds, read from the store before anything it asks changes
   * the encounter: a revocation's notice can be missed (a lost connection, or a SQLite file
   * revoked from another process), and then only this check stands between it and the log.
   */
  private async linkHolds(
    client: LiveClient,
    key?: string,
    answer: (reply: ServerMessage) => void = (reply) => client.send(reply),
  ): Promise<boolean> {
    let live: boolean;
    try {
      live = await this.context.store.tokenLive(client.linkId);
    } catch (error) {
      this.context.log('error', 'link check failed', { encounter: this.id, error: String(error) });
      answer({
        type: 'refused',
        ...(key === undefined ? {} : { key }),
        code: 'server/storage',
        message: 'the link could not be checked; try again',
      });
      return false;
    }
    if (!live) {
      if (key !== undefined) {
        answer({
          type: 'refused',
          key,
          code: 'auth/revoked',
          message: 'this link was revoked',
        });
      }
      this.revoke(client.linkId);
    }
    return live;
  }

  /**
   * Every entry after `since` the client may see, in batches, then the present; from then on
   * every new entry. Queued with the submits, so no append is in flight while the log is read:
   * the catch-up ends exactly where the broadcasts begin. Rendering yields to the event loop
   * every few milliseconds, so a long log being described does not stall other tables.
   */
  hello(client: LiveClient, since: number): Promise<void> {
    return this.exclusive(async () => {
      if (!this.clients.has(client)) return;
      await this.refreshLibrary();
      const last = this.lastSeq;
      if (since > last) {
        client.send({
          type: 'refused',
          code: 'sync/ahead',
          message: `this encounter has ${last} entries, not ${since}: say hello from 0`,
          current: last,
        });
        return;
      }
      const log = this.encounter.log;
      let sliceStart = performance.now();
      for (let from = since; from < last; from += SERVER_LIMITS.entriesPerCatchUp) {
        const to = Math.min(last, from + SERVER_LIMITS.entriesPerCatchUp);
        const texts: string[] = [];
        for (let i = from; i < to; i++) {
          texts.push(this.entryText(client.role, log[i]!));
          if (performance.now() - sliceStart > RENDER_SLICE_MS) {
            await yieldToLoop();
            if (!this.clients.has(client)) return;
            sliceStart = performance.now();
          }
        }
        client.sendText(`{"type":"entries","entries":[${texts.join(',')}]}`);
      }
      client.sendText(this.stateText(client.role));
      this.listening.set(client, { sent: last, holds: this.statePayload(client.role) });
      // The GM's rolls outside the log, which no player or spectator is ever sent.
      if (client.role.role === 'gm') {
        const rolls = await this.context.store.gmRolls(this.id);
        if (this.clients.has(client)) client.send({ type: 'gm-rolls', rolls });
      }
    });
  }

  /**
   * Runs `task` after every earlier one: the encounter changes one submit at a time. A task the
   * store failed (down, or past its timeouts) ends there, logged, with `unavailable` told: its
   * callers do not await it, and a rejection nobody handles would stop the whole server.
   */
  private exclusive(task: () => Promise<void>, unavailable?: () => void): Promise<void> {
    const guarded = async (): Promise<void> => {
      try {
        await task();
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
        this.context.log('error', 'the store is unavailable', {
          encounter: this.id,
          error: String(error.cause),
        });
        unavailable?.();
      }
    };
    const run = this.queue.then(guarded, guarded);
    this.queue = run.catch(() => undefined);
    return run;
  }

  submit(client: LiveClient, message: Submit): Promise<void> {
    // One answer per submit, and within a bound from its arrival: a store that hangs holds
    // whatever is queued ahead of it (a hello's read, a reload) as well as this submit's own
    // reads, and their waits would add up. Past the bound the client is told to try again; a
    // submit whose turn comes after that does nothing, and one already appending may still be
    // stored, which its retry with the same key then finds (the usual answer to `server/storage`).
    let answered = false;
    const answer = (reply: ServerMessage): void => {
      if (answered) return;
      answered = true;
      clearTimeout(late);
      client.send(reply);
    };
    const late = setTimeout(
      () =>
        answer({
          type: 'refused',
          key: message.key,
          code: 'server/storage',
          message: 'the database did not answer in time; try again',
        }),
      this.context.submitAnswerMs ?? SUBMIT_ANSWER_MS,
    );
    const unavailable = (): void =>
      answer({ type: 'refused', key: message.key, code: 'server/storage', message: UNSTORED });
    return this.exclusive(async () => {
      const tell = (
        error: Pick<EngineError, 'code' | 'message' | 'purpose'>,
        current?: number,
      ): void =>
        answer({
          type: 'refused',
          key: message.key,
          code: error.code,
          message: error.message,
          ...(current === undefined ? {} : { current }),
          // The screen marks the one entry that is wrong and keeps the rest as typed.
          ...(error.purpose === undefined ? {} : { purpose: error.purpose }),
        });
      // The link is checked by the append's own statement; an answer without an append checks
      // it first, so a revoked link hears nothing but that (a store that failed says only so).
      const refuse = async (
        error: Pick<EngineError, 'code' | 'message' | 'purpose'>,
        current?: number,
      ): Promise<void> => {
        if (await this.linkHolds(client, message.key, answer)) tell(error, current);
      };
      if (answered) return;
      const earlier = this.keys.get(message.key);
      if (earlier !== undefined) {
        if (!(await this.linkHolds(client, message.key, answer))) return;
        answer({ type: 'accepted', key: message.key, seq: earlier, duplicate: true });
        return;
      }
      if (this.record.status !== 'active') {
        await refuse({
          code: 'encounter/closed',
          message: `this encounter is ${this.record.status}`,
        });
        return;
      }
      const most = this.context.entriesPerEncounter ?? SERVER_LIMITS.entriesPerEncounter;
      if (this.lastSeq >= most) {
        await refuse({
          code: 'quota/entries',
          message: `an encounter keeps at most ${most} entries: finish or abandon it, and start another`,
        });
        return;
      }
      if (message.expect > this.lastSeq + 1) await this.catchUp();
      if (answered) return;
      if (message.expect !== this.lastSeq + 1) {
        await refuse(
          {
            code: 'submit/stale',
            message: `the encounter has moved on: entry ${this.lastSeq + 1} is next, not ${message.expect}`,
          },
          this.lastSeq,
        );
        return;
      }
      const order = this.now().order;
      if (order.on && order.slots.length > 0) {
        // A player on another process may have held a roll a moment ago, its notice not yet
        // here. Read only while a roll is ahead to be held; and a store that does not answer
        // refuses the submit now, as its append would, rather than after two waits.
        let held: readonly HeldRollRecord[];
        try {
          held = await this.context.store.heldRolls(this.id);
        } catch (error) {
          this.context.log('error', 'held rolls unread', {
            encounter: this.id,
            error: String(error instanceof StorageError ? error.cause : error),
          });
          tell({ code: 'server/storage', message: UNSTORED });
          return;
        }
        if (answered) return;
        if (JSON.stringify(held) !== JSON.stringify(this.held)) {
          this.held = held;
          this.present = undefined;
        }
      }
      // Read before the checkpoint: nothing else runs in this encounter meanwhile (exclusive).
      const library =
        message.action.kind === 'gm' && /^\s*(gm\s+)?add\b/i.test(message.action.line)
          ? await this.context.libraryOf(this.tableId, this.system)
          : undefined;
      if (answered) return;
      if (library !== undefined) this.useLibrary(library);
      const before = this.encounter.checkpoint();
      const applied = this.apply(client.role, message, library);
      if (!applied.ok) {
        await refuse(applied.error);
        return;
      }
      this.unstored = before;
      const entry = this.encounter.entryAt(this.encounter.logLength)!;
      const moves = this.heldMoves(entry);
      let appended: Awaited<ReturnType<Store['appendEntry']>>;
      try {
        appended = await this.context.store.appendEntry(this.id, entry.seq, message.key, entry, {
          held: moves,
          link: client.linkId,
        });
      } catch (error) {
        // Taken back here, not reloaded: the store is what failed, and a reload would wait on it
        // (and, failing too, keep an entry nobody stored). Should the append have committed
        // after all, the store says so on the next submit (stale, or this key a duplicate).
        this.takeBackUnstored();
        this.context.log('error', 'append failed', {
          encounter: this.id,
          error: String(error instanceof StorageError ? error.cause : error),
        });
        tell({ code: 'server/storage', message: UNSTORED });
        return;
      }
      if (!appended.ok && appended.code === 'revoked') {
        this.takeBackUnstored();
        answer({
          type: 'refused',
          key: message.key,
          code: 'auth/revoked',
          message: appended.message,
        });
        this.revoke(client.linkId);
        return;
      }
      if (appended.ok && appended.duplicate !== true) {
        this.keys.set(message.key, appended.seq);
        this.states.push(entry);
        this.changed();
        // Before anyone is told: the held rolls as the store now has them, spent or held again.
        await this.movedHeld(moves);
        answer({ type: 'accepted', key: message.key, seq: appended.seq, duplicate: false });
        this.broadcast(entry);
        return;
      }
      // Another process appended first (or this key already was): what the store holds is the
      // truth, and this process's clients see it (reload pushes it) before the answer, so a
      // retry decided from the entries they hold expects the right number.
      await this.reload();
      if (appended.ok) {
        answer({ type: 'accepted', key: message.key, seq: appended.seq, duplicate: true });
      } else if (appended.code === 'stale') {
        tell(
          { code: 'submit/stale', message: 'another submit took that entry number first' },
          this.lastSeq,
        );
      } else if (appended.code === 'closed') {
        tell({ code: 'encounter/closed', message: appended.message });
      } else {
        tell({ code: `store/${appended.code}`, message: appended.message });
      }
    }, unavailable).finally(() => clearTimeout(late));
  }

  /**
   * A GM's roll outside the log (a secret check, a random encounter): kept with the encounter,
   * where the log stands now, then told to the GM's socket alone; a secret one is read out by
   * nobody else. A roll the store could not keep is still told, and logged.
   */
  gmRoll(
    client: LiveClient,
    roll: { readonly notation: string; readonly label?: string; readonly secret: boolean },
    rolled: { readonly total: number; readonly text: string },
  ): Promise<void> {
    return this.exclusive(async () => {
      const kept = {
        notation: roll.notation,
        ...(roll.label === undefined ? {} : { label: roll.label }),
        secret: roll.secret,
        total: rolled.total,
        text: rolled.text,
        afterSeq: this.lastSeq,
        at: new Date().toISOString(),
      };
      try {
        const stored = await this.context.store.addGmRoll(this.id, kept);
        if (!stored.ok)
          this.context.log('warn', 'GM roll not kept', {
            encounter: this.id,
            code: stored.error.code,
          });
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
        this.context.log('error', 'GM roll not kept', {
          encounter: this.id,
          error: String(error.cause),
        });
      }
      client.send({ type: 'rolled', ...kept });
    });
  }

  /** The engine's part of a submit: nothing changes when it refuses. */
  private apply(role: Role, message: Submit, library: ContentLibrary | undefined): Result<unknown> {
    const { action } = message;
    const encounter = this.encounter;
    let command: CommandBase | undefined;
    if (action.kind === 'command') {
      const parsed = encounter.ruleset.parseCommand(action.command);
      if (!parsed.ok) return parsed;
      command = parsed.value;
    }
    const refusal = checkSubmit(this.legal(), role, action, command, message.dice, (c) =>
      this.system.rolls(encounter.state, c),
    );
    if (refusal !== undefined) return { ok: false, error: refusal };
    switch (action.kind) {
      case 'undo':
        return encounter.undo(action.steps);
      case 'redo':
        return encounter.redo(action.steps);
      case 'gm': {
        const line = action.line.replace(/^\s*gm\s+/i, '');
        const gmCommand = gmCommandFrom(this.system, library, encounter.state, line);
        if (!gmCommand.ok) return gmCommand;
        return this.submitWithHeld(gmCommand.value, message.dice ?? {});
      }
      case 'command':
        return this.submitWithHeld(command!, message.dice ?? {});
    }
  }

  /**
   * Submits a command with the dice its submit entered and the players' held rolls it may ask
   * for (those the submit entered itself are the submit's): the log's entry then carries them as
   * rolled at the table. A held roll the command does not roll stays held; one that no longer
   * fits (a total, with the numbers changed since) is left to the dice, not a refusal of the
   * GM's command.
   */
  private submitWithHeld(command: CommandBase, dice: EnteredRolls): Result<unknown> {
    const encounter = this.encounter;
    const asked = new Set(this.system.rolls(encounter.state, command).map((s) => s.purpose));
    const held: Record<string, HeldRollRecord['roll']> = {};
    for (const h of this.now().held)
      if (asked.has(h.purpose) && !Object.hasOwn(dice, h.purpose)) held[h.purpose] = h.roll;
    for (;;) {
      const optional = Object.keys(held);
      const submitted = encounter.submit(command, {
        entered: { ...held, ...dice },
        explain: true,
        ...(optional.length === 0 ? {} : { optional }),
      });
      const misfit = submitted.ok ? undefined : submitted.error.purpose;
      if (misfit === undefined || !Object.hasOwn(held, misfit)) return submitted;
      delete held[misfit];
    }
  }

  /**
   * What an entry about to be stored does to the held rolls, stored with it in one transaction
   * (so an append that fails leaves them as they were): a command spends the held rolls of the
   * purposes it rolled, whether it used them or the GM entered others; an undo holds again, as
   * entered, what the commands it takes back spent; a redo spends again, command by command,
   * what the commands it puts back roll. Undefined when nothing is to move.
   */
  private heldMoves(entry: LogEntry<CommandBase, EventBase>): HeldRollMoves | undefined {
    if (entry.type === 'undo') {
      const restore = this.mayHoldAgain(entry);
      return restore.length === 0 ? undefined : { restore };
    }
    if (this.held.length === 0) return undefined;
    const commands =
      entry.type === 'command' ? [entry] : this.encounter.appliedCommands.slice(-entry.steps);
    const left = new Set(this.held.map((h) => h.purpose));
    const spend: { seq: number; purposes: string[] }[] = [];
    for (const command of commands) {
      const purposes = [
        ...new Set(recordedRolls(command.events).map((r) => r.purpose.replace(/#\d+$/, ''))),
      ].filter((p) => left.has(p));
      if (purposes.length === 0) continue;
      for (const p of purposes) left.delete(p);
      spend.push({ seq: command.seq, purposes });
    }
    return spend.length === 0 ? undefined : { spend };
  }

  /**
   * The commands an undo (the log's newest entry) took back that may have spent a player's
   * held roll: the undone stack ends with them, and only one that rolled entered dice can have
   * (the rest, most, move nothing and append alone).
   */
  private mayHoldAgain(entry: LogEntry<CommandBase, EventBase>): number[] {
    if (entry.type !== 'undo') return [];
    return this.encounter.undoneCommands
      .slice(-entry.steps)
      .filter((c) => recordedRolls(c.events).some((r) => r.entered))
      .map((c) => c.seq);
  }

  /**
   * After an entry and its `HeldRollMoves` are stored: the spent rolls left out, those held
   * again read back (should that read fail, the store's notice of the change reads them later).
   */
  private async movedHeld(moves: HeldRollMoves | undefined): Promise<void> {
    if (moves === undefined) return;
    const spent = new Set((moves.spend ?? []).flatMap((s) => s.purposes));
    if (spent.size > 0) this.held = this.held.filter((h) => !spent.has(h.purpose));
    if ((moves.restore ?? []).length > 0) await this.readHeld();
    this.present = undefined;
  }

  /** Reads the held rolls again; one the store does not answer leaves them as they were. */
  private async readHeld(): Promise<void> {
    try {
      this.held = await this.context.store.heldRolls(this.id);
      this.present = undefined;
    } catch (error) {
      this.context.log('warn', 'held rolls unread', {
        encounter: this.id,
        error: String(error instanceof StorageError ? error.cause : error),
      });
    }
  }

  /**
   * A player's own roll that orders the next round, entered ahead of the command that rolls it
   * (the encounter's option on): checked as that command will read it, held in the store, and
   * shown to the GM as entered; `null` takes it back. Refused, and nothing held, when the option
   * is off, the roll is not its character's, or the dice do not fit.
   */
  hold(client: LiveClient, purpose: string, roll: HeldRollRecord['roll'] | null): Promise<void> {
    const refuse = (code: string, message: string, marked = true): void =>
      client.send({ type: 'refused', code, message, ...(marked ? { purpose } : {}) });
    return this.exclusive(
      async () => {
        const role = client.role;
        if (role.role !== 'player') {
          refuse(
            'role/players-hold',
            role.role === 'gm'
              ? 'the GM enters these with the command that rolls them, not ahead of it'
              : 'a spectator watches: it cannot enter rolls',
            false,
          );
          return;
        }
        if (!(await this.linkHolds(client))) return;
        if (this.record.status !== 'active') {
          refuse('encounter/closed', `this encounter is ${this.record.status}`, false);
          return;
        }
        const order = this.system.orderRolls(this.encounter.state);
        if (!order.on) {
          refuse(
            'hold/off',
            `this encounter's option ${order.option} is off: the GM rolls ${order.name} (docs/rulings.md, "Who rolls Initiative")`,
          );
          return;
        }
        const me = role.characterId;
        const slot = order.slots.find((s) => s.purpose === purpose);
        if (slot?.roller !== me) {
          const mine = order.slots.filter((s) => s.roller === me).map((s) => s.purpose);
          refuse(
            'role/not-your-roll',
            `'${purpose}' is not ${me}'s ${order.name} to enter: ${mine.length === 0 ? `${me} has none ahead` : `${me}'s is ${mine.join(', ')}`}`,
          );
          return;
        }
        if (roll === null) {
          await this.context.store.dropHeldRolls(this.id, [purpose]);
        } else {
          const misfit = enteredMisfit(purpose, slot.notation, roll, order.variables?.[purpose]);
          if (misfit !== undefined) {
            refuse(misfit.code, misfit.message);
            return;
          }
          const stored = await this.context.store.holdRoll(this.id, {
            purpose,
            roller: me,
            roll,
            afterSeq: this.lastSeq,
            at: new Date().toISOString(),
          });
          if (!stored.ok) {
            refuse(stored.error.code, stored.error.message, false);
            return;
          }
        }
        this.held = await this.context.store.heldRolls(this.id);
        this.sendStates();
      },
      () => refuse('server/storage', 'the roll could not be held; enter it again', false),
    );
  }

  /** GM only: show or hide a combatant's exact figures; every process's clients hear it. */
  reveal(client: LiveClient, combatant: string, revealed: boolean): Promise<void> {
    return this.exclusive(async () => {
      if (client.role.role !== 'gm') {
        client.send({ type: 'refused', code: 'role/gm-only', message: 'only the GM reveals' });
        return;
      }
      if (!(await this.linkHolds(client))) return;
      const known = this.system
        .view(this.encounter.state)
        .combatants.some((c) => c.id === combatant);
      if (!known) {
        client.send({
          type: 'refused',
          code: 'reveal/unknown-combatant',
          message: `no combatant '${combatant}' in this encounter`,
        });
        return;
      }
      const next = new Set(this.record.revealed);
      if (revealed) next.add(combatant);
      else next.delete(combatant);
      const stored = await this.context.store.setRevealed(this.id, [...next]);
      if (!stored.ok) {
        client.send({ type: 'refused', ...stored.error });
        return;
      }
      this.record = stored.value;
      this.sendStates();
    });
  }

  /** Another process (or an import) changed the encounter: read what the store holds. */
  changedElsewhere(seq: number): Promise<void> {
    return this.exclusive(async () => {
      if (seq === 0) await this.readRecord();
      else if (seq > this.lastSeq) await this.catchUp();
    });
  }

  /**
   * After a lost notification connection: anything may have been missed, entries and changes
   * of the record (a reveal, a finished fight) alike.
   */
  resync(): Promise<void> {
    return this.exclusive(async () => {
      await this.catchUp();
      await this.readRecord();
    });
  }

  /** Reads the record (and the held rolls) again; clients get a state if what they see of it changed. */
  private async readRecord(): Promise<void> {
    const record = await this.context.store.getEncounter(this.id);
    if (record === undefined) return;
    const held = await this.context.store.heldRolls(this.id);
    const revealedChanged = record.revealed.join() !== this.record.revealed.join();
    const statusChanged = record.status !== this.record.status;
    const heldChanged = JSON.stringify(held) !== JSON.stringify(this.held);
    this.record = record;
    this.held = held;
    if (revealedChanged || statusChanged || heldChanged) this.sendStates();
  }

  /**
   * Applies, in order, whatever the store holds beyond this copy. Entries another process
   * committed are checked by the engine one by one (a command decided again with its logged
   * dice, as a save's are), then sent to this process's clients as if submitted here; one that
   * does not follow makes this copy reload the whole encounter from the store.
   */
  private async catchUp(): Promise<void> {
    const rows = await this.context.store.entriesSince(this.id, this.lastSeq);
    for (const row of rows) {
      if (row.seq !== this.lastSeq + 1) break;
      const appended = this.encounter.appendLogged(row.entry);
      if (!appended.ok) {
        this.context.log('warn', 'an entry from the store does not follow; reloading', {
          encounter: this.id,
          seq: row.seq,
          error: appended.error.message,
        });
        await this.reload();
        return;
      }
      this.keys.set(row.idempotencyKey, row.seq);
      this.states.push(appended.value);
      this.changed();
      // Another process's undo (or redo) may have moved held rolls with it: shown with the entry.
      const moved =
        row.entry.type === 'redo' ||
        (row.entry.type === 'undo' && this.mayHoldAgain(appended.value).length > 0);
      if (moved) await this.readHeld();
      this.broadcast(appended.value);
    }
  }

  /**
   * Replaces this copy with what the store holds, then pushes the clients every committed entry
   * they were not shown yet (another process's, found by reloading, must not be skipped: the
   * notification for it will find nothing new), or else a state if the record changed. Never
   * throws: when the store cannot be read, the copy stays as it was, less any entry applied
   * here that the store did not take, so it is still one the store held and the next submit or
   * catch-up starts from there.
   */
  private async reload(): Promise<boolean> {
    let loaded: Awaited<ReturnType<typeof loadFromStore>>;
    try {
      loaded = await loadFromStore(this.context, this.id);
    } catch (error) {
      loaded = { ok: false, error: { code: 'server/storage', message: String(error) } };
    }
    if (!loaded.ok) {
      this.context.log('error', 'reload failed', {
        encounter: this.id,
        error: loaded.error.message,
      });
      this.takeBackUnstored();
      return false;
    }
    this.encounter = loaded.value.encounter;
    this.held = loaded.value.held;
    this.keys.clear();
    for (const [key, seq] of loaded.value.keys) this.keys.set(key, seq);
    const before = this.record;
    this.record = loaded.value.record;
    this.states = StatesAfterEntries.of(
      this.system.ruleset,
      this.encounter.setup,
      this.encounter.log,
    );
    this.changed();
    const unseen = this.encounter.entriesBetween(this.shown, this.encounter.logLength);
    if (unseen.length > 0) {
      this.pushUnseen(unseen);
      return true;
    }
    // The notification of the record's change will compare with this record and find none.
    if (
      before.status !== this.record.status ||
      before.revealed.join() !== this.record.revealed.join()
    ) {
      this.sendStates();
    }
    return true;
  }

  /**
   * Undoes the last apply whose entry the store did not take: the log, state and dice as they
   * were, and the present worked out again, so no client is ever shown it or offered what
   * follows it. Nothing else holds it: its key and its state after are kept only once stored.
   */
  private takeBackUnstored(): void {
    if (this.unstored === undefined) return;
    this.encounter.restore(this.unstored);
    this.unstored = undefined;
    this.changed();
  }

  /** Called after the status changed here (a finished fight): every client hears it. */
  async refreshRecord(): Promise<void> {
    await this.exclusive(async () => {
      const record = await this.context.store.getEncounter(this.id);
      if (record !== undefined) this.record = record;
      this.sendStates();
    });
  }

  /** After any change the store holds (or that came from it): nothing is left to take back. */
  private changed(): void {
    this.unstored = undefined;
    this.present = undefined;
    this.lastUsed = Date.now();
  }

  /**
   * What every client's message about the present is built from, worked out once per change:
   * the view, the outcome, the legal actions and each one's odds and rolls. Audiences only
   * filter it.
   */
  private now(): Present {
    if (this.present !== undefined) return this.present;
    const state = this.encounter.state;
    const view = this.system.view(state);
    const outcome = this.encounter.outcome();
    const legal = outcome.over ? [] : this.encounter.legalActions();
    const offers = new Map<LegalAction<CommandBase>, OfferedAction>();
    const offeredBefore = this.offeredBefore;
    const offeredNow = new Map<string, OfferedAction>();
    this.offeredBefore = offeredNow;
    const offer = (action: LegalAction<CommandBase>): OfferedAction => {
      let made = offers.get(action);
      if (made === undefined) {
        // A group (a unit's moves) is listed by the hundred: no odds to work out.
        const odds =
          action.group === undefined ? oddsOf(this.system, state, action.command) : undefined;
        made = {
          label: action.label,
          command: action.command as OfferedAction['command'],
          rolls: this.system.rolls(state, action.command),
          ...(action.group === undefined ? {} : { group: action.group }),
          ...(odds === undefined ? {} : { odds }),
        };
        // The same offer as before this change is the same object: a patch passes over it.
        const key = JSON.stringify([action.label, action.command]);
        const before = offeredBefore.get(key);
        if (before !== undefined && jsonEqual(before, made)) made = before;
        offeredNow.set(key, made);
        offers.set(action, made);
      }
      return made;
    };
    const party = playersSide(this.encounter.setup, view.sides)?.id;
    this.present = {
      view,
      party,
      partyMembers: view.combatants.filter((c) => c.side === party).map((c) => c.id),
      outcome: outcome.over
        ? { over: true, winner: outcome.winner, reason: outcome.reason }
        : { over: false, winner: null, reason: '' },
      legal,
      offer,
      byAudience: new Map(),
      tableView: undefined,
      textByAudience: new Map(),
      tableEntryKey: undefined,
      order: this.system.orderRolls(state),
      held: this.heldNow(),
    };
    return this.present;
  }

  /**
   * The held rolls no command has spent: one is spent by any command logged after it was held
   * that rolled its purpose, whether it used the held roll or the GM entered another, so a roll
   * another process's command spent is never used for a second round here before its notice
   * reads the held rolls again.
   */
  private heldNow(): readonly HeldRollRecord[] {
    if (this.held.length === 0) return this.held;
    const oldest = Math.min(...this.held.map((h) => h.afterSeq));
    const rolledAt = new Map<string, number>();
    for (const entry of this.encounter.entriesBetween(oldest, this.lastSeq)) {
      if (entry.type !== 'command') continue;
      for (const roll of recordedRolls(entry.events))
        rolledAt.set(roll.purpose.replace(/#\d+$/, ''), entry.seq);
    }
    return this.held.filter((h) => (rolledAt.get(h.purpose) ?? 0) <= h.afterSeq);
  }

  /** The order rolls a role is shown: its own character's for a player, the party's for the GM. */
  private orderRollsFor(role: Role): StatePayload['orderRolls'] {
    const { order, held, partyMembers } = this.now();
    if (!order.on || role.role === 'spectator') return undefined;
    const whose =
      role.role === 'gm'
        ? (roller: string | undefined) => roller !== undefined && partyMembers.includes(roller)
        : (roller: string | undefined) => roller === role.characterId;
    const slots = order.slots.filter((s) => whose(s.roller));
    if (slots.length === 0) return undefined;
    const purposes = new Set(slots.map((s) => s.purpose));
    return {
      name: order.name,
      slots,
      held: held.filter((h) => purposes.has(h.purpose) && whose(h.roller)),
    };
  }

  private legal(): readonly LegalAction<CommandBase>[] {
    return this.now().legal;
  }

  private secrecy(role: Role): Secrecy {
    const { view, party } = this.now();
    return secrecyFor(role, view, party, new Set(this.record.revealed));
  }

  /**
   * Which rendering of an entry a role gets. An entry is rendered from itself, the state after
   * it, whether the role is the GM's, and the combatants hidden from the role now: every role
   * but the GM has the same hidden set (`secrecyFor`), so players and spectators share one key,
   * and it changes exactly when that set does (a reveal, a newcomer, a side changing).
   */
  private entryKey(role: Role): string {
    if (role.role === 'gm') return 'gm';
    const present = this.now();
    present.tableEntryKey ??= `table:${JSON.stringify([...this.secrecy(role).hidden].sort())}`;
    return present.tableEntryKey;
  }

  /** The entry as the role sees it, as JSON: rendered once per key, then read back. */
  private entryText(role: Role, entry: LogEntry<CommandBase, EventBase>): string {
    if (this.rendered?.states !== this.states) {
      this.rendered = { states: this.states, texts: new Map() };
    }
    const key = this.entryKey(role);
    const all = this.rendered.texts;
    let texts = all.get(key);
    if (texts === undefined) {
      // A new hidden set: the old one's renderings will never be asked for again.
      if (key !== 'gm') for (const old of all.keys()) if (old !== 'gm') all.delete(old);
      texts = [];
      all.set(key, texts);
    }
    let text = texts[entry.seq - 1];
    if (text === undefined) {
      text = JSON.stringify(this.seenEntryFor(role, entry));
      texts[entry.seq - 1] = text;
    }
    return text;
  }

  /** A `state` message, the whole present as the role sees it, as JSON. */
  private stateText(role: Role): string {
    const present = this.now();
    const key = audienceKey(role);
    let payload = present.textByAudience.get(key);
    if (payload === undefined) {
      payload = JSON.stringify(this.statePayload(role));
      present.textByAudience.set(key, payload);
    }
    // The payload's own fields follow the message's type, as a spread would place them.
    return `{"type":"state",${payload.slice(1)}`;
  }

  private seenEntryFor(role: Role, entry: LogEntry<CommandBase, EventBase>): SeenEntry {
    // An undo or redo names what it moved as the role sees those commands.
    const moved =
      entry.type === 'command'
        ? []
        : this.states.movedBy(entry.seq).flatMap((seq) => {
            const command = this.encounter.entryAt(seq);
            return command === undefined ? [] : [this.seenEntryFor(role, command)];
          });
    return seenEntry(
      this.system,
      entry,
      this.states.afterEntry(entry.seq),
      role,
      this.secrecy(role),
      moved,
    );
  }

  private offered(role: Role, secrecy: Secrecy): readonly OfferedAction[] {
    const present = this.now();
    return offeredTo(role, present.legal).map((action): OfferedAction => {
      const made = present.offer(action);
      const odds = made.odds;
      if (odds?.target !== undefined && secrecy.hidden.has(odds.target)) {
        let hidden = this.withoutKnockOut.get(made);
        if (hidden === undefined) {
          // The chance to knock out, and the detail lines, tell a hidden target's HP.
          const { knockOut: _k, lines: _l, ...rest } = odds;
          hidden = {
            ...made,
            odds: {
              ...rest,
              summary: odds.summary.replace(/\s*·?\s*KO [\d.<>]+%/g, ''),
              lines: [],
            },
          };
          this.withoutKnockOut.set(made, hidden);
        }
        return hidden;
      }
      return made;
    });
  }

  statePayload(role: Role): StatePayload {
    const present = this.now();
    const key = audienceKey(role);
    const cached = present.byAudience.get(key);
    if (cached !== undefined) return cached;
    const secrecy = secrecyFor(role, present.view, present.party, new Set(this.record.revealed));
    const gm = role.role === 'gm';
    const orderRolls = this.orderRollsFor(role);
    const payload: StatePayload = {
      seq: this.lastSeq,
      view: gm
        ? { ...seenView(present.view, role, present.party, secrecy), gmExamples: this.gmExamples() }
        : this.tableView(present, role, secrecy),
      outcome: present.outcome,
      actions: this.record.status === 'active' ? this.offered(role, secrecy) : [],
      undoable: gm ? this.encounter.undoable : 0,
      redoable: gm ? this.encounter.redoable : 0,
      status: this.record.status,
      revealed: gm ? this.record.revealed : [],
      connected: this.connectedFor(role),
      ...(orderRolls === undefined ? {} : { orderRolls }),
    };
    present.byAudience.set(key, payload);
    return payload;
  }

  /** The view every role but the GM's is sent: made once per present, for them all. */
  private tableView(present: Present, role: Role, secrecy: Secrecy): SeenView {
    present.tableView ??= seenView(present.view, role, present.party, secrecy);
    return present.tableView;
  }

  /** The GM screen's example lines, drawn from the fight as it stands. */
  private gmExamples(): readonly string[] {
    return gmExamplesOf(this.system, this.library, this.encounter.state);
  }

  /** The clients that said hello, by audience. */
  private audiences(): Map<string, { role: Role; clients: LiveClient[] }> {
    const groups = new Map<string, { role: Role; clients: LiveClient[] }>();
    for (const client of this.listening.keys()) {
      const key = audienceKey(client.role);
      let group = groups.get(key);
      if (group === undefined) {
        group = { role: client.role, clients: [] };
        groups.set(key, group);
      }
      group.clients.push(client);
    }
    return groups;
  }

  /**
   * One new entry to every client that said hello, each with what its role may see and the
   * patch from the state it holds, worked out and serialized once per audience (once per state
   * held, which is one per audience but for a client that somehow fell behind). A client
   * already sent this entry is skipped; one that somehow missed entries before it is sent those
   * first (every broadcast runs in the queue, so whatever the log holds up to this entry is
   * committed).
   */
  private broadcast(entry: LogEntry<CommandBase, EventBase>): void {
    this.shown = entry.seq;
    const shared = new SharedPatches();
    for (const { role, clients } of this.audiences().values()) {
      const next = this.statePayload(role);
      const texts = new Map<StatePayload, string>();
      for (const client of clients) {
        const listener = this.listening.get(client);
        if (listener === undefined || entry.seq <= listener.sent) continue;
        for (
          let from = listener.sent;
          from < entry.seq - 1;
          from += SERVER_LIMITS.entriesPerCatchUp
        ) {
          const to = Math.min(entry.seq - 1, from + SERVER_LIMITS.entriesPerCatchUp);
          const missed = this.encounter
            .entriesBetween(from, to)
            .map((e) => this.entryText(role, e));
          client.sendText(`{"type":"entries","entries":[${missed.join(',')}]}`);
        }
        let text = texts.get(listener.holds);
        if (text === undefined) {
          text = `{"type":"entry","entry":${this.entryText(role, entry)},"seq":${next.seq},"base":${listener.holds.seq},"patch":${patchText(listener.holds, next, shared)}}`;
          texts.set(listener.holds, text);
        }
        client.sendText(text);
        listener.sent = entry.seq;
        listener.holds = next;
      }
    }
  }

  /**
   * Several entries found at once (by a reload): only the present's state is at hand, so the
   * last goes as `entry` with the state after it, and `broadcast` sends each client the ones
   * before it that it lacks as `entries`, as a hello's catch-up does. Every `entry` a client
   * gets carries the state after that entry.
   */
  private pushUnseen(unseen: readonly LogEntry<CommandBase, EventBase>[]): void {
    const last = unseen.at(-1);
    if (last !== undefined) this.broadcast(last);
  }

  /**
   * The present changed without an entry (a reveal, a status): each client is sent the patch
   * from the state it holds, once per audience, or nothing when its role sees no change.
   */
  private sendStates(): void {
    this.present = undefined;
    const shared = new SharedPatches();
    for (const { role, clients } of this.audiences().values()) {
      const next = this.statePayload(role);
      const texts = new Map<StatePayload, string | undefined>();
      for (const client of clients) {
        const listener = this.listening.get(client);
        if (listener === undefined) continue;
        let text = texts.get(listener.holds);
        if (!texts.has(listener.holds)) {
          const patch = patchText(listener.holds, next, shared);
          text =
            patch === '[]'
              ? undefined
              : `{"type":"changed","seq":${next.seq},"base":${listener.holds.seq},"patch":${patch}}`;
          texts.set(listener.holds, text);
        }
        if (text !== undefined) client.sendText(text);
        listener.holds = next;
      }
    }
  }

  /** Tells every client to connect again (the server is stopping), then forgets them. */
  dismiss(reason: string): void {
    for (const client of this.clients) client.send({ type: 'reconnect', reason });
    this.clients.clear();
    this.presence.close();
    this.listening.clear();
    this.rendered = undefined;
  }

  /** Resolves once every submit already queued has finished. */
  settled(): Promise<unknown> {
    return this.queue;
  }
}

async function loadFromStore(
  context: HostContext,
  id: string,
): Promise<
  Result<{
    record: EncounterRecord;
    system: AnySystem;
    encounter: AnyEncounter;
    keys: readonly (readonly [string, number])[];
    held: readonly HeldRollRecord[];
  }>
> {
  const loaded = await context.store.loadEncounter(id);
  if (!loaded.ok) return loaded;
  const { record, saved } = loaded.value;
  const system = context.systemOf(record.ruleset);
  if (system === undefined) {
    return {
      ok: false,
      error: { code: 'encounter/unknown-system', message: `no system '${record.ruleset}' here` },
    };
  }
  const encounter = loadEncounter(saved, [system.ruleset]);
  if (!encounter.ok) return encounter;
  const rows = await context.store.entriesSince(id, 0);
  const keys = rows.map((row) => [row.idempotencyKey, row.seq] as const);
  const held = await context.store.heldRolls(id);
  return { ok: true, value: { record, system, encounter: encounter.value, keys, held } };
}
