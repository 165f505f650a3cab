import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { grantRel } from '../../src/delivery-front/grants';
import { sweepExpiredSessions } from '../../src/features/playback/session-limits';
import { MAX_TOKEN_LIFETIME_MS, recordMarkedSession } from '../../src/features/watermark/sessions';
import { defaultTenant, ff, makeClip, registerAsset, settled } from './transcode-helpers';

// A/B forensic watermark (issue 46), end to end through the native delivery front (nginx, grants on): a policy with
// watermark ab makes the ladder encode variant B beside A; each playback session gets its own A/B sequence of
// segments from the gate (never a grant: nginx asks for every segment of a marked asset); one session's segments,
// joined and re-encoded as a pirate would (scaled down, CRF 30), are traced back to that session among 50 — the whole
// copy, and a clip of it cut at an unknown point (from segment 5 on, 0.3 s in) whose place in the asset the trace finds.
let s: TestServer, tmp: string, tenant: string;
const SESSIONS = 50;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vs-watermark-'));
  s = await startTestServer({ env: { VS_DELIVERY_FRONT_PORT: '0' } });
  tenant = defaultTenant(s.ctx);
  // 1 s segments: 21 s of media give 21 bits per session (17 in a copy cut from segment 5 on: among 50 sessions a
  // confidence of 0.99 needs 16 right, so one misread bit is tolerated).
  expect((await s.api('PATCH', '/v1/packaging', { segment_s: 1 })).status).toBe(200);
}, 60_000);
afterAll(async () => { await s?.stop(); rmSync(tmp, { recursive: true, force: true }); }, 60_000);

type Out = { dir: string; renditions: unknown[] };
const encode = async (seconds: number) => {
  const clip = await makeClip(join(tmp, `clip-${seconds}.mp4`), { seconds, size: '320x180' });
  const id = registerAsset(s.ctx, clip, { ladder: 'fast' });
  const row = await settled(s.ctx, id, 180_000);
  expect(row.status).toBe('ready');
  const out = JSON.parse(row.output!) as Out;
  return { id, dir: join(s.ctx.config.dataDir, out.dir), reps: out.renditions.length };
};
const jobResult = (assetId: string) => JSON.parse(s.ctx.db.query<{ result: string | null }, [string]>("SELECT result FROM jobs WHERE type = 'asset.encode' AND payload LIKE '%' || ? || '%'").get(assetId)?.result ?? '{}') as Record<string, unknown>;

test('off by default: no policy, no variant B; a trace of it is a 409 problem', async () => {
  const a = await encode(2);
  expect(existsSync(join(a.dir, 'b'))).toBe(false);
  expect(jobResult(a.id).watermark).toBeUndefined();
  const form = new FormData();
  form.set('asset_id', a.id);
  form.append('file', new Blob([new Uint8Array(1000)]), 'x.mp4');
  const r = await fetch(`${s.url}/v1/watermark/traces`, { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: form });
  expect(r.status).toBe(409);
  expect(r.headers.get('content-type')).toContain('application/problem+json');
}, 120_000);

