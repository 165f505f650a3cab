/** Per-key token bucket: `perSecond` refill, `burst` capacity. Keyed by API key id, never by a client header. */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private perSecond: number, private burst: number, private now: () => number = () => performance.now()) {}

  /** Takes one token for `key`; returns 0 when allowed, else the whole seconds to wait. */
  take(key: string): number {
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) { b = { tokens: this.burst, at: t }; this.buckets.set(key, b); }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    if (b.tokens >= 1) { b.tokens -= 1; return 0; }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }

  /** Drops idle buckets (full again) so memory stays bounded. */
  sweep(): void {
    const t = this.now();
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((t - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
    }
  }
}
