/**
 * Event export (issue 47) against real receivers: a signed HTTPS receiver (Bun.serve), an S3-protocol server (s3rver),
 * librdkafka's Kafka-protocol mock cluster (Debian kcat) read back with kafkajs, and a local server speaking the GA4
 * Measurement Protocol. Order, batching, retries, dead letters, replays, disabling, statistics events, hostile input.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { S3Client } from 'bun';
import S3rver from 's3rver';
import { Kafka, logLevel } from 'kafkajs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { verifySignature } from '../../src/kernel/events/signing';
import { exportWorker } from '../../src/features/export/routes';
import { statsBody } from '../../src/features/export/events';
import { addReadyAsset } from '../helpers/ready-asset';
import { identityService } from '../../src/features/identity/service';

interface Line { schema: string; id: string; type: string; at: string; tenant_id: string; data: Record<string, unknown> }

let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'vs-export-'));
const start = new Date(Date.now() - 1000).toISOString();

/** A receiver of signed NDJSON batches; `fail` makes it answer 500. */
function receiver(secret: () => string) {
  const got: { batch: string; lines: Line[]; verified: boolean }[] = [];
  let fail = false;
  const srv = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const body = new Uint8Array(await req.arrayBuffer());
      if (fail) return new Response('down', { status: 500 });
      const verified = verifySignature(secret(), req.headers.get('x-vs-timestamp'), req.headers.get('x-vs-signature'), body, Date.now()) === null;
      const lines = new TextDecoder().decode(body).trim().split('\n').map((l) => JSON.parse(l) as Line);
      got.push({ batch: req.headers.get('x-vs-batch') ?? '', lines, verified });
      return new Response(null, { status: 204 });
    },
  });
  return { url: `http://127.0.0.1:${srv.port}/in`, got, setFail: (v: boolean) => { fail = v; }, stop: () => srv.stop(true), events: () => got.flatMap((g) => g.lines) };
}

async function policies(n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(((await (await s.api('POST', '/v1/playback/policies', { name: `${tag} ${i}` })).json()) as { id: string }).id);
  return ids;
}

async function create(body: Record<string, unknown>): Promise<{ id: string; secret?: string }> {
  const r = await s.api('POST', '/v1/event-destinations', body);
  if (r.status !== 201) throw new Error(`create ${r.status}: ${await r.text()}`);
  return r.json() as Promise<{ id: string; secret?: string }>;
}

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.0/8', VS_EXPORT_RETRY_MS: '100,200', VS_EXPORT_TICK_MS: '50', VS_STATS_FLUSH_MS: '200' } });
});
afterAll(async () => { await s?.stop(); rmSync(dir, { recursive: true, force: true }); });

