import { createHmac, timingSafeEqual } from 'node:crypto';

/** Seconds a signed request's timestamp may differ from now (webhook deliveries and inbound hooks). */
export const SIGNATURE_TOLERANCE_S = 300;

/** `sha256=` + hex HMAC-SHA256 keyed with `secret` over `timestamp.body` (the raw body text). */
export function signPayload(secret: string, timestamp: number | string, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return `sha256=${mac.digest('hex')}`;
}

/** Why a signed request was refused, or null when it verifies. */
export type SignatureProblem = 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature' | null;

/**
 * Verifies `X-VS-Signature` over the raw body: timestamp within `toleranceS` of `nowMs`, signature compared in
 * constant time. Returns null when valid, else the reason.
 */
export function verifySignature(secret: string, timestamp: string | null, signature: string | null, body: string | Uint8Array,
  nowMs: number, toleranceS = SIGNATURE_TOLERANCE_S): SignatureProblem {
  if (!timestamp || !signature) return 'missing_headers';
  if (!/^\d{1,12}$/.test(timestamp)) return 'bad_timestamp';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > toleranceS) return 'stale_timestamp';
  const want = Buffer.from(signPayload(secret, timestamp, body));
  const got = Buffer.from(signature.trim());
  if (got.length !== want.length || !timingSafeEqual(got, want)) return 'bad_signature';
  return null;
}
