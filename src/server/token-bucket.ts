/**
 * A token bucket: `rate` tokens a second on average, at most `burst` held. `take` spends one
 * token only when there is one (a socket's messages); `charge` spends any number whenever the
 * bucket is not empty, leaving it in debt (a link's catch-up entries: a long log still reaches a
 * client once, and the debt is what keeps the next replay waiting).
 */
export class TokenBucket {
  private tokens: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private at = Date.now(),
  ) {
    this.tokens = burst;
  }

  /** The tokens held at `now`, refilled since the last look. */
  private refill(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    return this.tokens;
  }

  take(now = Date.now()): boolean {
    if (this.refill(now) < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Spends `cost` if the bucket is not empty; else how long until it is, in milliseconds. */
  charge(cost: number, now = Date.now()): { readonly ok: true } | { readonly retryMs: number } {
    const tokens = this.refill(now);
    if (tokens <= 0) return { retryMs: Math.ceil(((1 - tokens) / this.rate) * 1000) };
    this.tokens -= cost;
    return { ok: true };
  }

  /** Whether it has filled again by `now`: as good as a bucket never used. */
  fullAt(now: number): boolean {
    return this.tokens + ((now - this.at) / 1000) * this.rate >= this.burst;
  }
}
