import type { Result } from '../../engine/index.js';
import type { Unsubscribe } from '../../store/index.js';
import { SERVER_LIMITS } from '../limits.js';
import { EncounterHost, type HostContext } from './encounter-host.js';

/**
 * How long a revocation is remembered for a socket still on its way in: one that checked its
 * token just before the revocation committed, and attaches just after its notice was heard.
 */
const REMEMBER_REVOKED_MS = 10 * 60_000;

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

  constructor(readonly context: HostContext) {}

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
      },
      revoked: (change) => this.revoke(change.tokenId),
    });
  }

  /** Closes every socket of a revoked link, in every encounter this process holds. */
  revoke(linkId: string): void {
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

  /** After notices may have been missed: every link with a socket here is read again. */
  private async recheckLinks(): Promise<void> {
    const hosts = await Promise.allSettled(this.hosts.values());
    const links = new Set(
      hosts.flatMap((settled) =>
        settled.status === 'fulfilled' && settled.value.ok ? [...settled.value.value.links()] : [],
      ),
    );
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
      pending = EncounterHost.open(this.context, id).then((result) => {
        if (!result.ok) this.hosts.delete(id);
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
  }

  close(): void {
    this.unsubscribe?.();
    this.hosts.clear();
  }
}
