/**
 * The management API tried from outside: the order of checks (key → rate limit → scope → body), hostile bodies
 * that must cost milliseconds, the low-severity items of the security review, and schema-driven fuzzing of every
 * operation of the served OpenAPI document (fast-check).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawRequest } from '../helpers/raw-http';
import { IdentityService } from '../../src/features/identity/service';

const root = mkdtempSync(join(tmpdir(), 'vs-secapi-'));
let s: TestServer;
let fuzz: TestServer;
let viewerKey: string;

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  viewerKey = new IdentityService(s.ctx.db, s.ctx.keys).createKey(new IdentityService(s.ctx.db, null).tenant('default').id, { role: 'viewer' }).key;
  // The fuzzing server lifts the rate limit so every generated request reaches validation.
  const cfg = join(root, 'fuzz.yml');
  writeFileSync(cfg, 'rate_limit:\n  per_second: 100000\n  burst: 100000\n');
  fuzz = await startTestServer({ workers: false, env: { VS_CONFIG: cfg } });
}, 60_000);
afterAll(async () => { await s.stop(); await fuzz.stop(); rmSync(root, { recursive: true, force: true }); });

const MB = 1024 * 1024;
const HOSTILE: [string, string, string][] = [
  ['text/plain 1 MB', 'text/plain', 'a'.repeat(MB)],
  ['JSON array of 400k zeros', 'application/json', `[${new Array(400_000).fill('0').join(',')}]`],
  ['JSON object of 60k unknown keys', 'application/json', JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, 1]))).slice(0, MB - 2) + '}'],
  ['JSON nested 100k deep', 'application/json', '['.repeat(100_000) + ']'.repeat(100_000)],
  ['form-urlencoded 1 MB', 'application/x-www-form-urlencoded', Array.from({ length: 90_000 }, (_, i) => `k${i}=v`).join('&').slice(0, MB)],
];

/** Worst /healthz answer time while `work` runs (polled every 5 ms). */
async function healthzWorst(work: () => Promise<unknown>): Promise<number> {
  let running = true, worst = 0;
  const poll = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${s.url}/healthz`)).arrayBuffer();
      worst = Math.max(worst, performance.now() - t);
      await Bun.sleep(5);
    }
  })();
  await work();
  running = false;
  await poll;
  return worst;
}

describe('authorization before parsing', () => {
  test('a missing key answers 401 before any body check, whatever the body', async () => {
    for (const [, type, body] of HOSTILE.slice(0, 2)) {
      for (const path of ['/v1/uploads', '/v1/playback/tokens', '/v1/channels', '/v1/webhooks']) {
        const r = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': type }, body });
        expect(r.status).toBe(401);
      }
    }
    const r = await s.api('POST', '/v1/assets', { nonsense: true }, { key: null });
    expect(r.status).toBe(401);
  });

  test('a viewer key with an unknown field on a write route answers 403, not 400', async () => {
    const r = await s.api('POST', '/v1/channels', { name: 'x', bogus: 1 }, { key: viewerKey });
    expect(r.status).toBe(403);
    expect((await r.json() as { type: string }).type).toEndWith('/insufficient_scope');
  });

  test('invalid bodies spend the rate limit', async () => {
    const key = new IdentityService(s.ctx.db, s.ctx.keys).createKey(new IdentityService(s.ctx.db, null).tenant('default').id, { role: 'owner' }).key;
    const codes = await Promise.all(Array.from({ length: 300 }, () => s.api('POST', '/v1/channels', { bogus: 1 }, { key }).then((r) => r.status)));
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    expect(codes.every((c) => c === 400 || c === 429)).toBe(true);
  });

  test('hostile 1 MB bodies to public and keyless routes cost milliseconds: /healthz stays responsive', async () => {
    const idle = await healthzWorst(() => Bun.sleep(500));
    for (const [name, type, body] of HOSTILE) {
      for (const path of ['/v1/playback/session', '/v1/uploads', '/v1/playback/tokens', '/v1/hooks/0190aaaa-0000-7000-8000-000000000000']) {
        let status = 0;
        // 50 ms on a quiet machine, against the same run's idle polling. A body that blocks the loop does so every
        // time; one scheduling hiccup of a loaded CI host does not: the case is tried up to three times and its best
        // try counts (each try is printed when it fails).
        const tries: number[] = [];
        for (let i = 0; i < 3; i++) {
          tries.push(await healthzWorst(async () => {
            const r = await fetch(s.url + path, { method: 'POST', headers: { 'content-type': type }, body });
            status = r.status;
            await r.arrayBuffer();
          }));
          expect(status, `${name} → ${path}`).toBeLessThan(500);
          if (tries[i] < 50 + idle) break;
        }
        const worst = Math.min(...tries);
        expect(worst, `${name} → ${path}: /healthz worst ${tries.map((t) => t.toFixed(1)).join(' / ')} ms (idle ${idle.toFixed(1)} ms)`).toBeLessThan(50 + idle);
      }
    }
  });

  test('problem errors[] is capped at 20 entries and says it was cut', async () => {
    const body = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown_${i}`, i]));
    const r = await s.api('POST', '/v1/channels', body);
    expect(r.status).toBe(400);
    const p = await r.json() as { errors: unknown[]; errors_truncated?: boolean };
    expect(p.errors.length).toBe(20);
    expect(p.errors_truncated).toBe(true);
  });
});

