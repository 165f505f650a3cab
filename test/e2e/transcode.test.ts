import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { playbackFor } from '../../src/features/assets/lifecycle';
import { assetRow, makeClip, registerAsset, settled } from './transcode-helpers';

let s: TestServer;
let asset: string;
let pb: Record<string, string>;
const seen = new Set<string>();
let maxProgress = 0;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_LOG_LEVEL: 'error' } });
  const src = await makeClip(join(s.dataDir, 'in.mp4'), { seconds: 4 });
  // Record every status and progress write on this connection (a temp trigger), so short states such as
  // `packaging` are seen however the event loop is scheduled — no polling race.
  s.ctx.db.exec(`CREATE TEMP TABLE seen_states (status TEXT, progress REAL);
    CREATE TEMP TRIGGER seen_states_t AFTER UPDATE OF status, progress ON main.assets
    BEGIN INSERT INTO seen_states VALUES (NEW.status, NEW.progress); END;`);
  asset = registerAsset(s.ctx, src, { externalId: 'clip-1' });
  const a = await settled(s.ctx, asset);
  for (const r of s.ctx.db.query<{ status: string; progress: number | null }, []>('SELECT status, progress FROM seen_states').all()) {
    seen.add(r.status);
    if ((r.status === 'encoding' || r.status === 'packaging') && r.progress && r.progress < 100) maxProgress = Math.max(maxProgress, r.progress);
  }
  expect(a.error).toBeNull();
  expect(a.status).toBe('ready');
  pb = playbackFor(s.ctx, a)!;
}, 120_000);
afterAll(async () => { await s?.stop(); });

test('asset walks the state machine and shows progress while encoding', () => {
  for (const st of ['encoding', 'packaging', 'ready']) expect(seen.has(st)).toBe(true);
  expect(maxProgress).toBeGreaterThan(0);
  expect(Object.keys(pb).sort()).toEqual(['dash', 'download', 'hls', 'poster', 'sprite', 'thumbs_vtt']);
  for (const u of Object.values(pb)) expect(u.startsWith(`${s.ctx.config.cdnBaseUrl}/m/`)).toBe(true);
});

test('asset.ready is in the outbox with playback', () => {
  const ev = s.ctx.db.query<{ data: string }, []>(`SELECT data FROM events WHERE type = 'asset.ready'`).all().map((e) => JSON.parse(e.data));
  expect(ev.length).toBe(1);
  expect(ev[0]).toMatchObject({ asset: asset, external_id: 'clip-1', status: 'ready' });
  expect(ev[0].playback.hls).toBe(pb.hls);
});

