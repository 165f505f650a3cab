/**
 * The tenant ingest area as an S3-compatible endpoint for storage keys (issue 47): path style
 * `/s3/<tenant slug>/<key>`, AWS SigV4 in the Authorization header checked in full (payload hash included), and only
 * keys under `ingest/<the key's prefix>/in/` — so standard clients (AWS CLI, rclone) can drop files that
 * `POST /v1/assets` with `source: {kind: "s3", key}` then registers. Operations: PutObject, HeadObject,
 * ListObjectsV2, and multipart uploads (create, upload part, complete, abort) — what `aws s3 cp` and rclone use.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { checkIngestKey } from '../assets/paths';
import { completeParts, completeResult, initiateResult, listResult, s3Error } from './s3-xml';
import { parseAuthorization, payloadMatches, verifySigV4 } from './sigv4';
import { StorageKeyStore } from './store';

/** Largest body one request may carry (a single PutObject or one part); larger files go multipart. */
export const MAX_PUT_BYTES = 64 * 1024 * 1024;

const xml = (status: number, body: string, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'application/xml', ...extra } });
const fail = (status: number, code: string, message: string, resource: string) => xml(status, s3Error(code, message, resource));

/** The tenant's ingest root in the data dir. */
function ingestRoot(dataDir: string, tenantId: string): string {
  return join(dataDir, 'media', tenantId);
}