describe('the low items', () => {
  test('no coercion: a string where an integer belongs is 422', async () => {
    const asset = 'nope';
    const r = await s.api('POST', '/v1/playback/tokens', { asset, ttl_s: '10' });
    expect(r.status).toBe(422);
  });

  test('__proto__ and constructor keys are refused', async () => {
    for (const body of ['{"name":"x","__proto__":{"admin":true}}', '{"name":"x","constructor":{"prototype":{}}}', '{"name":"x","meta":{"__proto__":1}}']) {
      const r = await s.api('POST', '/v1/channels', body);
      expect(r.status).toBe(400);
    }
  });

  test('non-JSON content types on JSON routes answer 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const r = await s.api('POST', '/v1/channels', 'name=x', { headers: { 'content-type': type } });
      expect(r.status).toBe(415);
    }
  });

  test('unsupported methods answer 405 with Allow (TRACE included)', async () => {
    const trace = await rawRequest(Number(new URL(s.url).port), `TRACE /v1/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.key}`);
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toContain('GET');
    const del = await s.api('DELETE', '/v1/me');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toContain('GET');
    expect((await s.api('GET', '/v1/no-such-thing')).status).toBe(404);
  });

  test('an oversized part closes its connection: the next normal part from Bun fetch completes in under 1 s', async () => {
    const up = await (await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 1000, content_type: 'video/mp4' })).json() as { upload_id: string; key: string };
    const big = new Uint8Array(2 * 1024 * 1024);
    const r = await fetch(`${s.url}/v1/uploads/${up.upload_id}/parts/1?key=${encodeURIComponent(up.key)}`, { method: 'PUT', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/octet-stream' }, body: big });
    expect([413, 422]).toContain(r.status);
    expect(r.headers.get('connection')).toBe('close');
    // The normal part right after, from the same Bun client: answered at once (no 120 s hang on a poisoned socket).
    const t0 = performance.now();
    const ok = await fetch(`${s.url}/v1/uploads/${up.upload_id}/parts/1?key=${encodeURIComponent(up.key)}`, { method: 'PUT', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/octet-stream' }, body: new Uint8Array(1000) });
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});

// ---- schema-driven fuzzing from the served OpenAPI document ----

interface Op { method: string; path: string; security: boolean; scope: string | null; body: unknown | null; stream: boolean }
type Schema = Record<string, unknown>;

function resolveRef(doc: Schema, s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 8 && typeof cur.$ref === 'string'; i++) {
    cur = (cur.$ref as string).slice(2).split('/').reduce<Schema>((o, k) => o[k] as Schema, doc);
  }
  return cur;
}

/** A fast-check arbitrary for (roughly) valid values of a JSON schema, with hostile strings mixed in. */
function arb(doc: Schema, s0: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s0 || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  const s = resolveRef(doc, s0);
  const alts = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alts?.length) return fc.oneof(...alts.map((a) => arb(doc, a, depth + 1)));
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const hostileStr = fc.constantFrom('../../etc/passwd', '%2e%2e%2f', 'http://127.0.0.1:1/', '\u0000', 'x'.repeat(5000), '<script>', '0190aaaa-0000-7000-8000-000000000000', '');
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const req = new Set((s.required ?? []) as string[]);
      const rec: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) rec[k] = arb(doc, v, depth + 1);
      return fc.record(rec, { requiredKeys: [...req].filter((k) => k in rec) });
    }
    case 'array': return fc.array(arb(doc, s.items as Schema, depth + 1), { maxLength: 3 });
    case 'integer': return fc.oneof(fc.integer({ min: (s.minimum as number) ?? -1e6, max: (s.maximum as number) ?? 1e6 }), fc.constantFrom(-1, 0, 2 ** 53));
    case 'number': return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(0));
    case 'boolean': return fc.boolean();
    case 'string': return fc.oneof(fc.string({ maxLength: 40 }), hostileStr);
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

const fuzzPort = () => Number(new URL(fuzz.url).port);

