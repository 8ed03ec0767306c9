import type { Result } from '../../engine/index.js';
import type { Unsubscribe } from '../../store/index.js';
import { SERVER_LIMITS } from '../limits.js';
import { EncounterHost, type HostContext } from './encounter-host.js';

/**
 * The encounters this process holds live, opened on first use and dropped when nobody has
 * watched them for a while. It hears every append in the store, from this process or another
 * sharing the database, and hands each to the host that holds that encounter.
 */
export class Hub {
  private readonly hosts = new Map<string, Promise<Result<EncounterHost>>>();
  private unsubscribe: Unsubscribe | undefined;

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
      },
    });
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
