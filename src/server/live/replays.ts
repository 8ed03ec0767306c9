import { SERVER_LIMITS } from '../limits.js';
import { TokenBucket } from '../token-bucket.js';

export type Charged = { readonly ok: true } | { readonly ok: false; readonly retryMs: number };

/**
 * How many catch-up entries each link may still be sent, across every encounter and socket of
 * this process: a token bucket per link. A replay larger than the bucket is allowed whenever the
 * bucket is not empty and leaves it in debt, so a long log still reaches a client once while a
 * link that says hello from 0 over and over gets the bucket's rate and no more.
 */
export class ReplayBudget {
  private readonly links = new Map<string, TokenBucket>();

  constructor(
    private readonly burst: number = SERVER_LIMITS.replayBurst,
    private readonly perSecond: number = SERVER_LIMITS.replayPerSecond,
  ) {}

  charge(linkId: string, entries: number, now = Date.now()): Charged {
    let link = this.links.get(linkId);
    if (link === undefined) {
      if (this.links.size >= 10_000) this.forgetFull(now);
      link = new TokenBucket(this.perSecond, this.burst, now);
      this.links.set(linkId, link);
    }
    const charged = link.charge(entries, now);
    return 'ok' in charged ? charged : { ok: false, retryMs: charged.retryMs };
  }

  /** A link whose bucket has filled again is the same as one never seen. */
  private forgetFull(now: number): void {
    for (const [id, link] of this.links) if (link.fullAt(now)) this.links.delete(id);
  }
}
