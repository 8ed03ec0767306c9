import { randomUUID } from 'node:crypto';
import type { Result } from '../../engine/index.js';
import type { PresenceNotice, TableEvent, Unsubscribe } from '../../store/index.js';
import { SERVER_LIMITS } from '../limits.js';
import { EncounterHost, type HostContext, PRESENCE_GRACE_MS } from './encounter-host.js';
import { TABLE_SCOPE, TableChannels } from './table-channel.js';

/**
 * How long a revocation is remembered for a socket still on its way in: one that checked its
 * token just before the revocation committed, and attaches just after its notice was heard.
 */
const REMEMBER_REVOKED_MS = 10 * 60_000;

/**
 * A process holding sockets says it is alive this often (`Hub`'s `presenceBeatMs` unless
 * given); one not heard from in three beats (killed, cut off) has its sockets dropped from
 * every list.
 */
export const PRESENCE_BEAT_MS = 10_000;

/** Presence notices waiting for the store at most (see `Hub.publish`). */
const PRESENCE_BACKLOG = 256;

/**
 * The encounters this process holds live, opened on first use and dropped when nobody has
 * watched them for a while. It hears every append in the store, from this process or another
 * sharing the database, and hands each to the host that holds that encounter; and every
 * revoked link, whose sockets it closes in every encounter.
 */
export class Hub {
  private readonly hosts = new Map<string, Promise<Result<EncounterHost>>>();
  private unsubscribe: Unsubscribe | undefined;
  /** Links revoked lately, by when they were heard of (oldest first). */
  private readonly revokedLately = new Map<string, number>();
  /** This process, as its presence notices name it: a new one every start. */
  readonly process = randomUUID();
  /** The other processes heard from, by when last: their links stand until they go silent. */
  private readonly heardFrom = new Map<string, number>();
  private beat: NodeJS.Timeout | undefined;
  /** Notices go out one after another: sent in parallel, a link's 1 could overtake its 0. */
  private publishing: Promise<void> = Promise.resolve();
  private waitingNotices = 0;
  /** Notices were dropped: once the queue drains, everything is said again. */
  private behind = false;
  /** Set while everything is being said again (`publish`): those notices are not counted. */
  private retelling = false;
  /** What the hosts are opened with: the context, and this hub to tell of their sockets. */
  private readonly hostContext: HostContext;
  /** Every table's channel and who is at it (its channel's sockets and its encounters'). */
  readonly tables: TableChannels;

  constructor(
    readonly context: HostContext,
    private readonly presenceBeatMs = PRESENCE_BEAT_MS,
  ) {
    this.tables = new TableChannels({
      graceMs: context.presenceGraceMs ?? PRESENCE_GRACE_MS,
      publish: (notice) => void this.publish(notice),
      process: this.process,
    });
    this.hostContext = {
      ...context,
      linkSocket: (tableId, link, role, delta, final) =>
        this.tables.linkSocket(tableId, link, role, delta, final),
      publishPresence: (encounterId, link, who, sockets) =>
        this.publish({
          kind: 'link',
          process: this.process,
          encounterId,
          link,
          role: who.role,
          ...(who.role === 'player' ? { character: who.character } : {}),
          sockets,
        }),
    };
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.context.store.subscribe('*', {
      appended: (change) => {
        void this.hosts.get(change.encounterId)?.then((host) => {
          if (host.ok) return host.value.changedElsewhere(change.seq);
        });
      },
      resync: () => {
        for (const pending of this.hosts.values()) {
          void pending.then((host) => {
            if (host.ok) return host.value.resync();
          });
        }
        void this.recheckLinks();
        // Presence notices may have been missed too, a link's 0 among them: what the other
        // processes said is dropped, and they are asked again (a link still there shows as
        // reconnecting, then joined).
        this.tables.forgetElsewhere();
        void this.eachHost((host) => {
          host.forgetElsewhere();
          return this.publish({ kind: 'ask', process: this.process, encounterId: host.id });
        });
      },
      revoked: (change) => {
        this.revoke(change.tokenId);
        // Every revocation, whoever made it (the GM's page, the lobby, the CLI), in every process.
        this.tables.event(change.tableId, { type: 'invites-changed' });
      },
      presence: (notice) => this.heard(notice),
    });
    this.beat = setInterval(() => this.onBeat(), this.presenceBeatMs);
    this.beat.unref();
  }

