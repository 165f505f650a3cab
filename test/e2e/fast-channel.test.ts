/**
 * FAST channels (issue 48) end to end: two short assets encoded through the real upload → ready path (one with an ad
 * cue), a FAST schedule on a channel (the second asset also the break slate), the channel started: its live playlist
 * stitches the assets' segments with EXT-X-DISCONTINUITY at the joins and EXT-X-DATERANGE (SCTE35-OUT/IN) at the
 * break, hls.js and Shaka in Chromium and GStreamer play across the joins and the break with the position advancing
 * in real time, the guide shows the generated programmes, the preview lists the airings, and catch-up of the aired
 * range decodes without a hole. Plus validation: 400 unknown field, 422 bad items, 404 others' ids.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeClip } from './transcode-helpers';
import { liveEnv, parseMedia } from './live-helpers';
import { browserPlay, ffmpegPlay, gstPlayFor, startBrowsers, type Browsers } from './interop-helpers';
import { gstHas } from './gst-helpers';
import { OWNER, shot, studioTab } from './studio-helpers';
import { launch } from './player-helpers';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { createMailer } from '../../src/kernel/mail';

let s: TestServer;
let browsers: Browsers | null = null;
const dir = mkdtempSync(join(tmpdir(), 'vs-fast-'));

/** Uploads a file through the multipart upload API (one part) and completes it; returns the asset id. */
async function upload(file: string, body: Record<string, unknown>): Promise<string> {
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  const start = await (await s.api('POST', '/v1/uploads', { filename: 'clip.mp4', size_bytes: bytes.length, content_type: 'video/mp4' })).json() as { upload_id: string; key: string; part_size: number; parts: { part_number: number }[] };
  const parts: { part_number: number; etag: string }[] = [];
  for (const p of start.parts) {
    const chunk = bytes.subarray((p.part_number - 1) * start.part_size, p.part_number * start.part_size);
    const r = await s.api('PUT', `/v1/uploads/${encodeURIComponent(start.upload_id)}/parts/${p.part_number}?key=${encodeURIComponent(start.key)}`, chunk, { headers: { 'content-type': 'application/octet-stream' } });
    parts.push(await r.json() as { part_number: number; etag: string });
  }
  const done = await s.api('POST', `/v1/uploads/${encodeURIComponent(start.upload_id)}/complete`, { key: start.key, parts, ...body });
  expect(done.status).toBe(201);
  return ((await done.json()) as { id: string }).id;
}

const ready = (id: string) => waitFor(`asset ${id} ready`, async () => {
  const a = await (await s.api('GET', `/v1/assets/${id}`)).json() as { status: string };
  if (a.status === 'failed') throw new Error('asset failed');
  return a.status === 'ready';
}, 150_000, 250);

let alpha = '', bravo = '';
let ch: { id: string; slug: string };

