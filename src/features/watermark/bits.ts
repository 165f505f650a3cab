import { createHmac } from 'node:crypto';

/** A media segment of a packaged ladder: `seg_<representation>_<number>.m4s` (numbers from 1, as the packager writes them). */
export const SEGMENT_FILE = /^seg_(\d{1,3})_(\d{1,9})\.m4s$/;

/** The tenant's marking key: an HMAC of the service's watermark secret and the tenant id (one secret, a key per tenant). */
export function tenantMarkKey(secret: string, tenantId: string): Buffer {
  return createHmac('sha256', secret).update(`watermark:${tenantId}`).digest();
}

/**
 * The variant a session gets for segment number `n` of an asset: one bit of an HMAC of the asset, the session id and
 * the number (1 = B). Every rendition's segment `n` gets the same bit, so switching renditions keeps the sequence; the
 * sequence is the session's fingerprint, which only the key's holder can compute.
 */
export function variantBit(key: Buffer, asset: string, sid: string, n: number): 0 | 1 {
  return (createHmac('sha256', key).update(`${asset}:${sid}:${n}`).digest()[0] & 1) as 0 | 1;
}