describe('schema-driven fuzzing of every /v1 operation', () => {
  let doc: Schema;
  let ops: Op[];
  beforeAll(async () => {
    doc = await (await fetch(`${fuzz.url}/openapi.json`)).json() as Schema;
    ops = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const sec = (op.security ?? doc.security) as unknown[] | undefined;
        const content = ((op.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
        const ok = ((op.responses as Record<string, Schema> | undefined)?.['200']?.content ?? {}) as Record<string, unknown>;
        ops.push({ method: method.toUpperCase(), path, security: !!sec?.length, scope: (op['x-required-scope'] as string | undefined) ?? null, body: content['application/json']?.schema ?? null, stream: 'text/event-stream' in ok });
      }
    }
    expect(ops.length).toBeGreaterThan(60);
  });

  const pathArb = (p: string) => fc.array(fc.constantFrom('0190aaaa-0000-7000-8000-000000000000', 'x', '%2e%2e', '..%2f..%2fetc', 'default', '%252e%252e', '1'), { minLength: 8, maxLength: 8 })
    .map((vals) => { let i = 0; return p.replace(/\{[^}]+\}/g, () => vals[i++]); });

  test('no key → 401 before anything else, on every keyed operation, with any body', async () => {
    for (const op of ops.filter((o) => o.security)) {
      await fc.assert(fc.asyncProperty(pathArb(op.path), fc.oneof(fc.jsonValue(), fc.string()), async (path, body) => {
        // Raw socket: no client-side URL normalisation of the encoded traversal in the parameters.
        const payload = op.method === 'GET' || op.method === 'DELETE' ? '' : JSON.stringify(body);
        const r = await rawRequest(fuzzPort(), `${op.method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}`, payload);
        const cleanTarget = !/%2e|%25|%2f|%5c|\.\./i.test(path);
        // Encoded dot segments: Bun resolves them while reading the target (the path then names no keyed route → 404)
        // or the canonical check refuses the target (400). Never anything but a refusal.
        return r.status === 401 || (!cleanTarget && r.status >= 400 && r.status < 500);
      }), { numRuns: 3 });
    }
  });

  test('a scope the key lacks → 403 before validation', async () => {
    const viewerScopes = new Set(['assets:read', 'clips:read', 'channels:read', 'stats:read', 'events:read', 'sites:read', 'support:read', 'support:write', 'ai:read']);
    const viewer = new IdentityService(fuzz.ctx.db, fuzz.ctx.keys).createKey(new IdentityService(fuzz.ctx.db, null).tenant('default').id, { role: 'viewer' }).key;
    const denied = ops.filter((o) => o.security && o.scope && o.scope !== 'none' && o.scope.split(' | ').every((x) => !viewerScopes.has(x.trim())));
    expect(denied.length).toBeGreaterThan(20);
    for (const op of denied) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      const r = await fuzz.api(op.method, path, op.method === 'GET' || op.method === 'DELETE' ? undefined : { surely_unknown_field: [1, 2, 3] }, { key: viewer });
      expect(r.status, `${op.method} ${op.path}`).toBe(403);
    }
  });

  test('generated bodies and parameters: no 5xx, every answer under 1 s', async () => {
    const slow: string[] = [], hung: string[] = [], failures: string[] = [];
    // The event stream answers at once but never ends by design (tested in events-stream.test.ts).
    expect(ops.filter((o) => o.stream).map((o) => o.path)).toEqual(['/v1/events/stream']);
    for (const op of ops.filter((o) => !o.stream)) {
      const bodyArb = op.body ? fc.oneof(arb(doc, op.body as Schema), fc.jsonValue({ maxDepth: 2 })) : fc.constant(undefined);
      await fc.assert(fc.asyncProperty(pathArb(op.path), bodyArb, fc.constantFrom('', '?limit=1', '?limit=0', '?limit=abc', '?cursor=x', '?limit=200&cursor='), async (path, body, q) => {
        const t0 = performance.now();
        const sendsBody = !(op.method === 'GET' || op.method === 'DELETE');
        const payload = sendsBody ? JSON.stringify(body === undefined ? {} : body) : '';
        let status = 0;
        try {
          const r = await rawRequest(fuzzPort(), `${op.method} ${path}${op.method === 'GET' ? q : ''} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${fuzz.key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}`, payload, 5_000);
          status = r.status;
        } catch (e) { hung.push(`${op.method} ${path}: ${(e as Error).message}`); return true; }
        const ms = performance.now() - t0;
        if (status >= 500) failures.push(`${op.method} ${path} → ${status} ${payload.slice(0, 200)}`);
        if (ms > 1000) slow.push(`${op.method} ${path} ${ms.toFixed(0)} ms`);
        return true;
      }), { numRuns: 12 });
    }
    expect(hung).toEqual([]);
    expect(failures).toEqual([]);
    expect(slow).toEqual([]);
  }, 300_000);
});