/** /s3/* (no API key: each request is signed with a storage key). */
export function s3IngestRoutes(ctx: AppContext) {
  const store = new StorageKeyStore(ctx.db);
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const rawPath = url.pathname, rawQuery = url.search.slice(1);
    const resource = rawPath;
    const auth = parseAuthorization(request.headers.get('authorization'));
    if (!auth) return fail(403, 'AccessDenied', 'requests must be signed with AWS Signature Version 4 (Authorization header)', resource);
    const key = store.byAccessKey(auth.accessKeyId);
    if (!key) return fail(403, 'InvalidAccessKeyId', 'the access key does not exist or was revoked', resource);
    const why = verifySigV4({ method: request.method, rawPath, rawQuery, headers: request.headers, auth, secret: key.plain, now: ctx.clock.now() });
    if (why) return fail(403, 'SignatureDoesNotMatch', why, resource);
    const declared = request.headers.get('x-amz-content-sha256')!;
    if (declared.startsWith('STREAMING-')) return fail(501, 'NotImplemented', 'aws-chunked payloads are not supported; sign the payload hash or send UNSIGNED-PAYLOAD', resource);
    const len = Number(request.headers.get('content-length') ?? 0);
    if (len > MAX_PUT_BYTES) return fail(400, 'EntityTooLarge', `at most ${MAX_PUT_BYTES} bytes per request; use a multipart upload`, resource);
    const tenant = ctx.db.query<{ slug: string }, [string]>('SELECT slug FROM tenants WHERE id = ?').get(key.tenant_id)!;
    const segs = rawPath.split('/').slice(2); // ['', 's3', bucket, ...key]
    const bucket = decodeURIComponent(segs[0] ?? '');
    if (bucket !== tenant.slug) return fail(403, 'AccessDenied', `this key writes only to bucket "${tenant.slug}"`, resource);
    const objectKey = segs.slice(1).map((s) => decodeURIComponent(s)).join('/');
    const q = url.searchParams;
    const allowed = `ingest/${key.prefix}/in/`;
    store.used(key.id, ctx.clock.now());

    // ListObjectsV2 on the bucket (only under the key's prefix).
    if (!objectKey && request.method === 'GET') {
      const prefix = q.get('prefix') ?? allowed;
      if (!prefix.startsWith(allowed)) return fail(403, 'AccessDenied', `this key lists only under ${allowed}`, resource);
      const base = join(ingestRoot(ctx.config.dataDir, key.tenant_id), ...allowed.split('/').filter(Boolean));
      const items: { key: string; size: number; mtime: number; etag: string }[] = [];
      const walk = (dir: string, rel: string) => {
        if (!existsSync(dir)) return;
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          if (e.name.startsWith('.')) continue;
          if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
          else if (e.isFile() && `${rel}${e.name}`.startsWith(prefix)) { const st = statSync(join(dir, e.name)); items.push({ key: `${rel}${e.name}`, size: st.size, mtime: st.mtimeMs, etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"` }); }
        }
      };
      walk(base, allowed);
      items.sort((a, b) => (a.key < b.key ? -1 : 1));
      return xml(200, listResult(bucket, prefix, items.slice(0, 1000), null));
    }
    // Every object operation: the key must be a checked ingest key under the storage key's prefix.
    try { checkIngestKey(objectKey); } catch { return fail(400, 'InvalidArgument', 'the key must be ingest/<prefix>/in/<name> without empty, "." or ".." segments', resource); }
    if (!objectKey.startsWith(allowed)) return fail(403, 'AccessDenied', `this key writes only under ${allowed}`, resource);
    const dest = join(ingestRoot(ctx.config.dataDir, key.tenant_id), ...objectKey.split('/'));
    const uploads = join(ingestRoot(ctx.config.dataDir, key.tenant_id), 'ingest', '.multipart');

    if (request.method === 'HEAD') {
      if (!existsSync(dest) || !statSync(dest).isFile()) return new Response(null, { status: 404 });
      const st = statSync(dest);
      return new Response(null, { status: 200, headers: { 'content-length': String(st.size), 'last-modified': new Date(st.mtimeMs).toUTCString() } });
    }
    if (request.method === 'POST' && q.has('uploads')) {
      const id = crypto.randomUUID().replace(/-/g, '');
      store.startUpload(id, key.id, objectKey, ctx.clock.now());
      mkdirSync(join(uploads, id), { recursive: true });
      return xml(200, initiateResult(bucket, objectKey, id));
    }
    if (q.has('uploadId')) {
      const up = store.upload(q.get('uploadId')!, key.id);
      if (!up || up.object_key !== objectKey) return fail(404, 'NoSuchUpload', 'no such multipart upload', resource);
      const dir = join(uploads, up.id);
      if (request.method === 'DELETE') { store.endUpload(up.id); rmSync(dir, { recursive: true, force: true }); return new Response(null, { status: 204 }); }
      if (request.method === 'PUT') {
        const n = Number(q.get('partNumber'));
        if (!Number.isInteger(n) || n < 1 || n > 10_000) return fail(400, 'InvalidArgument', 'partNumber must be 1-10000', resource);
        const body = new Uint8Array(await request.arrayBuffer());
        if (!payloadMatches(declared, body)) return fail(400, 'XAmzContentSHA256Mismatch', 'the body does not match x-amz-content-sha256', resource);
        const etag = createHash('md5').update(body).digest('hex');
        writeFileSync(join(dir, `${String(n).padStart(5, '0')}.${etag}`), body);
        return new Response(null, { status: 200, headers: { etag: `"${etag}"` } });
      }
      if (request.method === 'POST') {
        const body = new Uint8Array(await request.arrayBuffer());
        if (!payloadMatches(declared, body)) return fail(400, 'XAmzContentSHA256Mismatch', 'the body does not match x-amz-content-sha256', resource);
        let parts: { partNumber: number; etag: string }[];
        try { parts = completeParts(new TextDecoder().decode(body)); } catch { return fail(400, 'MalformedXML', 'the CompleteMultipartUpload body is not valid XML', resource); }
        if (!parts.length) return fail(400, 'MalformedXML', 'no parts', resource);
        const have = new Set(readdirSync(dir));
        mkdirSync(dirname(dest), { recursive: true });
        const tmp = `${dest}.partial-${up.id}`;
        const out = createWriteStream(tmp);
        const md5s: Buffer[] = [];
        for (const [i, p] of parts.entries()) {
          const name = `${String(p.partNumber).padStart(5, '0')}.${p.etag}`;
          if (!have.has(name) || (i && p.partNumber <= parts[i - 1]!.partNumber)) { out.destroy(); rmSync(tmp, { force: true }); return fail(400, 'InvalidPart', `part ${p.partNumber} was not uploaded with that ETag (or parts are out of order)`, resource); }
          md5s.push(Buffer.from(p.etag, 'hex'));
          for await (const chunk of createReadStream(join(dir, name))) if (!out.write(chunk)) await once(out, 'drain');
        }
        out.end();
        await once(out, 'close');
        renameSync(tmp, dest);
        store.endUpload(up.id);
        rmSync(dir, { recursive: true, force: true });
        return xml(200, completeResult(bucket, objectKey, `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${parts.length}"`));
      }
    }
    if (request.method === 'PUT') {
      const body = new Uint8Array(await request.arrayBuffer());
      if (!payloadMatches(declared, body)) return fail(400, 'XAmzContentSHA256Mismatch', 'the body does not match x-amz-content-sha256', resource);
      mkdirSync(dirname(dest), { recursive: true });
      const tmp = `${dest}.partial-${crypto.randomUUID()}`;
      writeFileSync(tmp, body);
      renameSync(tmp, dest);
      return new Response(null, { status: 200, headers: { etag: `"${createHash('md5').update(body).digest('hex')}"` } });
    }
    return fail(405, 'MethodNotAllowed', `${request.method} is not supported here`, resource);
  };
  return new Elysia({ prefix: '/s3' })
    .all('/*', ({ request }) => handle(request), { parse: 'none', detail: hidden })
    .all('/', ({ request }) => handle(request), { parse: 'none', detail: hidden });
}
