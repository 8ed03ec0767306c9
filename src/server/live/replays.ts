import { SERVER_LIMITS } from '../limits.js';

export type Charged = { readonly ok: true } | { readonly ok: false; readonly retryMs: number };

/**
 * How many catch-up entries each link may still be sent, across every encounter and socket of
 * this process: a token bucket per link. A replay larger than the bucket is allowed whenever the
 * bucket is not empty and leaves it in debt, so a long log still reaches a client once while a
 * link that says hello from 0 over and over gets the bucket's rate and no more.
 */
export class ReplayBudget {
  private readonly links = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number = SERVER_LIMITS.replayBurst,
    private readonly perSecond: number = SERVER_LIMITS.replayPerSecond,
  ) {}

  charge(linkId: string, entries: number, now = Date.now()): Charged {
    let link = this.links.get(linkId);
    if (link === undefined) {
      if (this.links.size >= 10_000) this.forgetFull(now);
      link = { tokens: this.burst, at: now };
      this.links.set(linkId, link);
    }
    link.tokens = Math.min(this.burst, link.tokens + ((now - link.at) / 1000) * this.perSecond);
    link.at = now;
    if (link.tokens <= 0) {
      return { ok: false, retryMs: Math.ceil(((1 - link.tokens) / this.perSecond) * 1000) };
    }
    link.tokens -= entries;
    return { ok: true };
  }

  /** A link whose bucket has filled again is the same as one never seen. */
  private forgetFull(now: number): void {
    for (const [id, link] of this.links) {
      if (link.tokens + ((now - link.at) / 1000) * this.perSecond >= this.burst) {
        this.links.delete(id);
      }
    }
  }
}