test('HLS master is hls.js-compatible CMAF with independent segments, codecs and resolution', async () => {
  const r = await fetch(pb.hls);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  const m = await r.text();
  expect(m).toContain('#EXT-X-INDEPENDENT-SEGMENTS');
  expect(m).toMatch(/#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=320x180,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  expect(m).toMatch(/RESOLUTION=256x144/);
  const media = m.split('\n').find((l) => l.endsWith('.m3u8') && !l.startsWith('#'))!;
  const pl = await (await fetch(new URL(media, pb.hls))).text();
  expect(pl).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
  expect(pl).toContain('#EXT-X-ENDLIST');
  expect(pl).toMatch(/#EXT-X-MAP:URI="init_\d+\.m4s"/);
  const seg = pl.split('\n').find((l) => l.endsWith('.m4s') && !l.startsWith('#'))!;
  const sr = await fetch(new URL(seg, pb.hls));
  expect(sr.status).toBe(200);
  expect(sr.headers.get('cache-control')).toContain('immutable');
  expect(sr.headers.get('content-type')).toBe('video/iso.segment');
  const bytes = new Uint8Array(await sr.arrayBuffer());
  expect(new TextDecoder().decode(bytes.slice(4, 8))).toMatch(/styp|moof/);
});

test('DASH manifest, poster, sprite and VTT answer with their types', async () => {
  const d = await fetch(pb.dash);
  expect(d.headers.get('content-type')).toBe('application/dash+xml');
  const mpd = await d.text();
  expect(mpd).toContain('<MPD');
  expect(mpd).toContain('contentType="audio"');
  const p = await fetch(pb.poster);
  expect(p.headers.get('content-type')).toBe('image/jpeg');
  expect(new Uint8Array(await p.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0xff, 0xd8]));
  const w = await fetch(pb.poster.replace('poster.jpg', 'poster.webp'));
  expect(new TextDecoder().decode(new Uint8Array(await w.arrayBuffer()).slice(8, 12))).toBe('WEBP');
  const sp = await fetch(pb.sprite);
  expect(sp.headers.get('content-type')).toBe('image/jpeg');
  const v = await fetch(pb.thumbs_vtt);
  expect(v.headers.get('content-type')).toStartWith('text/vtt');
  const vtt = await v.text();
  expect(vtt.startsWith('WEBVTT')).toBe(true);
  expect(vtt).toMatch(/00:00:00\.000 --> 00:00:02\.000\nsprite\.jpg#xywh=0,0,160,90/);
});

test('download honours Range, 416 past the end, ETag 304; traversal and foreign tenants refused', async () => {
  const full = await fetch(pb.download);
  expect(full.status).toBe(200);
  expect(full.headers.get('content-disposition')).toContain('clip-1.mp4');
  const size = Number(full.headers.get('content-length'));
  const body = new Uint8Array(await full.arrayBuffer());
  expect(body.length).toBe(size);
  // faststart: moov before mdat
  const text = new TextDecoder('latin1').decode(body.slice(0, 4096));
  expect(text.indexOf('moov')).toBeGreaterThan(0);
  expect(text.indexOf('moov')).toBeLessThan(text.indexOf('mdat') === -1 ? Infinity : text.indexOf('mdat'));
  const part = await fetch(pb.download, { headers: { range: 'bytes=10-19' } });
  expect(part.status).toBe(206);
  expect(part.headers.get('content-range')).toBe(`bytes 10-19/${size}`);
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(body.slice(10, 20));
  const suffix = await fetch(pb.download, { headers: { range: 'bytes=-5' } });
  expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(body.slice(size - 5));
  const past = await fetch(pb.download, { headers: { range: `bytes=${size}-` } });
  expect(past.status).toBe(416);
  expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  const etag = full.headers.get('etag')!;
  expect((await fetch(pb.download, { headers: { 'if-none-match': etag } })).status).toBe(304);
  const base = pb.hls.replace('master.m3u8', '');
  for (const bad of ['..%2F..%2Fsource.bin', '%2e%2e', '.work-x', 'manifest.mpd%00.jpg']) {
    // 400: the request target itself is refused before routing (encoded separators, NUL); 404: no such file.
    expect([400, 404]).toContain((await fetch(base + bad)).status);
  }
  expect((await fetch(base.replace(/\/v\d+\/$/, '/v99/') + 'master.m3u8')).status).toBe(404);
  expect((await fetch(pb.hls.replace(s.ctx.config.cdnBaseUrl + '/m/' + assetRow(s.ctx, asset).tenant_id, s.ctx.config.cdnBaseUrl + '/m/00000000-0000-4000-8000-000000000000'))).status).toBe(404);
});

test('GET /v1/jobs shows both jobs succeeded with the encoder; events list the attempt', async () => {
  const r = await s.api('GET', `/v1/jobs?subject=${asset}`);
  expect(r.status).toBe(200);
  const page = await r.json() as { items: any[]; next_cursor: string | null };
  expect(page.items.map((j) => j.type).sort()).toEqual(['asset.encode', 'asset.process']);
  for (const j of page.items) { expect(j.status).toBe('succeeded'); expect(j.progress).toBe(100); }
  const enc = page.items.find((j) => j.type === 'asset.encode');
  expect(enc.result.encoder).toBe('libx264');
  // The generated clip is a plain H.264/AAC MP4: read in process, no ffprobe.
  expect(page.items.find((j) => j.type === 'asset.process').result.probe).toBe('in-process');
  expect(enc.result.first_playable_ms).toBeGreaterThan(0);
  const ev = await (await s.api('GET', `/v1/jobs/${enc.id}/events`)).json() as { items: { kind: string }[] };
  expect(ev.items.map((e) => e.kind)).toEqual(['started', 'first_playable', 'succeeded']);
  expect((await s.api('GET', `/v1/jobs/${enc.id}`, undefined, { key: null })).status).toBe(401);
  expect((await s.api('POST', `/v1/jobs/${enc.id}/retry`)).status).toBe(409);
});

test('VS_FAST_PROBE=off: ffprobe probes the same file, and the stored facts are the in-process ones', async () => {
  const off = await startTestServer({ env: { VS_LOG_LEVEL: 'error', VS_FAST_PROBE: 'off' } });
  try {
    const id = registerAsset(off.ctx, join(s.dataDir, 'in.mp4'));
    expect((await settled(off.ctx, id)).status).toBe('ready');
    const job = off.ctx.db.query<{ result: string }, [string]>(`SELECT result FROM jobs WHERE subject_id = ? AND type = 'asset.process'`).get(id)!;
    expect(JSON.parse(job.result).probe).toBe('ffprobe');
    const probe = (db: typeof s.ctx.db, a: string) => JSON.parse(db.query<{ probe: string }, [string]>('SELECT probe FROM assets WHERE id = ?').get(a)!.probe);
    const [mine, theirs] = [probe(s.ctx.db, asset), probe(off.ctx.db, id)];
    // The format bit rate is informational and rounded either way by ffprobe: within 1 bit/s; every other field equal.
    expect(Math.abs(mine.bitRate - theirs.bitRate)).toBeLessThanOrEqual(1);
    expect({ ...mine, bitRate: 0 }).toEqual({ ...theirs, bitRate: 0 });
  } finally { await off.stop(); }
}, 120_000);
