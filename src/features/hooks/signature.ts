import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_TOLERANCE_S, verifySignature, type SignatureProblem } from '../../kernel/events/signing';

/**
 * `X-VS-Signature` of an inbound hook call. Two spellings verify:
 *   v2=<hex HMAC-SHA256(secret, timestamp + "." + X-VS-Delivery + "." + raw body)>   (binds the delivery id)
 *   sha256=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>                     (the webhook spelling, kept)
 * Either way the signature value is remembered with the call, so the same signed call sent again under another
 * X-VS-Delivery inside the timestamp window is recognised as the first one (HookService.call).
 */
export function signHookCall(secret: string, timestamp: number | string, delivery: string, body: string): string {
  return `v2=${createHmac('sha256', secret).update(`${timestamp}.${delivery}.`).update(body).digest('hex')}`;
}

/** Verifies a call's signature (either spelling) and timestamp (within 300 s); null when valid, else the reason. */
export function verifyHookCall(secret: string, h: { timestamp: string | null; signature: string | null; delivery: string | null }, body: string, nowMs: number): SignatureProblem {
  const sig = h.signature?.trim() ?? null;
  if (!sig?.startsWith('v2=')) return verifySignature(secret, h.timestamp, sig, body, nowMs);
  if (!h.timestamp) return 'missing_headers';
  if (!/^\d{1,12}$/.test(h.timestamp)) return 'bad_timestamp';
  if (Math.abs(nowMs / 1000 - Number(h.timestamp)) > SIGNATURE_TOLERANCE_S) return 'stale_timestamp';
  const want = Buffer.from(signHookCall(secret, h.timestamp, h.delivery?.trim() ?? '', body));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want) ? null : 'bad_signature';
}