test('watermark ab: B encoded beside A, each session its own sequence (never granted), a pirate copy traced to its session among 50', async () => {
  // Setting watermark needs security:manage, besides delivery:write.
  const narrow = identityService(s.ctx).createKey(tenant, { scopes: ['delivery:write'] }).key;
  expect((await s.api('POST', '/v1/playback/policies', { name: 'wm', watermark: { mode: 'ab' } }, { key: narrow })).status).toBe(403);
  const created = await s.api('POST', '/v1/playback/policies', { name: 'wm', require_token: true, watermark: { mode: 'ab' } });
  expect(created.status).toBe(201);
  const policy = await created.json() as { id: string; watermark: { mode: string; applies_to: string[] } };
  // The answer says what the mode marks (assets; never live, catch-up or clips of recordings: docs/watermark.md).
  expect(policy.watermark).toEqual({ mode: 'ab', applies_to: ['assets'] });
  const plain = await (await s.api('POST', '/v1/playback/policies', { name: 'plain' })).json() as { watermark: unknown };
  expect(plain.watermark).toEqual({ mode: 'off', applies_to: [] });
  expect((await s.api('POST', '/v1/playback/policies', { name: 'bad', watermark: { mode: 'abc' } })).status).toBe(422);
  expect((await s.api('POST', `/v1/playback/policies/${policy.id}/attach`, { target_kind: 'tenant' })).status).toBe(200);

  const a = await encode(21);
  const bDir = join(a.dir, 'b');
  const bSegs = readdirSync(bDir).sort();
  const aSegs = readdirSync(a.dir).filter((f) => /^seg_\d+_\d+\.m4s$/.test(f) && Number(f.split('_')[1]) < a.reps).sort();
  expect(bSegs).toEqual(aSegs); // only video media segments, A's names (init segments are A's: checked by the encode)
  const cost = jobResult(a.id).watermark as { b_bytes: number; b_segments: number; b_encode_ms: number };
  expect(cost.b_segments).toBe(bSegs.length);
  console.log(`variant B: ${bSegs.length} segments, ${cost.b_bytes} bytes, ${cost.b_encode_ms} ms`);
  // A clip of the marked asset (that would bypass the per-session variants) is refused with a problem naming asset_id.
  const clip = await s.api('POST', '/v1/clips', { channel_id: crypto.randomUUID(), start_at: '2026-01-01T00:00:00Z', end_at: '2026-01-01T00:00:10Z', asset_id: a.id });
  expect(clip.status).toBe(422);
  expect(JSON.stringify(await clip.json())).toContain('asset_id');

  // 50 sessions, each fetching its whole sequence of the top rendition through the front.
  const sessions: { sid: string; src: string; token: string; picks: string }[] = [];
  const n = aSegs.filter((f) => f.startsWith('seg_0_')).length;
  expect(n).toBeGreaterThanOrEqual(15);
  let pirate: Buffer[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const r = await s.api('POST', '/v1/playback/tokens', { asset: a.id, ttl_s: 600, viewer_id: `viewer-${i}` });
    expect(r.status).toBe(200);
    const t = await r.json() as { sid: string; src: string; token: string };
    const parts: Buffer[] = [Buffer.from(await (await fetch(new URL('init_0.m4s', t.src))).arrayBuffer())];
    let picks = '';
    for (let k = 1; k <= n; k++) {
      const name = `seg_0_${String(k).padStart(5, '0')}.m4s`;
      const res = await fetch(new URL(name, t.src));
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      const isA = body.equals(readFileSync(join(a.dir, name))), isB = body.equals(readFileSync(join(bDir, name)));
      expect(isA !== isB).toBe(true); // exactly one variant, whole
      picks += isB ? '1' : '0';
      parts.push(body);
    }
    // No grant for a marked asset: nginx asked the appliance for every segment.
    expect(existsSync(join(s.front!.runDir(), 'grants', grantRel(t.token, tenant, a.id, a.dir.split('/').pop()!)!))).toBe(false);
    sessions.push({ ...t, picks });
    if (i === 17) pirate = parts;
  }
  // Sessions get different sequences (16 bits: a pair may collide by chance), both variants are used.
  expect(new Set(sessions.map((x) => x.picks)).size).toBeGreaterThanOrEqual(SESSIONS - 3);
  expect(sessions.some((x) => x.picks.includes('1')) && sessions.some((x) => x.picks.includes('0'))).toBe(true);
  // The same session asking again gets the same sequence.
  const again = await fetch(new URL('seg_0_00003.m4s', sessions[5].src));
  expect(Buffer.from(await again.arrayBuffer()).equals(readFileSync(join(sessions[5].picks[2] === '1' ? bDir : a.dir, 'seg_0_00003.m4s')))).toBe(true);

  // The pirate: session 17's stream joined as a player would, re-encoded smaller at CRF 30 with another GOP; and a
  // clip of the middle: segments 5 on, re-encoded from 0.3 s into them (a cut at no segment boundary).
  writeFileSync(join(tmp, 'session.mp4'), Buffer.concat(pirate));
  writeFileSync(join(tmp, 'cut.mp4'), Buffer.concat([pirate[0]!, ...pirate.slice(5)]));
  const pirateArgs = ['-vf', 'scale=240:-2', '-c:v', 'libx264', '-preset', 'faster', '-crf', '30', '-g', '250', '-an'];
  await ff(['-i', join(tmp, 'session.mp4'), ...pirateArgs, join(tmp, 'leak.mp4')]);
  await ff(['-ss', '0.3', '-i', join(tmp, 'cut.mp4'), ...pirateArgs, join(tmp, 'leak-cut.mp4')]);
  const cutAt = readFileSync(join(a.dir, 'media_0.m3u8'), 'utf8').split('\n').filter((l) => l.startsWith('#EXTINF:')).slice(0, 4)
    .reduce((t, l) => t + Number(l.slice(8).split(',')[0]), 0.3);
  type Cand = { sid: string; viewer_id: string | null; matched: number; of: number; confidence: number; false_match_log10: number };
  type Result = { bits: string; named: Cand | null; candidates: Cand[]; sessions_scored: number; alignment: { offset_s: number; searched: boolean; error: number | null; next_error: number | null } };
  const traceOf = async (file: string, offset?: number) => {
    const form = new FormData();
    form.set('asset_id', a.id);
    if (offset !== undefined) form.set('offset_s', String(offset));
    form.append('file', new Blob([readFileSync(join(tmp, file))]), file);
    const started = await fetch(`${s.url}/v1/watermark/traces`, { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: form });
    expect(started.status).toBe(202);
    const trace = await started.json() as { id: string; status: string; offset_s: number | null };
    expect(trace.status).toBe('queued');
    expect(trace.offset_s).toBe(offset ?? null);
    const done = await waitFor('the trace', async (): Promise<{ status: string; error: string | null; result: Result | null } | undefined> => {
      const t = await (await s.api('GET', `/v1/watermark/traces/${trace.id}`)).json() as { status: string; progress: number; error: string | null; result: Result | null };
      return t.status === 'done' || t.status === 'failed' ? t : undefined;
    }, 120_000, 200).catch((e) => {
      console.log(JSON.stringify(s.ctx.db.query("SELECT status, attempts, error, progress FROM jobs WHERE type = 'watermark.trace'").all()));
      throw e;
    });
    expect(done!.error).toBeNull();
    const res = done!.result!;
    console.log(`trace of ${file} (offset_s ${offset ?? 'searched'}): bits ${res.bits} (truth ${sessions[17].picks}); alignment ${JSON.stringify(res.alignment)}; named ${JSON.stringify(res.named)}; runner-up ${JSON.stringify(res.candidates[1])}`);
    expect(res.sessions_scored).toBe(SESSIONS);
    return res;
  };
  const named = (res: Result) => {
    expect(res.named?.sid).toBe(sessions[17].sid);
    expect(res.named?.viewer_id).toBe('viewer-17');
    expect(res.named!.confidence).toBeGreaterThanOrEqual(0.99);
    expect(res.candidates[1].matched).toBeLessThan(res.named!.matched);
  };
  // The whole copy, its offset given.
  const whole = await traceOf('leak.mp4', 0);
  named(whole);
  expect(whole.alignment).toMatchObject({ offset_s: 0, searched: false });
  // The clip cut at an unknown point: its offset searched and found, the session named from the bits it covers.
  const cut = await traceOf('leak-cut.mp4');
  expect(cut.alignment.searched).toBe(true);
  expect(Math.abs(cut.alignment.offset_s - cutAt)).toBeLessThanOrEqual(0.15);
  expect(cut.bits.slice(0, 4)).toBe('????'); // segments 1-4 are not in the clip
  named(cut);
  // What the trace did before the search (the copy taken to start at 0): it names nobody, or not that session.
  const unaligned = await traceOf('leak-cut.mp4', 0);
  expect(unaligned.named?.sid ?? null).not.toBe(sessions[17].sid);
}, 300_000);

