/**
 * Sign-in throttling: failures counted per account and per client IP in a sliding window. When either reaches its
 * limit, further attempts answer 429 with the seconds left until the oldest failure leaves the window.
 */
export class SignInThrottle {
  private fails = new Map<string, number[]>();
  constructor(private now: () => number, private perAccount = 5, private perIp = 20, private windowMs = 15 * 60_000) {}

  private recent(key: string): number[] {
    const t = this.now();
    const list = (this.fails.get(key) ?? []).filter((at) => at > t - this.windowMs);
    if (list.length) this.fails.set(key, list); else this.fails.delete(key);
    return list;
  }

  /** Seconds to wait before another attempt for this account or IP; 0 when allowed. */
  wait(email: string, ip: string | null): number {
    const w = (key: string, max: number) => {
      const list = this.recent(key);
      return list.length >= max ? Math.max(1, Math.ceil((list[list.length - max] + this.windowMs - this.now()) / 1000)) : 0;
    };
    return Math.max(w(`a:${email}`, this.perAccount), ip ? w(`i:${ip}`, this.perIp) : 0);
  }

  /** Counts a failed attempt. */
  fail(email: string, ip: string | null): void {
    const t = this.now();
    for (const key of [`a:${email}`, ...(ip ? [`i:${ip}`] : [])]) this.fails.set(key, [...this.recent(key), t]);
    if (this.fails.size > 100_000) this.fails.clear();
  }

  /** Clears an account's failures after a successful sign-in. */
  succeed(email: string): void { this.fails.delete(`a:${email}`); }
}
