import { iso } from '../clock';
import { signPayload } from './signing';

/** User-Agent of every webhook delivery. */
export const WEBHOOK_USER_AGENT = 'ViewStream-Webhooks/1';

/** The JSON body of a delivery: `{id, type, at, customer_id, data}` (`data` is the outbox JSON, inserted verbatim). */
export function envelopeBody(e: { id: string; type: string; at: number; tenantId: string; dataJson: string }): string {
  return `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"at":${JSON.stringify(iso(e.at))},"customer_id":${JSON.stringify(e.tenantId)},"data":${e.dataJson}}`;
}

/** Headers of one signed attempt; `X-VS-Delivery` is the delivery id, stable across retries. */
export function deliveryHeaders(o: { secret: string; deliveryId: string; type: string; nowMs: number; body: string }): Record<string, string> {
  const ts = Math.floor(o.nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-vs-event': o.type,
    'x-vs-delivery': o.deliveryId,
    'x-vs-timestamp': String(ts),
    'x-vs-signature': signPayload(o.secret, ts, o.body),
  };
}
