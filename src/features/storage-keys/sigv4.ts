/**
 * AWS Signature Version 4 as an S3 server checks it (header form, `Authorization: AWS4-HMAC-SHA256 ...`): the
 * canonical request is rebuilt from the request as sent (method, the URI path as encoded by the client, sorted query,
 * the signed headers, the payload hash header), the string to sign from it, the signing key from the secret, date,
 * region and service; compared in constant time. The request time must be within 15 minutes of now.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The parts of an Authorization header. */
export interface SigV4Auth { accessKeyId: string; date: string; region: string; service: string; signedHeaders: string[]; signature: string }

const AUTH = /^AWS4-HMAC-SHA256 Credential=([A-Za-z0-9]+)\/(\d{8})\/([a-z0-9-]{1,32})\/(s3)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const SKEW_MS = 15 * 60_000;

/** Pure: the Authorization header's parts, or null when it is not SigV4 header form. */
export function parseAuthorization(h: string | null): SigV4Auth | null {
  const m = h ? AUTH.exec(h.trim()) : null;
  if (!m) return null;
  return { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(';'), signature: m[6]! };
}

const hmac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();
const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept). */
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Pure: the canonical query string of a raw query (`a=1&b`), sorted by encoded name then value. */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  const pairs = rawQuery.split('&').filter(Boolean).map((p) => {
    const i = p.indexOf('=');
    const k = decodeURIComponent((i < 0 ? p : p.slice(0, i)).replace(/\+/g, '%20'));
    const v = i < 0 ? '' : decodeURIComponent(p.slice(i + 1).replace(/\+/g, '%20'));
    return [enc(k), enc(v)] as const;
  });
  return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&');
}

/** Pure: the canonical URI of a raw path: each segment decoded then encoded once (S3 does not double-encode). */
export function canonicalPath(rawPath: string): string {
  return rawPath.split('/').map((s) => enc(decodeURIComponent(s))).join('/');
}

/** Why a request's signature does not verify, or null when it does. `secret` is the access key's secret. */
export function verifySigV4(o: { method: string; rawPath: string; rawQuery: string; headers: Headers; auth: SigV4Auth; secret: string; now: number }): string | null {
  const { auth, headers } = o;
  if (!auth.signedHeaders.includes('host')) return 'host is not signed';
  const amzDate = headers.get('x-amz-date') ?? '';
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m || !amzDate.startsWith(auth.date)) return 'x-amz-date is missing or does not match the credential date';
  const at = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (Math.abs(o.now - at) > SKEW_MS) return 'the request time is more than 15 minutes from the server time';
  const payload = headers.get('x-amz-content-sha256');
  if (!payload) return 'x-amz-content-sha256 is missing';
  const canonHeaders = auth.signedHeaders.map((n) => `${n}:${(headers.get(n) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [o.method, canonicalPath(o.rawPath), canonicalQuery(o.rawQuery), canonHeaders, auth.signedHeaders.join(';'), payload].join('\n');
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${o.secret}`, auth.date), auth.region), auth.service), 'aws4_request');
  const want = createHmac('sha256', key).update(toSign).digest();
  const got = Buffer.from(auth.signature, 'hex');
  return got.length === want.length && timingSafeEqual(got, want) ? null : 'the signature does not match';
}

/** Pure: whether a body matches the signed payload hash (`UNSIGNED-PAYLOAD` accepts any body). */
export function payloadMatches(declared: string, body: Uint8Array): boolean {
  return declared === 'UNSIGNED-PAYLOAD' || declared === sha(body);
}