beforeAll(async () => {
  s = await startTestServer({ env: await liveEnv(4) });
  const [a, b] = await Promise.all([makeClip(join(dir, 'a.mp4'), { seconds: 6 }), makeClip(join(dir, 'b.mp4'), { seconds: 4, size: '320x180', extra: ['-vf', 'hue=s=0', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'] })]);
  alpha = await upload(a, { title: 'Alpha', ladder: 'fast', metadata: { ads: { cues: [3] } } });
  bravo = await upload(b, { title: 'Bravo', ladder: 'fast' });
  await Promise.all([ready(alpha), ready(bravo)]);
  ch = await (await s.api('POST', '/v1/channels', { name: 'Fast one', recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
}, 240_000);

afterAll(async () => {
  await browsers?.close();
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('FAST schedule API', () => {
  test('bad input: 400 unknown field, 422 bad items and overlapping dayparts, 404 unknown assets and channels', async () => {
    const put = (body: unknown, id = ch.id) => s.api('PUT', `/v1/channels/${id}/fast`, body);
    expect((await put({ items: [{ asset_id: alpha }], colour: 'red' })).status).toBe(400);
    expect((await put({ items: [{ asset_id: alpha, loops: 'x' }] })).status).toBe(422);
    expect((await put({ items: [] })).status).toBe(422);
    expect((await put({ items: [{ asset_id: 'nope' }] })).status).toBe(422);
    expect((await put({ items: [{ asset_id: crypto.randomUUID() }] })).status).toBe(404);
    expect((await put({ items: [{ asset_id: alpha }] }, crypto.randomUUID())).status).toBe(404);
    const overlap = await put({ items: [{ asset_id: alpha }], dayparts: [{ start: '06:00', end: '10:00', items: [{ asset_id: bravo }] }, { start: '09:00', end: '11:00', items: [{ asset_id: alpha }] }] });
    expect(overlap.status).toBe(422);
    expect(JSON.stringify(await overlap.json())).toContain('dayparts[1]');
    // An asset that is not ready yet.
    const pending = crypto.randomUUID();
    s.ctx.db.query(`INSERT INTO assets (id, tenant_id, title, status, source, created_at, updated_at) SELECT ?, tenant_id, 'pending', 'probing', '{"kind":"upload"}', 0, 0 FROM assets WHERE id = ?`).run(pending, alpha);
    const notReady = await put({ items: [{ asset_id: pending }] });
    expect(notReady.status).toBe(422);
    expect(JSON.stringify(await notReady.json())).toContain('not ready');
    expect((await s.api('GET', `/v1/channels/${ch.id}/fast`)).status).toBe(404);
  });
});

describe('FAST channel on air', () => {
  let master = '';
  test('schedule saved, assets prepared by stream copy, channel started', async () => {
    const r = await s.api('PUT', `/v1/channels/${ch.id}/fast`, { items: [{ asset_id: alpha }, { asset_id: bravo }], breaks: { slate_asset_id: bravo }, guide_hours: 1 });
    expect(r.status).toBe(201);
    const v = await r.json() as { items: { title: string; cues: number[] }[]; renditions: { name: string }[] };
    expect(v.items.map((i) => i.title)).toEqual(['Alpha', 'Bravo']);
    expect(v.items[0].cues).toEqual([3]);
    const view = await waitFor('schedule ready', async () => {
      const g = await (await s.api('GET', `/v1/channels/${ch.id}/fast`)).json() as { status: string; items: { prep: { status: string; mode: string; error: string | null } }[] };
      if (g.status === 'failed') throw new Error(JSON.stringify(g.items.map((i) => i.prep)));
      return g.status === 'ready' ? g : null;
    }, 60_000, 250);
    expect(view!.items.map((i) => i.prep.mode)).toEqual(['copy', 'copy']);
    expect((await s.api('POST', `/v1/channels/${ch.id}/start`)).status).toBe(200);
    master = `${s.url}/live/default/${ch.slug}/master.m3u8`;
  }, 90_000);

  test('live playlist: program date time, a discontinuity at every join, DATERANGE with SCTE35-OUT and -IN at the break', async () => {
    const variant = await waitFor('a join and a whole break in the window', async () => {
      const m = await fetch(master);
      if (m.status !== 200) return null;
      const uri = (await m.text()).split('\n').find((l) => l && !l.startsWith('#'))!;
      const text = await (await fetch(new URL(uri, master))).text();
      return text.includes('SCTE35-IN=') && text.split('#EXT-X-DISCONTINUITY\n').length >= 3 ? text : null;
    }, 60_000, 500);
    expect(variant).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    expect(variant).toMatch(/#EXT-X-DATERANGE:ID="[^"]+",CLASS="urn:scte:scte35:2014:bin",START-DATE="[^"]+",PLANNED-DURATION=4\.000,SCTE35-OUT=0xFC30/);
    expect(variant).toMatch(/#EXT-X-DATERANGE:ID="[^"]+",.*END-DATE="[^"]+",DURATION=4\.000,SCTE35-IN=0xFC30/);
    // Segments follow each other without a hole: every start is the previous end (the joins are discontinuities only).
    const segs = parseMedia(variant!);
    for (let i = 1; i < segs.length; i++) expect(Math.abs(segs[i].pdt - (segs[i - 1].pdt + segs[i - 1].durMs))).toBeLessThanOrEqual(1);
    // The channel is live on its "primary" feed as any channel.
    const c = await (await s.api('GET', `/v1/channels/${ch.id}`)).json() as { status: string };
    expect(c.status).toBe('live');
  }, 90_000);

  test('hls.js and Shaka in Chromium play across the joins and the break in real time', async () => {
    browsers = await startBrowsers();
    for (const engine of ['hls.js', 'shaka'] as const) {
      const cell = await browserPlay(browsers, engine, master, { forS: 16 });
      expect(`${engine}: ${cell.ok} ${cell.note}`).toBe(`${engine}: true ${cell.note}`);
    }
  }, 120_000);

  test('GStreamer (playbin, hlsdemux) plays across the joins in real time', async () => {
    if (!gstHas('hlsdemux', 'playbin')) throw new Error('GStreamer hlsdemux missing (install.sh installs gstreamer1.0-plugins-bad)');
    const cell = await gstPlayFor(master, 'playbin', 16);
    expect(`${cell.ok} ${cell.note}`).toBe(`true ${cell.note}`);
  }, 60_000);

  test('the guide holds the generated programmes and the preview lists airings and breaks', async () => {
    const now = Date.now();
    const progs = await waitFor('generated guide', async () => {
      const r = await (await s.api('GET', `/v1/channels/${ch.id}/programmes?from=${new Date(now - 600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`)).json() as { items: { title: string; start_at: string; end_at: string }[] };
      return r.items.length > 10 ? r.items : null;
    }, 20_000, 250);
    expect(new Set(progs!.map((p) => p.title))).toEqual(new Set(['Alpha', 'Bravo']));
    const pv = await (await s.api('GET', `/v1/channels/${ch.id}/fast/preview?hours=0.01`)).json() as { entries: { kind: string; title: string; start_at: string; end_at: string }[] };
    expect(pv.entries.some((e) => e.kind === 'break' && e.title === 'Bravo')).toBe(true);
    expect(pv.entries.some((e) => e.kind === 'asset' && e.title === 'Alpha')).toBe(true);
    for (let i = 1; i < pv.entries.length; i++) expect(pv.entries[i].start_at).toBe(pv.entries[i - 1].end_at);
  }, 30_000);

  test('studio: the FAST schedule editor shows the playlist, the breaks and the next hour (he/en)', async () => {
    await new PeopleService(s.ctx, createMailer(s.ctx.config, s.ctx.log)).createUser({ ...OWNER, tenantId: identityService(s.ctx).tenant('default').id, role: 'owner' });
    const browser = await launch();
    try {
      for (const lang of ['en', 'he'] as const) {
        const page = await studioTab(browser, s, { lang });
        await page.goto(`${s.url}/studio/live/${ch.id}`);
        await page.click('#fast-link');
        await page.waitForSelector('#fast-preview tbody tr');
        expect(await page.locator('#fast-main .fast-item').count()).toBe(2);
        expect(await page.locator('#fast-main .fast-item').first().textContent()).toContain('Alpha');
        expect(await page.locator('#fast-main .fast-cues').first().textContent()).toContain(lang === 'he' ? '3 שנ׳' : '3 s');
        expect(await page.locator('#fast-preview tr.fast-break').count()).toBeGreaterThan(0);
        expect(await page.locator('#fast-status').textContent()).toBe(lang === 'he' ? 'מוכן' : 'ready');
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'he' ? 'rtl' : 'ltr');
        await shot(page, `fast-schedule-${lang}`);
        await page.context().close();
      }
    } finally { await browser.close(); }
  }, 90_000);

  test('catch-up of the aired range decodes across the joins without a hole', async () => {
    const segs = s.ctx.db.query<{ start_ms: number; duration_ms: number }, [string]>('SELECT start_ms, duration_ms FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(ch.id);
    const first = segs[0].start_ms, last = segs[segs.length - 1].start_ms + segs[segs.length - 1].duration_ms;
    const tok = await (await s.api('POST', '/v1/playback/tokens', { catchup: { channel: ch.slug, start: first, end: last } })).json() as { src: string };
    const cell = await ffmpegPlay(tok.src, (last - first) / 1000);
    expect(`${cell.ok} ${cell.note}`).toBe(`true ${cell.note}`);
  }, 60_000);
});

describe('FAST conform', () => {
  test('an asset without audio is conformed (re-encoded) to every channel rendition, with a silent track; copy stays copy', async () => {
    const silent = await upload(await makeClip(join(dir, 'silent.mp4'), { seconds: 3, audio: false }), { title: 'Silent', ladder: 'fast' });
    await ready(silent);
    const two = await (await s.api('POST', '/v1/channels', { name: 'Fast two' })).json() as { id: string };
    expect((await s.api('PUT', `/v1/channels/${two.id}/fast`, { items: [{ asset_id: alpha }, { asset_id: silent }] })).status).toBe(201);
    const view = await waitFor('conform ready', async () => {
      const g = await (await s.api('GET', `/v1/channels/${two.id}/fast`)).json() as { status: string; renditions: { name: string; width: number; height: number }[]; items: { prep: { status: string; mode: string; error: string | null } }[] };
      if (g.status === 'failed') throw new Error(JSON.stringify(g.items.map((i) => i.prep)));
      return g.status === 'ready' ? g : null;
    }, 90_000, 250);
    expect(view!.items.map((i) => i.prep.mode)).toEqual(['copy', 'conform']);
    const prep = s.ctx.db.query<{ dir: string; segments: string }, [string]>("SELECT dir, segments FROM fast_preps WHERE asset_id = ? AND mode = 'conform'").get(silent)!;
    const segs = JSON.parse(prep.segments) as { init: Record<string, string>; segs: Record<string, string[]> };
    for (const r of view!.renditions) {
      // The rendition's init and first segment decode as the channel's size with an AAC track (the silence added).
      const file = join(dir, `conform-${r.name}.mp4`);
      const bytes = [segs.init[r.name], segs.segs[r.name][0]].map((p) => new Uint8Array(readFileSync(join(s.ctx.config.dataDir, p))));
      await Bun.write(file, new Blob(bytes));
      const probe = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', file]);
      const streams = (JSON.parse(probe.stdout.toString()) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[] }).streams;
      expect(streams.find((x) => x.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: r.width, height: r.height });
      expect(streams.find((x) => x.codec_type === 'audio')?.codec_name).toBe('aac');
    }
  }, 180_000);
});