describe('event export', () => {
  test('https: signed ordered batches, statistics events, retries to a dead letter, replays, disable keeps the position', async () => {
    let secret = '';
    const rx = receiver(() => secret);
    try {
      const d = await create({ name: 'receiver', kind: 'https', https: { url: rx.url }, events: { platform: ['policy.changed'], statistics: ['edge_requests'] }, batch: { max_events: 3, max_age_s: 0.2 } });
      secret = d.secret!;
      expect(secret).toMatch(/^whsec_/);
      expect(JSON.stringify(await (await s.api('GET', `/v1/event-destinations/${d.id}`)).json())).not.toContain(secret);
      const ids = await policies(7, 'order');
      const policyEvents = () => rx.events().filter((e) => e.type === 'policy.changed');
      await waitFor('7 events', () => policyEvents().length >= 7, 20_000);
      expect(policyEvents().map((e) => e.data.policy)).toEqual(ids);
      expect(rx.got.every((g) => g.verified)).toBe(true);
      expect(rx.got.every((g) => g.lines.length <= 3)).toBe(true);
      expect(new Set(policyEvents().map((e) => e.id)).size).toBe(7);
      for (const e of policyEvents()) { expect(e.schema).toBe('vs.event.v1'); expect(Number.isFinite(Date.parse(e.at))).toBe(true); }

      // Statistics: a delivered segment shows up as a stats.edge_request event once the origin log settled.
      const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
      const asset = addReadyAsset(s, tenant, new Uint8Array(4096).fill(7));
      const tok = await (await s.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string };
      expect((await fetch(new URL('seg_00001.m4s', tok.src))).status).toBe(200);
      await waitFor('edge request exported', () => rx.events().some((e) => e.type === 'stats.edge_request' && e.data.target === asset && e.data.file === 'seg_00001.m4s'), 30_000);
      const edge = rx.events().find((e) => e.type === 'stats.edge_request')!;
      expect(edge.data.ip_hash).toBeUndefined(); // viewer-level columns only with statistics_pii

      // A failing receiver: 1 attempt + 2 retries, then the batch is a dead letter; replaying it delivers.
      rx.setFail(true);
      const late = await policies(2, 'dead');
      const dead = await waitFor('dead letter', async () => {
        const b = await (await s.api('GET', `/v1/event-destinations/${d.id}/dead-letters`)).json() as { items: { id: string; attempts: number; last_error: string; events: number }[] };
        return b.items[0] ?? null;
      }, 20_000);
      expect(dead.attempts).toBe(3);
      expect(dead.last_error).toBe('HTTP 500');
      expect(dead.events).toBe(2);
      rx.setFail(false);
      const rep = await s.api('POST', `/v1/event-destinations/${d.id}/dead-letters/${dead.id}/replay`);
      expect(rep.status).toBe(200);
      await waitFor('dead letter delivered', () => late.every((id) => policyEvents().some((e) => e.data.policy === id)), 20_000);
      expect((await s.api('POST', `/v1/event-destinations/${d.id}/dead-letters/${dead.id}/replay`)).status).toBe(409);

      // Disabled: no batch is cut (a worker round runs), the position stays; enabled again it goes on from there.
      expect((await s.api('PATCH', `/v1/event-destinations/${d.id}`, { enabled: false })).status).toBe(200);
      const before = rx.events().length;
      const paused = await policies(2, 'paused');
      await exportWorker(s.ctx).round();
      await exportWorker(s.ctx).round();
      expect(rx.events().length).toBe(before);
      expect((await s.api('PATCH', `/v1/event-destinations/${d.id}`, { enabled: true })).status).toBe(200);
      await waitFor('resumed', () => paused.every((id) => policyEvents().some((e) => e.data.policy === id)), 20_000);

      // Replay by time range: every policy event again, same ids, in order.
      const firstIds = policyEvents().map((e) => e.id);
      const r = await s.api('POST', `/v1/event-destinations/${d.id}/replay`, { from: start, to: new Date(Date.now() + 1000).toISOString() });
      expect(r.status).toBe(202);
      expect(((await r.json()) as { batches: number }).batches).toBeGreaterThanOrEqual(4);
      await waitFor('replayed', () => policyEvents().length >= firstIds.length * 2, 20_000);
      expect(policyEvents().slice(firstIds.length).map((e) => e.id)).toEqual(firstIds);

      // The delivery log: delivered batches with events, bytes and latency.
      const log = await (await s.api('GET', `/v1/event-destinations/${d.id}/deliveries?limit=5`)).json() as { items: { status: string; events: number; bytes: number; latency_ms: number }[]; next_cursor: string | null };
      expect(log.items.length).toBe(5);
      expect(log.next_cursor).not.toBeNull();
      // (A statistics batch may be in flight at the head and the next one cut and read ahead: both pending.)
      const delivered = log.items.filter((b) => b.status === 'delivered');
      expect(delivered.length).toBeGreaterThanOrEqual(3);
      expect(delivered.every((b) => (b.events === 0 || b.bytes > 0) && b.latency_ms >= 0)).toBe(true);
      expect(log.items.every((b) => b.status === 'delivered' || b.status === 'pending')).toBe(true);
    } finally { rx.stop(); }
  }, 120_000);

  test('https gzip: compressed bodies (Content-Encoding: gzip) signed as sent, platform and statistics batches', async () => {
    // Before: `https.gzip` did not exist (400 unknown field) and every body went uncompressed.
    let secret = '';
    const got: { encoding: string | null; verified: boolean; events: number; lines: Line[] }[] = [];
    const srv = Bun.serve({
      port: 0, hostname: '127.0.0.1',
      async fetch(req) {
        const raw = new Uint8Array(await req.arrayBuffer());
        // The signature covers the bytes as sent: checked before anything is inflated.
        const verified = verifySignature(secret, req.headers.get('x-vs-timestamp'), req.headers.get('x-vs-signature'), raw, Date.now()) === null;
        const text = gunzipSync(raw).toString();
        got.push({ encoding: req.headers.get('content-encoding'), verified, events: Number(req.headers.get('x-vs-events')), lines: text.trim().split('\n').map((l) => JSON.parse(l) as Line) });
        return new Response(null, { status: 204 });
      },
    });
    try {
      const d = await create({ name: 'gzip', kind: 'https', https: { url: `http://127.0.0.1:${srv.port}/in`, gzip: true }, events: { platform: ['policy.changed'], statistics: ['edge_requests'] }, batch: { max_events: 50, max_age_s: 0.2 } });
      secret = d.secret!;
      expect(((await (await s.api('GET', `/v1/event-destinations/${d.id}`)).json()) as { settings: { gzip: boolean } }).settings.gzip).toBe(true);
      const ids = await policies(3, 'gzip');
      const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
      const at = Date.now() + 100;
      await s.ctx.stats.run(`INSERT INTO edge_requests SELECT ${at} + i, '${tenant}', 'asset', 'gz-target', 'r0', 'gz_' || i || '.m4s', 'GET', 200, 1000, 1.5, 's', 'disk', 'h', 'IL', 1, 'desktop', 'chrome', 'linux', NULL, NULL FROM range(120) t(i)`);
      const all = () => got.flatMap((g) => g.lines);
      await waitFor('policies and 120 edge requests', () => ids.every((id) => all().some((e) => e.data.policy === id)) && all().filter((e) => e.data.target === 'gz-target').length >= 120, 30_000);
      expect(got.every((g) => g.encoding === 'gzip' && g.verified && g.events === g.lines.length)).toBe(true);
      const edge = all().filter((e) => e.data.target === 'gz-target');
      expect(edge.map((e) => e.data.file)).toEqual(Array.from({ length: 120 }, (_, i) => `gz_${i}.m4s`));
      expect(got.some((g) => g.lines.every((l) => l.type === 'stats.edge_request') && g.lines.length === 50)).toBe(true);
      // The delivery log counts the bytes put on the wire (compressed).
      const log = await (await s.api('GET', `/v1/event-destinations/${d.id}/deliveries?limit=50`)).json() as { items: { status: string; events: number; bytes: number }[] };
      const stats = log.items.filter((b) => b.status === 'delivered' && b.events === 50);
      expect(stats.length).toBeGreaterThanOrEqual(2);
      expect(stats.every((b) => b.bytes > 0 && b.bytes < 50 * 300)).toBe(true);
    } finally { srv.stop(true); }
  }, 60_000);

  test('s3: gzip NDJSON objects at deterministic keys; a resend overwrites instead of duplicating', async () => {
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'events', configs: [] }] });
    const { port } = await s3.run();
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      const d = await create({ name: 'lake', kind: 's3', s3: { endpoint, bucket: 'events', access_key_id: 'S3RVER', secret_access_key: 'S3RVER', prefix: 'vs/' }, events: { platform: ['policy.changed'] }, batch: { max_events: 4, max_age_s: 0.2 } });
      const ids = await policies(6, 's3');
      const client = new S3Client({ endpoint, bucket: 'events', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' });
      const read = async () => {
        const list = await client.list({ prefix: 'vs/platform/' });
        const keys = (list.contents ?? []).map((c) => c.key).sort();
        const lines: Line[] = [];
        for (const k of keys) lines.push(...gunzipSync(Buffer.from(await client.file(k).arrayBuffer())).toString().trim().split('\n').map((l) => JSON.parse(l) as Line));
        return { keys, lines };
      };
      const first = (await waitFor('objects', async () => { const r = await read(); return r.lines.length >= 6 ? r : null; }, 20_000))!;
      // Listing order is by key (hashes), so compare as sets: each event once; inside an object, in order.
      expect(first.lines.map((l) => l.data.policy as string).sort()).toEqual([...ids].sort());
      expect(first.keys.every((k) => /^vs\/platform\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.ndjson\.gz$/.test(k))).toBe(true);
      // Every delivered batch sent again (as after a crash between the PUT and its record): same keys, no duplicates.
      s.ctx.db.query(`UPDATE export_batches SET status = 'pending' WHERE destination_id = ?`).run(d.id);
      await waitFor('resent', () => s.ctx.db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM export_batches WHERE destination_id = ? AND status = 'pending'`).get(d.id)!.n === 0, 20_000);
      const again = await read();
      expect(again.keys).toEqual(first.keys);
      expect(again.lines.map((l) => l.id)).toEqual(first.lines.map((l) => l.id));
    } finally { await s3.close(); }
  }, 60_000);

  test('kafka: every event read back in order from a Kafka-protocol broker, its id in a header', async () => {
    const kcat = Bun.spawn(['kcat', '-b', 'x:1', '-P', '-t', 'boot', '-X', 'test.mock.num.brokers=1'], { stdin: 'pipe', stdout: 'ignore', stderr: 'pipe' });
    try {
      let err = '';
      const reader = kcat.stderr.getReader();
      const broker: string = await waitFor('mock cluster', async () => {
        const r = await Promise.race([reader.read(), Bun.sleep(200).then(() => null)]);
        if (r && !r.done) err += new TextDecoder().decode(r.value);
        return /replaced with (127\.0\.0\.1:\d+)/.exec(err)?.[1] ?? null;
      }, 15_000) as string;
      void (async () => { for (;;) { const r = await reader.read(); if (r.done) break; } })();
      await create({ name: 'bus', kind: 'kafka', kafka: { brokers: [broker], topic: 'vs-events' }, events: { platform: ['policy.changed'] }, batch: { max_events: 5, max_age_s: 0.2 } });
      const ids = await policies(8, 'kafka');
      const kafka = new Kafka({ clientId: 'test', brokers: [broker], logLevel: logLevel.NOTHING });
      const consumer = kafka.consumer({ groupId: `g-${crypto.randomUUID()}` });
      const seen: { key: string; line: Line }[] = [];
      await consumer.connect();
      try {
        await consumer.subscribe({ topic: 'vs-events', fromBeginning: true });
        await consumer.run({ eachMessage: async ({ message }) => { seen.push({ key: String(message.headers?.['vs-event-id'] ?? ''), line: JSON.parse(message.value!.toString()) as Line }); } });
        await waitFor('8 messages', () => seen.length >= 8, 40_000);
      } finally { await consumer.disconnect(); }
      expect(seen.map((m) => m.line.data.policy)).toEqual(ids);
      expect(seen.every((m) => m.key === m.line.id && m.line.schema === 'vs.event.v1')).toBe(true);
    } finally { kcat.kill(9); await kcat.exited; }
  }, 90_000);

  test('ga4: Measurement Protocol requests of at most 25 events, checked at creation by the debug endpoint', async () => {
    const hits: { client_id: string; events: { name: string; params: Record<string, unknown> }[] }[] = [];
    const ga = Bun.serve({
      port: 0, hostname: '127.0.0.1',
      async fetch(req) {
        const u = new URL(req.url);
        const body = await req.json() as (typeof hits)[number];
        if (u.pathname === '/debug/mp/collect') {
          const bad = u.searchParams.get('api_secret') === 'wrong' ? [{ fieldPath: 'api_secret', description: 'Unknown API secret.' }] : [];
          return Response.json({ validationMessages: bad });
        }
        if (u.pathname === '/mp/collect' && u.searchParams.get('measurement_id') === 'G-TEST1') { hits.push(body); return new Response(null, { status: 204 }); }
        return new Response(null, { status: 404 });
      },
    });
    try {
      const endpoint = `http://127.0.0.1:${ga.port}`;
      const refused = await s.api('POST', '/v1/event-destinations', { name: 'ga', kind: 'ga4', ga4: { measurement_id: 'G-TEST1', api_secret: 'wrong', endpoint } });
      expect(refused.status).toBe(422);
      expect(await refused.text()).toContain('Unknown API secret');
      await create({ name: 'ga', kind: 'ga4', ga4: { measurement_id: 'G-TEST1', api_secret: 'right', endpoint }, events: { platform: ['policy.changed'] }, batch: { max_events: 60, max_age_s: 0.3 } });
      await policies(30, 'ga');
      await waitFor('30 GA4 events', () => hits.flatMap((h) => h.events).length >= 30, 20_000);
      expect(hits.every((h) => h.events.length <= 25)).toBe(true);
      expect(hits.flatMap((h) => h.events).every((e) => e.name === 'vs_policy_changed' && typeof e.params.event_id === 'string')).toBe(true);
    } finally { ga.stop(true); }
  }, 60_000);

  test('statistics lines: text with newlines, quotes and control characters stays one valid line per row, ids stable', async () => {
    // Before: lines were split on "\n" in JS, so an error text with a newline cut its row in two broken lines.
    const t = 'tenant-lines', err = ['first\nsecond', 'quote " and \\ backslash', 'ctrl \x01\x02\x1e\x1f end', 'שלום, \r\n done'];
    const rows = err.map((e, i) => `(${1_000 + i}, ${2_000 + i}, '${t}', 's${i}', 'v${i}', 'example.com', 'https://example.com/p?a=1', 'asset', 'c1', NULL, false, 'error', 1.5, 0, NULL, NULL, NULL, NULL,
      '${e.replaceAll("'", "''")}', 'h', 'IL', 1680, 'desktop', 'UA "x"', NULL, '{"k":"${i}"}')`);
    await s.ctx.stats.run(`INSERT INTO player_events VALUES ${rows.join(', ')}`, []);
    const read = async (pii: boolean) => {
      const r = await statsBody(s.ctx, 'player_events', t, 0, 10_000, pii);
      const text = new TextDecoder().decode(r.body);
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Line);
      expect(lines.length).toBe(r.count);
      return lines;
    };
    const lines = await read(false);
    expect(lines.map((l) => l.data.error)).toEqual(err);
    expect(lines.every((l) => /^[0-9a-f]{32}$/.test(l.id) && l.type === 'stats.player_event' && l.tenant_id === t && !('ip_hash' in l.data))).toBe(true);
    expect(new Set(lines.map((l) => l.id)).size).toBe(err.length);
    // The id is a hash of the whole row: the same with viewer-level columns sent (statistics_pii) and on a re-read.
    const pii = await read(true);
    expect(pii.map((l) => l.id)).toEqual(lines.map((l) => l.id));
    expect(pii[0]!.data.user_agent).toBe('UA "x"');
  });

  test('hostile input: unknown fields 400, wrong types 422, private addresses, other tenants, scopes', async () => {
    const post = (b: unknown, key?: string) => s.api('POST', '/v1/event-destinations', b, key ? { key } : {});
    expect((await post({ name: 'x', kind: 'https', https: { url: 'https://example.com/' }, extra: 1 })).status).toBe(400);
    expect((await post({ name: 'x', kind: 'ftp' })).status).toBe(422);
    expect((await post({ name: 'x', kind: 'https', s3: { endpoint: 'https://example.com', bucket: 'abc', access_key_id: 'a', secret_access_key: 'b' } })).status).toBe(422);
    const priv = await post({ name: 'x', kind: 'https', https: { url: 'http://10.1.2.3/in' } });
    expect(priv.status).toBe(422);
    expect((await post({ name: 'x', kind: 'kafka', kafka: { brokers: ['169.254.169.254:9092'], topic: 't' } })).status).toBe(422);
    expect((await post({ name: 'x', kind: 'kafka', kafka: { brokers: ['not a broker'], topic: 't' } })).status).toBe(422);
    expect((await post({ name: 'x', kind: 'https', https: { url: 'https://example.com/' }, events: { platform: ['no.such'] } })).status).toBe(422);
    expect((await post({ name: 'x', kind: 'https', https: { url: 'https://example.com/' }, batch: { max_events: 0 } })).status).toBe(422);
    // Another tenant's destination is 404; a viewer key 403; no key 401.
    const other = identityService(s.ctx).createKey(identityService(s.ctx).createTenant({ name: 'Export other' }).id, { role: 'owner' });
    const mine = (await (await s.api('GET', '/v1/event-destinations')).json() as { items: { id: string }[] }).items[0]!.id;
    expect((await s.api('GET', `/v1/event-destinations/${mine}`, undefined, { key: other.key })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/event-destinations/${mine}`, undefined, { key: other.key })).status).toBe(404);
    const viewer = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string };
    expect((await s.api('GET', '/v1/event-destinations', undefined, { key: viewer.key })).status).toBe(403);
    expect((await s.api('GET', '/v1/event-destinations', undefined, { key: null })).status).toBe(401);
    expect((await s.api('POST', `/v1/event-destinations/${mine}/replay`, { from: 'yesterday', to: start })).status).toBe(422);
    expect((await s.api('POST', `/v1/event-destinations/${mine}/replay`, { from: '2020-01-01T00:00:00Z', to: '2021-01-01T00:00:00Z' })).status).toBe(422);
  });
});
