import { BlockedAddressError, FetchTimeoutError } from '../../kernel/net/safe-fetch';
import { safeSend, type SendTarget } from '../../kernel/net/safe-send';
import { deliveryHeaders, envelopeBody } from '../../kernel/events/envelope';
import type { DueDelivery } from './store';

/** What one delivery attempt produced. */
export interface AttemptOutcome { ok: boolean; code: number | null; error: string | null }

/**
 * Sends one signed attempt through the safe sender (safeFetch's address checks on Bun's fetch client): the address
 * is checked again on every attempt, redirects are not followed (a 3xx is a failure), and only a 2xx status within
 * `timeoutMs` acknowledges. The response body is never looked at (a small declared one is drained so the
 * connection can be reused). `o.target` is `ep.url` prepared once by the caller (sendTarget with the same allowlist).
 */
export async function sendAttempt(d: DueDelivery, ep: { url: string; secret: string },
  o: { nowMs: number; timeoutMs: number; allowlist: string[]; signal?: AbortSignal; target?: SendTarget }): Promise<AttemptOutcome> {
  const body = envelopeBody({ id: d.event_id, type: d.event_type, at: d.event_at, tenantId: d.tenant_id, dataJson: d.event_data });
  const headers = deliveryHeaders({ secret: ep.secret, deliveryId: d.id, type: d.event_type, nowMs: o.nowMs, body });
  try {
    const res = await safeSend(o.target ?? ep.url, { method: 'POST', headers, body, timeoutMs: o.timeoutMs, maxBytes: 64 * 1024, allowlist: o.allowlist, signal: o.signal });
    if (res.status >= 200 && res.status < 300) return { ok: true, code: res.status, error: null };
    const error = res.status >= 300 && res.status < 400 ? `redirect ${res.status} not followed` : `HTTP ${res.status}`;
    return { ok: false, code: res.status, error };
  } catch (e) {
    if (e instanceof BlockedAddressError) return { ok: false, code: null, error: `refused: ${e.detail}` };
    if (e instanceof FetchTimeoutError) return { ok: false, code: null, error: `no answer within ${o.timeoutMs} ms` };
    return { ok: false, code: null, error: String((e as Error)?.message ?? e).slice(0, 300) };
  }
}
