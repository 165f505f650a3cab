import { AppError } from '../../kernel/errors';

/** Seconds a refused event stream is told to wait (Retry-After): streams are long-lived, a place frees up slowly. */
export const STREAM_RETRY_AFTER_S = 30;

/**
 * Open event streams per key (API key or studio session) and per tenant, counted in the process that serves every
 * stream (the main one; workers forward them). `take` refuses past either cap with 429 `rate_limited` and
 * `Retry-After`; its release is idempotent.
 */
export class StreamCaps {
  private byKey = new Map<string, number>();
  private byTenant = new Map<string, number>();
  constructor(private perKey: number, private perTenant: number) {}

  /** Takes one place for a stream of `keyId` in `tenantId`; returns its release; 429 past a cap. */
  take(keyId: string, tenantId: string): () => void {
    const k = this.byKey.get(keyId) ?? 0;
    const t = this.byTenant.get(tenantId) ?? 0;
    if (k >= this.perKey) throw refused(`at most ${this.perKey} event streams per key are open at once`);
    if (t >= this.perTenant) throw refused(`at most ${this.perTenant} event streams per tenant are open at once`);
    this.byKey.set(keyId, k + 1);
    this.byTenant.set(tenantId, t + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      dec(this.byKey, keyId);
      dec(this.byTenant, tenantId);
    };
  }

  /** Streams open now for a key and a tenant (tests, diagnostics). */
  open(keyId: string, tenantId: string): { key: number; tenant: number } {
    return { key: this.byKey.get(keyId) ?? 0, tenant: this.byTenant.get(tenantId) ?? 0 };
  }
}

function refused(detail: string): AppError {
  return new AppError('rate_limited', `${detail}; close one or retry in ${STREAM_RETRY_AFTER_S} s`, { headers: { 'retry-after': String(STREAM_RETRY_AFTER_S) } });
}

function dec(m: Map<string, number>, k: string): void {
  const n = (m.get(k) ?? 1) - 1;
  if (n <= 0) m.delete(k); else m.set(k, n);
}