test('marked sessions past the trace retention are pruned by the session sweeper; recent ones stay', () => {
  const day = 86_400_000, now = s.ctx.clock.now();
  const window = MAX_TOKEN_LIFETIME_MS + s.ctx.config.watermarkRetentionDays * day;
  expect(s.ctx.config.watermarkRetentionDays).toBe(30);
  const asset = crypto.randomUUID();
  const rec = (sid: string, issued_at: number) => recordMarkedSession(s.ctx.db, { sid, tenant_id: tenant, asset_id: asset, viewer_id: null, via: 'token', issued_at });
  rec('wm-old', now - window - day);
  rec('wm-edge', now - window + day);
  const count = (sid: string) => s.ctx.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM watermark_sessions WHERE sid = ?').get(sid)!.n;
  const before = s.ctx.db.query<{ n: number }, []>('SELECT count(*) AS n FROM watermark_sessions').get()!.n;
  sweepExpiredSessions(s.ctx);
  expect(count('wm-old')).toBe(0);
  expect(count('wm-edge')).toBe(1);
  // The 50 sessions of the traced asset (issued minutes ago) are all still there.
  expect(s.ctx.db.query<{ n: number }, []>('SELECT count(*) AS n FROM watermark_sessions').get()!.n).toBe(before - 1);
});

test('hostile trace requests answer problem details', async () => {
  const post = (body: unknown, key: string | null = s.key) => s.api('POST', '/v1/watermark/traces', body, { key });
  const problem = async (r: Response, status: number) => { expect(r.status).toBe(status); expect(r.headers.get('content-type')).toContain('application/problem+json'); };
  const asset = crypto.randomUUID();
  await problem(await post({ asset_id: asset, url: 'https://example.com/x.mp4' }, null), 401);
  const viewer = identityService(s.ctx).createKey(tenant, { role: 'viewer' }).key;
  await problem(await post({ asset_id: asset, url: 'https://example.com/x.mp4' }, viewer), 403);
  await problem(await post({ asset_id: asset }), 422); // neither file nor url
  await problem(await post({ asset_id: asset, url: 'https://example.com/x.mp4', extra: 1 }), 400); // unknown field
  await problem(await post({ asset_id: 5, url: 'https://example.com/x.mp4' }), 422);
  await problem(await post({ asset_id: asset, url: 'http://10.0.0.1/x.mp4' }), 422); // private address
  await problem(await post({ asset_id: asset, url: 'https://example.com/x.mp4', offset_s: -1 }), 422);
  await problem(await post({ asset_id: asset, url: 'https://example.com/x.mp4' }), 404); // not this tenant's asset
  await problem(await s.api('GET', `/v1/watermark/traces/${crypto.randomUUID()}`), 404);
  await problem(await s.api('GET', '/v1/watermark/traces/..%2f..'), 400); // an encoded slash: refused before routing
});
