/**
 * Test helper: a proxy in front of a local S3-compatible server (s3rver, which does not check signatures) that
 * verifies each request's AWS Signature Version 4 in full (credential scope, signed headers, payload hash,
 * signature) against the one secret it knows, answering 403 SignatureDoesNotMatch in S3's XML form otherwise.
 */
import { createHash, createHmac } from 'node:crypto';

/** What the proxy saw. */
export interface SigV4Log { verified: number; refused: number; paths: string[] }

const hmac = (k: string | Buffer, s: string) => createHmac('sha256', k).update(s).digest();
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Checks one request's SigV4 Authorization header; answers null when valid, else why not. */
export function checkSigV4(req: Request, keyId: string, secret: string, region: string): string | null {
  const auth = req.headers.get('authorization') ?? '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return `malformed Authorization: ${auth.slice(0, 80)}`;
  const [, id, date, reg, signed, sig] = m;
  if (id !== keyId) return 'unknown access key';
  if (reg !== region) return `region ${reg} is not ${region}`;
  const amzDate = req.headers.get('x-amz-date') ?? '';
  if (!amzDate.startsWith(date)) return 'x-amz-date does not match the credential date';
  const payload = req.headers.get('x-amz-content-sha256');
  if (!payload) return 'x-amz-content-sha256 missing';
  const names = signed.split(';');
  if (!names.includes('host')) return 'host is not signed';
  const u = new URL(req.url);
  const query = [...u.searchParams.entries()].map(([k, v]) => [enc(k), enc(v)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&');
  const headers = names.map((n) => `${n}:${(req.headers.get(n) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, u.pathname, query, headers, signed, payload].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${reg}/s3/aws4_request`, sha(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), reg), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === sig ? null : 'signature does not match';
}

/** Starts the verifying proxy on 127.0.0.1 in front of `upstream` (an http://host:port address). */
export function startSigV4Proxy(upstream: string, keyId: string, secret: string, region: string) {
  const log: SigV4Log = { verified: 0, refused: 0, paths: [] };
  const server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const why = checkSigV4(req, keyId, secret, region);
      if (why) {
        log.refused++;
        const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code><Message>${why}</Message></Error>`;
        return new Response(xml, { status: 403, headers: { 'content-type': 'application/xml' } });
      }
      log.verified++;
      const u = new URL(req.url);
      log.paths.push(`${req.method} ${u.pathname}`);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
      const headers = new Headers(req.headers);
      headers.delete('accept-encoding'); // the bytes pass through as the server sent them
      const res = await fetch(`${upstream}${u.pathname}${u.search}`, { method: req.method, headers, body, redirect: 'manual', decompress: false } as RequestInit);
      return new Response(req.method === 'HEAD' ? null : res.body, { status: res.status, headers: res.headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, log, stop: () => server.stop(true) };
}
