import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server';
import type { OpenApiDoc } from '../helpers/contract';
import { makeClip } from './transcode-helpers';
import { REPO_ROOT, run, writeClientProject } from './openapi-client-helpers';
import { startReceiver, type Receiver } from './webhooks-receiver';
import { HE_OPERATIONS } from '../../src/features/meta/he/operations';

type Op = { operationId: string; summary: string; description?: string; security?: unknown[]; requestBody?: { content: Record<string, { schema?: unknown }> }; responses: Record<string, { content?: Record<string, { schema?: unknown }>; $ref?: string }>; parameters?: { name: string; in: string; schema: { type?: string } }[] };
type Doc = OpenApiDoc & { paths: Record<string, Record<string, Op>>; info: { description: string; 'x-language': string } };

const tmp = mkdtempSync(join(tmpdir(), 'vs-contract-'));
let s: TestServer;
let en: Doc, he: Doc;
let media = '';
let receiver: Receiver;
const ops = (d: Doc) => Object.entries(d.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

beforeAll(async () => {
  receiver = startReceiver();
  s = await startTestServer({ validate: true, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  en = await (await fetch(`${s.url}/openapi.json`)).json() as Doc;
  he = await (await fetch(`${s.url}/openapi.he.json`)).json() as Doc;
  media = await makeClip(join(tmp, 'src.mp4'), { seconds: 2 });
}, 60_000);
afterAll(async () => { await s.stop(); receiver.stop(); rmSync(tmp, { recursive: true, force: true }); });

test('redocly lint: both served documents have 0 errors and 0 warnings', async () => {
  for (const [name, doc] of [['openapi.json', en], ['openapi.he.json', he]] as const) {
    const file = join(tmp, name);
    writeFileSync(file, JSON.stringify(doc));
    const r = await run([join(REPO_ROOT, 'node_modules/.bin/redocly'), 'lint', file, '--config', join(REPO_ROOT, 'redocly.yaml'), '--format=json'], REPO_ROOT);
    const report = JSON.parse(r.out.slice(r.out.indexOf('{'), r.out.lastIndexOf('}') + 1)) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect({ name, ...report.totals, problems: report.problems.map((p) => `${p.ruleId}: ${p.message}`) }).toEqual({ name, errors: 0, warnings: 0, ignored: 0, problems: [] } as never);
  }
}, 60_000);

test('every operation: exact path, typed parameters, request schema, success schemas, problems, security', () => {
  const all = ops(en);
  expect(all.length).toBeGreaterThanOrEqual(92);
  let bodies = 0;
  for (const { path, method, op } of all) {
    const at = `${method.toUpperCase()} ${path}`;
    expect(path.endsWith('/') ? at : '').toBe('');
    expect(op.operationId).toBeTruthy();
    const success = Object.keys(op.responses).filter((c) => /^2\d\d$/.test(c));
    expect(success.length ? at : `${at}: no success response`).toBe(at);
    for (const c of success) {
      const content = op.responses[c].content;
      // Every success answer has a schema, except 204 (no body).
      expect(c === '204' || Object.values(content ?? {}).every((m) => !!m.schema) && !!content ? at : `${at} ${c}: no schema`).toBe(at);
    }
    if (op.requestBody) {
      bodies++;
      expect(Object.values(op.requestBody.content).every((m) => !!m.schema) ? at : `${at}: body without schema`).toBe(at);
    }
    if (path !== '/healthz') expect(Object.keys(op.responses).some((c) => /^4\d\d$/.test(c)) ? at : `${at}: no 4xx`).toBe(at);
    for (const p of op.parameters ?? []) {
      if (p.name === 'limit') expect(`${at} limit ${p.schema.type}`).toBe(`${at} limit integer`);
    }
    const keyed = (op.security ?? []).length > 0;
    if (keyed) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
  }
  expect(bodies).toBeGreaterThanOrEqual(35);
  // Public routes carry no security requirement.
  for (const [p, m] of [['/healthz', 'get'], ['/v1/playback/session', 'post'], ['/v1/hooks/{hook_id}', 'post'], ['/v1/upload-parts/{n}', 'put']]) expect(en.paths[p][m].security).toEqual([]);
  expect(en.paths['/v1/me'].get.security).toEqual([{ apiKey: [] }]);
  // Bodies: JSON with its schema; parts are raw bytes.
  expect(Object.keys(en.paths['/v1/uploads'].post.requestBody!.content)).toEqual(['application/json']);
  expect(Object.keys(en.paths['/v1/uploads/{upload_id}/parts/{n}'].put.requestBody!.content)).toEqual(['application/octet-stream']);
  // The trailing-slash paths are documented without the slash, and the server answers them.
  for (const p of ['/v1/assets', '/v1/channels', '/v1/clips', '/v1/jobs']) expect(en.paths[p]?.get).toBeTruthy();
  const problem = en.components!.schemas as Record<string, { properties: Record<string, unknown> }>;
  expect(problem.Problem.properties.errors).toBeTruthy();
  // Every tag has a real description (not just its name).
  for (const tag of (en as unknown as { tags: { name: string; description: string }[] }).tags) expect(tag.description === tag.name ? `tag ${tag.name} undescribed` : '').toBe('');
  expect(en.info.description).toContain('## Delivery URLs');
  for (const shape of ['/live/<tenant>/<channel_slug>/master.m3u8', '/aes/master.m3u8', '/m/catchup/<channel_slug>/<start_ms>/<end_ms>/master.m3u8?c=<tenant>', '/m/startover/', '/m/clips/<clip_id>/master.m3u8', 'archive-<from_s>-<duration_s>.m3u8', '/t/<token>/']) {
    expect(en.info.description).toContain(shape);
  }
});

test('the Hebrew document translates every summary and description', () => {
  const heb = /[\u0590-\u05FF]/;
  const byId = new Map(ops(en).map((o) => [o.op.operationId, o.op]));
  for (const { method, path, op } of ops(he)) {
    const at = `${method.toUpperCase()} ${path}`;
    expect(heb.test(op.summary) ? at : `${at}: summary not Hebrew`).toBe(at);
    // The scope line is added by the builder in both languages; the operation's own text comes before it.
    const own = (d?: string) => (d ?? '').split(/\n\n(?:Required scope|הרשאה נדרשת): /)[0];
    expect(heb.test(own(op.description)) ? at : `${at}: description not Hebrew`).toBe(at);
    expect(own(op.description) === own(byId.get(op.operationId)?.description) ? `${at}: English description` : at).toBe(at);
  }
  // Every operation has its entry (entries for routes not registered yet are harmless).
  expect(Object.keys(HE_OPERATIONS).filter((id) => byId.has(id)).length).toBe(byId.size);
  expect(he.info.description).toMatch(heb);
  expect(he.info['x-language']).toBe('he');
});

let flow: { assetId: string; src: string; channel: string; clipStatus: number; clipField?: string };

test('a client generated with openapi-typescript + openapi-fetch type-checks and runs: upload, ready, token, channel, clip', async () => {
  const dir = await writeClientProject(en);
  try {
    const tsc = await run([join(REPO_ROOT, 'node_modules/.bin/tsc'), '-p', join(dir, 'tsconfig.json')], dir);
    expect(tsc.out).toBe('');
    expect(tsc.code).toBe(0);
    const r = await run(['bun', join(dir, 'client.ts')], dir, { VS_URL: s.url, VS_KEY: s.key, VS_FILE: media });
    expect(r.code === 0 ? '' : r.out).toBe('');
    flow = JSON.parse(r.out.trim().split('\n').pop()!);
    expect(flow.src).toContain('/t/');
    // Nothing is recorded on the new channel: the documented 422 names start_at.
    expect(flow.clipStatus).toBe(422);
    expect(flow.clipField).toBe('start_at');
  } finally { rmSync(dir, { recursive: true, force: true }); }
}, 240_000);

test('real answers of a broad flow match the document (Ajv 2020)', async () => {
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const r = await s.api(method, path, body);
    if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.status === 204 ? null : r.json() as Promise<any>;
  };
  const asset = flow.assetId;
  await ok('GET', '/healthz');
  await ok('GET', '/v1/me');
  const key = await ok('POST', '/v1/api-keys', { name: 'contract', role: 'viewer' }, 201);
  const keys = await ok('GET', '/v1/api-keys?limit=1');
  expect(keys.next_cursor).toBeTruthy();
  await ok('GET', `/v1/api-keys?limit=1&cursor=${encodeURIComponent(keys.next_cursor)}`);
  await ok('DELETE', `/v1/api-keys/${key.id}`, undefined, 204);
  await ok('GET', `/v1/assets/${asset}`);
  await ok('GET', '/v1/assets?limit=200');
  await ok('GET', '/v1/assets?q=contract');
  await ok('PATCH', `/v1/assets/${asset}`, { title: 'Contract check (edited)' });
  await ok('GET', '/v1/assets/trash/settings');
  await ok('PUT', '/v1/assets/trash/settings', { retention_days: 30 });
  const jobs = await ok('GET', `/v1/jobs?subject=${asset}`);
  await ok('GET', `/v1/jobs/${jobs.items[0].id}`);
  await ok('GET', `/v1/jobs/${jobs.items[0].id}/events`);
  await ok('GET', '/v1/jobs/failures');
  const tok = await ok('POST', '/v1/playback/tokens', { asset, ttl_s: 60 });
  await ok('POST', '/v1/security/revocations', { sid: tok.sid, reason: 'contract' }, 201);
  await ok('GET', '/v1/security/revocations');
  await ok('GET', '/v1/playback/signing-keys');
  const rotated = await ok('POST', '/v1/playback/signing-keys/rotate', undefined, 201);
  const signing = await ok('GET', '/v1/playback/signing-keys');
  const old = signing.items.find((k: { id: string }) => k.id !== rotated.id);
  if (old) await ok('DELETE', `/v1/playback/signing-keys/${old.id}`, undefined, 204);
  const pol = await ok('POST', '/v1/playback/policies', { name: 'contract', referrers: ['https://news.example'] }, 201);
  await ok('GET', '/v1/playback/policies');
  await ok('GET', `/v1/playback/policies/${pol.id}`);
  await ok('PATCH', `/v1/playback/policies/${pol.id}`, { default_ttl_s: 600 });
  await ok('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset });
  await ok('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: asset });
  await ok('DELETE', `/v1/playback/policies/${pol.id}`, undefined, 204);

  const chans = await ok('GET', '/v1/channels');
  const ch = chans.items.find((c: { slug: string }) => c.slug === flow.channel);
  await ok('GET', `/v1/channels/${ch.id}`);
  await ok('PATCH', `/v1/channels/${ch.id}`, { name: 'Contract channel 2' });
  await ok('GET', `/v1/channels/${ch.id}/ingest`);
  await ok('GET', `/v1/channels/${ch.id}/logs`);
  const day = new Date(Date.now() - 3 * 3_600_000);
  const prog = await ok('POST', `/v1/channels/${ch.id}/programmes`, { title: 'חדשות הערב', start_at: day.toISOString(), end_at: new Date(day.getTime() + 1_800_000).toISOString(), series: 'חדשות' }, 201);
  await ok('GET', `/v1/channels/${ch.id}/programmes`);
  await ok('GET', `/v1/channels/${ch.id}/programmes/${prog.id}`);
  await ok('PATCH', `/v1/channels/${ch.id}/programmes/${prog.id}`, { episode: '12' });
  await ok('PUT', `/v1/channels/${ch.id}/programmes/${prog.id}/boundaries`, { play_start: new Date(day.getTime() + 60_000).toISOString(), play_end: new Date(day.getTime() + 1_700_000).toISOString() });
  await ok('DELETE', `/v1/channels/${ch.id}/programmes/${prog.id}/boundaries`);
  await ok('GET', `/v1/channels/${ch.id}/catchup`);
  await ok('GET', `/v1/channels/${ch.id}/catchup/search?q=${encodeURIComponent('חדשות')}&limit=5`);
  await ok('GET', '/v1/catchup/exclusions');
  await ok('PUT', '/v1/catchup/exclusions', { rules: [{ field: 'series', pattern: 'promo*' }] });
  await ok('GET', `/v1/channels/${ch.id}/guide/settings`);
  await ok('PUT', `/v1/channels/${ch.id}/guide/settings`, { review_mode: true });
  const staged = await ok('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Staged', start_at: new Date(day.getTime() + 3_600_000).toISOString(), end_at: new Date(day.getTime() + 5_400_000).toISOString() }, 202);
  expect(staged.draft).toBe(true);
  await ok('DELETE', `/v1/channels/${ch.id}/programmes/${prog.id}`, undefined, 202);
  await ok('GET', `/v1/channels/${ch.id}/guide/draft`);
  await ok('POST', `/v1/channels/${ch.id}/guide/publish`);
  await ok('GET', `/v1/channels/${ch.id}/guide/versions`);
  await ok('POST', `/v1/channels/${ch.id}/guide/shift`, { day: day.toISOString().slice(0, 10), minutes: 5 }, 202);
  await ok('DELETE', `/v1/channels/${ch.id}/guide/draft`);
  await ok('PUT', `/v1/channels/${ch.id}/guide/settings`, { review_mode: false });
  await ok('POST', `/v1/channels/${ch.id}/guide/copy`, { from_day: day.toISOString().slice(0, 10), to_day: new Date(day.getTime() + 86_400_000).toISOString().slice(0, 10) });
  await ok('POST', `/v1/channels/${ch.id}/guide/rollback`, { version: 1 });
  await ok('GET', '/v1/clips?limit=10');
  await ok('GET', `/v1/clips?channel_id=${ch.id}`);

  const wh = await ok('POST', '/v1/webhooks', { url: receiver.url, events: ['asset.ready'] }, 201);
  await ok('GET', '/v1/webhooks');
  await ok('GET', `/v1/webhooks/${wh.id}`);
  await ok('PATCH', `/v1/webhooks/${wh.id}`, { events: ['*'] });
  await ok('POST', `/v1/webhooks/${wh.id}/test`, undefined, 202);
  const dels = await ok('GET', `/v1/webhooks/${wh.id}/deliveries`);
  if (dels.items[0]) await ok('POST', `/v1/webhooks/${wh.id}/deliveries/${dels.items[0].id}/redeliver`, undefined, 202);
  await ok('DELETE', `/v1/webhooks/${wh.id}`, undefined, 204);
  const hook = await ok('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path: 'videos.*', match: 'id' } }, 201);
  await ok('GET', '/v1/inbound-hooks');
  // A signed call from the content system (public, HMAC like a webhook delivery).
  const raw = JSON.stringify({ videos: [asset] });
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = `sha256=${createHmac('sha256', hook.secret).update(`${ts}.${raw}`).digest('hex')}`;
  const call = await s.api('POST', `/v1/hooks/${hook.id}`, raw, { key: null, headers: { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'contract-1' } });
  expect(call.status).toBe(200);
  await ok('DELETE', `/v1/inbound-hooks/${hook.id}`, undefined, 204);

  await ok('POST', '/v1/playback/session', { tenant: 'default', asset, page_origin: 'https://news.example' });
  const re = await ok('POST', `/v1/assets/${asset}/re-encode`, {}, 202);
  // The re-encode's probe job may finish before the cancel arrives (an MP4 is probed in process in milliseconds): 200
  // or 409 are both documented answers, and the validator checks whichever came. A cancel that always answers 200 (a
  // running encode) is in jobs.test.ts, which validates every answer against the document too.
  const cancelled = await s.api('POST', `/v1/jobs/${re.job_id}/cancel`);
  expect([200, 409]).toContain(cancelled.status);
  const retried = await s.api('POST', `/v1/jobs/${re.job_id}/retry`);
  expect([200, 409]).toContain(retried.status);
  await ok('DELETE', `/v1/assets/${asset}`, undefined, 204);
  await ok('GET', '/v1/assets/trash');
  await ok('POST', `/v1/assets/${asset}/restore`);
  await ok('POST', `/v1/channels/${ch.id}/ingest/rotate`, { srt: true, rtmp: false });
  await ok('DELETE', `/v1/channels/${ch.id}`, undefined, 204);
  await ok('DELETE', '/v1/assets/trash');
  expect((await s.api('DELETE', '/v1/assets/trash/00000000-0000-4000-8000-000000000000')).status).toBe(404);

  // Problems are documented too: unknown key, bad limit, unknown field, unknown object.
  expect((await s.api('GET', '/v1/assets', undefined, { key: 'vs_nope' })).status).toBe(401);
  expect((await s.api('GET', '/v1/assets?limit=0')).status).toBe(422);
  expect((await s.api('POST', '/v1/channels', { name: 'x', bogus: 1 })).status).toBe(400);
  expect((await s.api('GET', '/v1/clips/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  expect((await s.api('POST', '/v1/channels', '{"name":"x"}', { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  expect((await s.api('POST', '/v1/playback/session', { tenant: 'default', asset, page_origin: 'https://news.example' })).status).toBe(409);

  expect(s.violations).toEqual([]);
  const seen = s.contract!.seen.size;
  console.log(`contract: ${seen} of ${ops(en).length} operations answered and validated`);
  expect(seen).toBeGreaterThanOrEqual(70);
}, 120_000);
