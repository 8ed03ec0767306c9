import type { PresenceNotice } from '../../store/index.js';
import type { Connected, Role, Who } from '../protocol.js';

/** A change in who is at the table, as `Presence` reports it. */
export interface PresenceChange {
  readonly event: 'joined' | 'reconnecting' | 'left';
  readonly link: string;
  readonly who: Who;
}

type LinkNotice = Extract<PresenceNotice, { kind: 'link' }>;

export function whoOf(role: Role): Who {
  return role.role === 'player' ? { role: 'player', character: role.characterId } : role;
}

interface Sockets {
  readonly who: Who;
  sockets: number;
}

/**
 * Who is connected to one encounter, counted by link: this process's sockets, and those other
 * processes said they hold (`PresenceNotice`). A link joins when its first socket anywhere
 * arrives and leaves when its last one closes, so several devices on one link count once. A
 * link whose last socket closed is `reconnecting` for `graceMs` first: a phone that lost its
 * network, or a page reloaded, comes back within it and is never shown as gone.
 */
export class Presence {
  private readonly here = new Map<string, Sockets>();
  /** By process, then link: what each other process last said it holds. */
  private readonly elsewhere = new Map<string, Map<string, Sockets>>();
  /** Links whose last socket closed, until the grace runs out. */
  private readonly waiting = new Map<string, { who: Who; timer: NodeJS.Timeout }>();
  /**
   * `list()` and `listWithoutLinks()` as worked out since the last change: every state payload
   * carries one, and the same list is the same object, so a patch passes over it at once.
   */
  private listed: { all: Connected[]; withoutLinks: Connected[] } | undefined;

  constructor(
    private readonly graceMs: number,
    private readonly report: (change: PresenceChange) => void,
  ) {}

  /**
   * This process's sockets of a link changed by `delta`; returns how many it holds now. `final`:
   * the link cannot come back (revoked), so it leaves without a grace.
   */
  local(link: string, role: Role, delta: 1 | -1, final = false): number {
    this.listed = undefined;
    const before = this.total(link);
    const entry = this.here.get(link) ?? { who: whoOf(role), sockets: 0 };
    entry.sockets += delta;
    if (entry.sockets > 0) this.here.set(link, entry);
    else this.here.delete(link);
    this.settle(link, entry.who, before, final);
    return entry.sockets;
  }

  /** What another process said it holds of a link. */
  remote(notice: LinkNotice): void {
    this.listed = undefined;
    const before = this.total(notice.link);
    const who: Who =
      notice.role === 'player'
        ? { role: 'player', character: notice.character ?? '' }
        : { role: notice.role };
    let links = this.elsewhere.get(notice.process);
    if (notice.sockets > 0) {
      if (links === undefined) {
        links = new Map();
        this.elsewhere.set(notice.process, links);
      }
      links.set(notice.link, { who, sockets: notice.sockets });
    } else {
      links?.delete(notice.link);
      if (links?.size === 0) this.elsewhere.delete(notice.process);
    }
    this.settle(notice.link, who, before);
  }

  /** Another process stopped, or stopped beating: its sockets are gone. */
  forget(process: string): void {
    this.listed = undefined;
    const links = this.elsewhere.get(process);
    if (links === undefined) return;
    for (const [link, { who }] of links) {
      const before = this.total(link);
      links.delete(link);
      this.settle(link, who, before);
    }
    this.elsewhere.delete(process);
  }

  /**
   * A revoked link cannot come back: its sockets in other processes are closing, and it has
   * left at once, whether its last socket's notice came first or not.
   */
  revoked(link: string): void {
    this.listed = undefined;
    const waiting = this.waiting.get(link);
    if (waiting !== undefined) {
      clearTimeout(waiting.timer);
      this.waiting.delete(link);
      this.report({ event: 'left', link, who: waiting.who });
      return;
    }
    const here = this.here.get(link)?.sockets ?? 0;
    let who: Who | undefined;
    for (const [process, links] of this.elsewhere) {
      who ??= links.get(link)?.who;
      links.delete(link);
      if (links.size === 0) this.elsewhere.delete(process);
    }
    // Sockets here are closed by the host, each leaving as it goes.
    if (who !== undefined && here === 0) this.report({ event: 'left', link, who });
  }

  /** Every other process's sockets, as if they had all stopped. */
  forgetElsewhere(): void {
    for (const process of [...this.elsewhere.keys()]) this.forget(process);
  }

  /** This process's links, as a notice would say each. */
  mine(): [string, Sockets][] {
    return [...this.here];
  }

  /**
   * Every link connected or reconnecting, in an order that does not move as they come and go:
   * the GM's, the players' by character, the spectators'; then by link.
   */
  list(): Connected[] {
    return this.lists().all;
  }

  /** `list()` as players and spectators see it: link ids are the GM's alone. */
  listWithoutLinks(): Connected[] {
    return this.lists().withoutLinks;
  }

  private lists(): { all: Connected[]; withoutLinks: Connected[] } {
    if (this.listed !== undefined) return this.listed;
    const all = this.listAnew();
    this.listed = { all, withoutLinks: all.map(({ link: _l, ...rest }) => rest) };
    return this.listed;
  }

  private listAnew(): Connected[] {
    const all = new Map<string, Connected>();
    const add = (link: string, { who, sockets }: Sockets): void => {
      const had = all.get(link);
      all.set(link, { ...who, link, sockets: (had?.sockets ?? 0) + sockets, status: 'connected' });
    };
    for (const [link, s] of this.here) add(link, s);
    for (const links of this.elsewhere.values()) for (const [link, s] of links) add(link, s);
    for (const [link, { who }] of this.waiting) {
      all.set(link, { ...who, link, sockets: 0, status: 'reconnecting' });
    }
    const rank = { gm: 0, player: 1, spectator: 2 } as const;
    const character = (c: Connected): string => (c.role === 'player' ? c.character : '');
    return [...all.values()].sort(
      (a, b) =>
        rank[a.role] - rank[b.role] ||
        character(a).localeCompare(character(b)) ||
        (a.link ?? '').localeCompare(b.link ?? ''),
    );
  }

  close(): void {
    this.listed = undefined;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private total(link: string): number {
    let total = this.here.get(link)?.sockets ?? 0;
    for (const links of this.elsewhere.values()) total += links.get(link)?.sockets ?? 0;
    return total;
  }

  private settle(link: string, who: Who, before: number, final = false): void {
    // A report below lists who is here: what changed before it must be in that list.
    this.listed = undefined;
    const after = this.total(link);
    if (before === 0 && after > 0) {
      const waiting = this.waiting.get(link);
      if (waiting !== undefined) {
        clearTimeout(waiting.timer);
        this.waiting.delete(link);
      }
      this.report({ event: 'joined', link, who });
    } else if (before > 0 && after === 0 && final) {
      this.report({ event: 'left', link, who });
    } else if (before > 0 && after === 0) {
      const timer = setTimeout(() => {
        this.listed = undefined;
        this.waiting.delete(link);
        this.report({ event: 'left', link, who });
      }, this.graceMs);
      timer.unref();
      this.waiting.set(link, { who, timer });
      this.report({ event: 'reconnecting', link, who });
    }
  }
}