  /**
   * Sends a presence notice, after those before it. While the store is slow or down, at most
   * `PRESENCE_BACKLOG` wait; past that they are dropped, and once the queue has drained this
   * process says it is gone and tells every link it holds again, so the others' lists are
   * made right rather than left with what the dropped notices changed.
   */
  private publish(notice: PresenceNotice): Promise<void> {
    // What is said again after notices were dropped is not counted against the backlog: it is
    // one notice a link this process holds, more than the backlog on a busy process, and
    // counted it tipped the queue over again, to be said again, for ever (two processes
    // holding 150 sockets each spent a third of a core each on it while nobody did anything).
    const counted = !this.retelling;
    if (counted && this.waitingNotices >= PRESENCE_BACKLOG) {
      this.behind = true;
      return this.publishing;
    }
    if (counted) this.waitingNotices++;
    this.publishing = this.publishing.then(async () => {
      try {
        await this.context.store.publishPresence(notice);
      } catch (error) {
        this.context.log('warn', 'presence notice not sent', { error: String(error) });
      } finally {
        if (counted) this.waitingNotices--;
      }
      if (this.behind && this.waitingNotices === 0) {
        this.behind = false;
        const hosts = await this.eachHost((host) => host);
        this.retelling = true;
        try {
          void this.publish({ kind: 'gone', process: this.process });
          for (const host of hosts) this.tell(host);
          this.tables.tellAll();
        } finally {
          this.retelling = false;
        }
      }
    });
    return this.publishing;
  }

  /** Resolves once every presence notice queued so far was sent (or failed). */
  async settledPresence(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.publishing) {
      last = this.publishing;
      await last;
    }
  }

  /** Another process's notice, handed to the host it concerns if this process holds it. */
  private heard(notice: PresenceNotice): void {
    if (notice.process === this.process) return;
    if (notice.kind === 'gone') {
      this.heardFrom.delete(notice.process);
      this.tables.forget(notice.process);
      void this.eachHost((host) => host.forgetProcess(notice.process));
      return;
    }
    if (notice.kind === 'table') {
      this.tableHeard(notice.tableId, notice.event);
      return;
    }
    this.heardFrom.set(notice.process, Date.now());
    if (notice.kind === 'link' && notice.encounterId.startsWith(TABLE_SCOPE)) {
      this.tables.remote(notice);
    } else if (notice.kind === 'ask' && notice.encounterId.startsWith(TABLE_SCOPE)) {
      this.tables.tell(notice.encounterId.slice(TABLE_SCOPE.length));
    } else if (notice.kind === 'link') {
      void this.held(notice.encounterId).then((host) => host?.remotePresence(notice));
    } else if (notice.kind === 'ask') {
      void this.held(notice.encounterId).then((host) => {
        if (host !== undefined) this.tell(host);
      });
    }
  }

  /**
   * Something happened at a table, here: this process's screens hear it at once, the others'
   * through the store (a `table` notice).
   */
  tableEvent(tableId: string, event: TableEvent): void {
    this.tableHeard(tableId, event);
    void this.publish({ kind: 'table', process: this.process, tableId, event });
  }

  private tableHeard(tableId: string, event: TableEvent): void {
    this.tables.event(tableId, event);
    // A fight ended in another process: the screens on it here hear its status from their host.
    if (event.type === 'encounter-ended') {
      void this.held(event.id).then((host) => host?.refreshRecord());
    }
  }

  /** Every link this process holds in the host's encounter, for the processes that ask. */
  private tell(host: EncounterHost): void {
    for (const { link, who, sockets } of host.localPresenceList()) {
      this.hostContext.publishPresence?.(host.id, link, who, sockets);
    }
  }

  /** Says this process is alive while it holds sockets; forgets the processes gone silent. */
  private onBeat(): void {
    const now = Date.now();
    for (const [process, at] of this.heardFrom) {
      if (now - at < 3 * this.presenceBeatMs) continue;
      this.heardFrom.delete(process);
      this.tables.forget(process);
      void this.eachHost((host) => host.forgetProcess(process));
    }
    void this.eachHost((host) => host.clientCount > 0).then((holding) => {
      if (holding.some(Boolean) || this.tables.clientCount > 0) {
        void this.publish({ kind: 'beat', process: this.process });
      }
    });
  }

  private async eachHost<T>(call: (host: EncounterHost) => T): Promise<T[]> {
    const hosts = await Promise.allSettled(this.hosts.values());
    return hosts.flatMap((settled) =>
      settled.status === 'fulfilled' && settled.value.ok ? [call(settled.value.value)] : [],
    );
  }

  /** Closes every socket of a revoked link, in every encounter this process holds. */
  revoke(linkId: string): void {
    this.tables.revoke(linkId);
    const now = Date.now();
    this.revokedLately.delete(linkId);
    this.revokedLately.set(linkId, now);
    for (const [id, at] of this.revokedLately) {
      if (now - at < REMEMBER_REVOKED_MS) break;
      this.revokedLately.delete(id);
    }
    for (const pending of this.hosts.values()) {
      // A host that failed to open holds no sockets.
      pending.then(
        (host) => {
          if (host.ok) host.value.revoke(linkId);
        },
        () => {},
      );
    }
  }

  /**
   * Called once a socket is attached: closes it if its link was revoked while it was being let
   * in (its token checked before the revocation, the notice heard before it attached).
   */
  closeIfRevoked(host: EncounterHost, linkId: string): void {
    if (this.revokedLately.has(linkId)) host.revoke(linkId);
  }

  /** The same for a socket of a table's channel. */
  closeTableIfRevoked(linkId: string): void {
    if (this.revokedLately.has(linkId)) this.tables.revoke(linkId);
  }

  /** After notices may have been missed: every link with a socket here is read again. */
  private async recheckLinks(): Promise<void> {
    const hosts = await Promise.allSettled(this.hosts.values());
    const links = new Set([
      ...hosts.flatMap((settled) =>
        settled.status === 'fulfilled' && settled.value.ok ? [...settled.value.value.links()] : [],
      ),
      // The table channels' sockets too: a revocation missed leaves them open otherwise.
      ...this.tables.links(),
    ]);
    for (const link of links) {
      try {
        if (!(await this.context.store.tokenLive(link))) this.revoke(link);
      } catch (error) {
        // The next submit from that link checks it again.
        this.context.log('warn', 'link recheck failed', { error: String(error) });
        return;
      }
    }
  }

  /** The live host of an encounter, opened from the store on first use. */
  host(id: string): Promise<Result<EncounterHost>> {
    let pending = this.hosts.get(id);
    if (pending === undefined) {
      pending = EncounterHost.open(this.hostContext, id).then((result) => {
        if (!result.ok) this.hosts.delete(id);
        // The other processes' sockets in it are learnt from them.
        else void this.publish({ kind: 'ask', process: this.process, encounterId: id });
        return result;
      });
      this.hosts.set(id, pending);
      this.evictIdle();
    }
    return pending;
  }

  /** The host if this process holds it already; nothing is opened. */
  async held(id: string): Promise<EncounterHost | undefined> {
    const pending = this.hosts.get(id);
    if (pending === undefined) return undefined;
    const host = await pending;
    return host.ok ? host.value : undefined;
  }

  get size(): number {
    return this.hosts.size;
  }

  /** Past the bound, drops the hosts nobody watches, longest idle first. */
  private evictIdle(): void {
    if (this.hosts.size <= SERVER_LIMITS.idleEncounters) return;
    void Promise.all(
      [...this.hosts.entries()].map(async ([id, pending]) => ({ id, host: await pending })),
    ).then((all) => {
      const idle = all
        .flatMap(({ id, host }) =>
          host.ok && host.value.clientCount === 0 ? [{ id, since: host.value.idleSince }] : [],
        )
        .sort((a, b) => a.since - b.since);
      let excess = this.hosts.size - SERVER_LIMITS.idleEncounters;
      for (const { id } of idle) {
        if (excess-- <= 0) break;
        this.hosts.delete(id);
      }
    });
  }

  /** Waits for every submit in flight, then tells every client to reconnect elsewhere. */
  async drain(reason: string): Promise<void> {
    const hosts = await Promise.all(this.hosts.values());
    await Promise.all(hosts.map((h) => (h.ok ? h.value.settled() : undefined)));
    for (const h of hosts) if (h.ok) h.value.dismiss(reason);
    this.tables.dismiss(reason);
    // The other processes drop this one's sockets now, not three beats from now.
    await this.publish({ kind: 'gone', process: this.process });
  }

  close(): void {
    clearInterval(this.beat);
    this.unsubscribe?.();
    this.hosts.clear();
    this.tables.close();
  }
}
