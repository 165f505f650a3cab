#!/usr/bin/env bun
/**
 * Catch-up benchmark. (1) A synthetic 7-day index for one channel (2 s segments, 302,400 rows inserted through the
 * live feature's segment store; no media files) with 30-minute programmes: catch-up list time for an 8-day window
 * and playlist generation for a 4-hour programme (target < 5 ms). (2) A real 1080p recording (62 s of testsrc2,
 * x264, 2 s GOPs, packaged as CMAF into the recording layout): time of a frame-precision clip of 60 s (edges
 * re-encoded, inner GOPs copied) against its duration (target ≤ 0.3× real time on CPU).
 * Closed hours get their encoded segment list as the recorder seals them at hour close (`sealHour`); "cold" playlist =
 * first generation of a window (no playlist cache) over that index; the cost when lists are missing (an index
 * rebuilt from nothing, first read) is printed apart.
 * Usage: bun scripts/bench/catchup.ts [--no-clip]   (--no-clip skips part 2)
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startTestServer } from '../../test/helpers/server';
import { median } from './lib';
import { SegmentStore, type HourRow } from '../../src/live/segment-store';
import type { SegmentRow } from '../../src/features/channels/store';
import { channelById } from '../../src/features/channels/service';
import { tx } from '../../src/kernel/db/sqlite';
import { initPath, segmentAbsPath, segmentRelPath } from '../../src/live/paths';
import { CatchupService } from '../../src/features/catchup/service';
import { GuideService } from '../../src/features/guide/service';
import { mediaResponse } from '../../src/features/catchup/source';
import { ClipService } from '../../src/features/clips/service';
import { clipJobHandlers } from '../../src/features/clips/finalize';
import type { JobRun } from '../../src/jobs/types';
import { segmentsInRange, segmentTimesInRange } from '../../src/features/channels/service';
import { selectTimes } from '../../src/features/catchup/coverage';
import { SegmentIndex } from '../../src/live/segment-index';
import { sealHour } from '../../src/live/lean-read';
import { rangePlaylist } from '../../src/features/catchup/playlist';

const H = 3_600_000, SEG = 2000;
const s = await startTestServer({ workers: false });
const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
const store = new SegmentStore(s.ctx.db);

/** Indexes segment rows and their hour summaries (materialized: rows are authoritative, no listing needed). */
function index(channelId: string, rows: SegmentRow[]): void {
  tx(s.ctx.db, () => {
    store.insertRows(rows);
    const byHour = new Map<number, SegmentRow[]>();
    for (const r of rows) { const h = Math.floor(r.start_ms / H) * H; (byHour.get(h) ?? byHour.set(h, []).get(h)!).push(r); }
    for (const [hour, rs] of byHour) {
      const last = rs[rs.length - 1];
      const h: HourRow = { channel_id: channelId, rendition: 'src', hour_ms: hour, n: rs.length, first_ms: rs[0].start_ms, last_ms: last.start_ms, end_ms: last.start_ms + last.duration_ms,
        first_seq: rs[0].seq, disc_seq_start: rs[0].disc_seq, first_disc: rs[0].discontinuity, inner_discs: last.disc_seq - rs[0].disc_seq, bytes: rs.reduce((a, r) => a + r.bytes, 0), dir_mtime: 0, materialized: 1 };
      store.upsertHour(h);
    }
    // Every hour but the open (newest) one is sealed, as the recorder does when recording leaves an hour.
    const idx = new SegmentIndex(s.ctx.db, s.ctx.config.dataDir);
    const hours = store.hours(channelId, 'src');
    for (const h of hours.slice(0, -1)) sealHour(idx, h);
  });
}

// ---- (1) synthetic 7-day index ----
const ch = await (await s.api('POST', '/v1/channels', { name: 'Bench Catchup', recording: { retention_hours: 192 } })).json() as { id: string; slug: string };
const now = Date.now();
const start = Math.floor((now - 7 * 24 * H) / SEG) * SEG;
const rows: SegmentRow[] = [];
for (let t = start, i = 0; t + SEG <= now; t += SEG, i++) {
  rows.push({ channel_id: ch.id, rendition: 'src', start_ms: t, duration_ms: SEG, bytes: 250_000, path: segmentRelPath(tenant, ch.id, 'src', t), discontinuity: 0, init_ms: start, seq: i, disc_seq: 0 });
}
let t0 = performance.now();
index(ch.id, rows);
const indexMs = performance.now() - t0;
const progStart = Math.ceil(start / (30 * 60_000)) * 30 * 60_000;
t0 = performance.now();
// Through the guide service (the API's per-key rate limit of 20/s would refuse most of a week's programmes).
const guide = new GuideService(s.ctx);
const chRow = guide.channel(tenant, ch.id);
for (let p = progStart, n = 0; p < now; p += 30 * 60_000, n++) {
  guide.create(chRow, { title: `Programme ${n}`, start_at: new Date(p).toISOString(), end_at: new Date(p + 30 * 60_000).toISOString() });
}
const progMs = performance.now() - t0;
const row = channelById(s.ctx, tenant, ch.id)!;
const cu = new CatchupService(s.ctx);
const q = { from: new Date(now - 8 * 24 * H).toISOString(), to: new Date(now).toISOString() };
const listTimes: number[] = [];
let items = 0;
for (let i = 0; i < 7; i++) { t0 = performance.now(); items = cu.list(row, 'default', q).items.length; listTimes.push(performance.now() - t0); }
const day = { from: new Date(now - 24 * H).toISOString(), to: new Date(now).toISOString() };
const dayTimes: number[] = [];
for (let i = 0; i < 7; i++) { t0 = performance.now(); cu.list(row, 'default', day); dayTimes.push(performance.now() - t0); }
const fourH = { ch: row, tenantSlug: 'default', from: progStart + 24 * H, to: progStart + 28 * H };
// Cold: a different 4 h range each time (no playlist cache); warm: the same range again (cached for 60 s).
const plTimes: number[] = [], warmTimes: number[] = [], buildTimes: number[] = [];
let plLines = 0;
for (let i = 0; i < 30; i++) {
  const r = { ...fourH, from: fourH.from + i * 1000, to: fourH.to + i * 1000 };
  t0 = performance.now();
  const text = await mediaResponse(s.ctx, r, 'src', '?c=default').text();
  plTimes.push(performance.now() - t0);
  t0 = performance.now();
  await mediaResponse(s.ctx, r, 'src', '?c=default').text();
  warmTimes.push(performance.now() - t0);
  plLines = text.split('\n').filter((l) => l.startsWith('seg/')).length;
}
const segs4h = selectTimes(segmentTimesInRange(s.ctx, ch.id, 'src', fourH.from, fourH.to), fourH.from, fourH.to);
const readTimes: number[] = [], rowTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  t0 = performance.now(); segmentTimesInRange(s.ctx, ch.id, 'src', fourH.from, fourH.to); readTimes.push(performance.now() - t0);
  t0 = performance.now(); rangePlaylist(segs4h, { targetS: 2, type: 'VOD', ended: true, q: '?c=default' }); buildTimes.push(performance.now() - t0);
  if (i < 7) { t0 = performance.now(); segmentsInRange(s.ctx, ch.id, 'src', fourH.from, fourH.to); rowTimes.push(performance.now() - t0); }
}
// Lists missing (index rebuilt without them): the first generation of a window builds its hours' lists from rows.
const noList: number[] = [];
for (let i = 0; i < 5; i++) {
  s.ctx.db.query('DELETE FROM live_hour_lists WHERE channel_id = ?').run(ch.id);
  const r = { ...fourH, from: fourH.from + (40 + i) * 1000, to: fourH.to + (40 + i) * 1000 };
  t0 = performance.now(); await mediaResponse(s.ctx, r, 'src', '?c=default').text(); noList.push(performance.now() - t0);
}
t0 = performance.now();
const r2 = { ...fourH, from: fourH.from + 50_000, to: fourH.to + 50_000 };
await mediaResponse(s.ctx, r2, 'src', '?c=default').text();
const relisted = performance.now() - t0;
console.log(`synthetic index: ${rows.length} segments (7 days) indexed in ${indexMs.toFixed(0)} ms; ${Math.round((now - progStart) / 1_800_000)} programmes via the guide service in ${(progMs / 1000).toFixed(1)} s`);
console.log(`catch-up list, 8-day window (${items} items): median ${median(listTimes).toFixed(1)} ms, first ${listTimes[0].toFixed(1)} ms`);
console.log(`catch-up list, default 24 h (${cu.list(row, 'default', day).items.length} items): median ${median(dayTimes).toFixed(1)} ms`);
console.log(`4 h programme playlist (${plLines} segments): cold median ${median(plTimes).toFixed(2)} ms (index read ${median(readTimes).toFixed(2)} ms + build ${median(buildTimes).toFixed(2)} ms), warm median ${median(warmTimes).toFixed(3)} ms (target < 5 ms)`);
console.log(`  (same range as row objects, segmentsInRange: median ${median(rowTimes).toFixed(2)} ms; hours without encoded lists: first generation median ${median(noList).toFixed(2)} ms, then ${relisted.toFixed(2)} ms)`);
if (process.argv.includes('--no-clip')) { await s.stop(); process.exit(0); }

// ---- (2) frame-precision clip of 60 s of 1080p ----
const ch2 = await (await s.api('POST', '/v1/channels', { name: 'Bench 1080p' })).json() as { id: string };
const work = mkdtempSync(join(tmpdir(), 'vs-bench-clip-'));
t0 = performance.now();
const gen = Bun.spawnSync(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
  '-t', '62', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k',
  '-f', 'hls', '-hls_time', '2', '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_list_size', '0', '-hls_segment_filename', `${work}/s%d.m4s`, `${work}/index.m3u8`]);
if (gen.exitCode !== 0) throw new Error(`ffmpeg: ${gen.stderr.toString()}`);
console.log(`(setup: 62 s of 1080p generated and packaged in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
const recStart = Math.floor((Date.now() - 120_000) / 1000) * 1000;
const playlist = await Bun.file(`${work}/index.m3u8`).text();
const durs = [...playlist.matchAll(/#EXTINF:([\d.]+),\s*\n(s\d+\.m4s)/g)].map((m) => ({ ms: Math.round(Number(m[1]) * 1000), name: m[2] }));
const ip = initPath(s.ctx.config.dataDir, tenant, ch2.id, 'src', recStart);
mkdirSync(dirname(ip), { recursive: true });
renameSync(`${work}/init.mp4`, ip);
const rows2: SegmentRow[] = [];
let at = recStart;
durs.forEach((d, i) => {
  const rel = segmentRelPath(tenant, ch2.id, 'src', at);
  mkdirSync(dirname(segmentAbsPath(s.ctx.config.dataDir, rel)), { recursive: true });
  renameSync(`${work}/${d.name}`, segmentAbsPath(s.ctx.config.dataDir, rel));
  rows2.push({ channel_id: ch2.id, rendition: 'src', start_ms: at, duration_ms: d.ms, bytes: statSync(segmentAbsPath(s.ctx.config.dataDir, rel)).size, path: rel, discontinuity: 0, init_ms: recStart, seq: i, disc_seq: 0 });
  at += d.ms;
});
index(ch2.id, rows2);
const clipFrom = recStart + 700, clipTo = clipFrom + 60_000;
const clip = new ClipService(s.ctx).create(tenant, { channel_id: ch2.id, start_at: new Date(clipFrom).toISOString(), end_at: new Date(clipTo).toISOString(), precision: 'frame' });
const job: JobRun<'clip.finalize'> = { id: 'bench', tenantId: tenant, type: 'clip.finalize', payload: { clipId: clip.id }, attempt: 1, subject: { kind: 'clip', id: clip.id }, signal: new AbortController().signal, progress: () => {}, note: () => {}, setResult: () => {} };
t0 = performance.now();
await clipJobHandlers['clip.finalize'](s.ctx, job);
const clipMs = performance.now() - t0;
const done = new ClipService(s.ctx).get(tenant, clip.id);
const files = readdirSync(join(done.final_dir!, 'src')).length;
console.log(`frame-precision clip, 60 s of 1080p (${durs.length} recorded segments; ${files - 1} clip files): ${(clipMs / 1000).toFixed(2)} s = ${(clipMs / 60_000).toFixed(3)}x real time (target <= 0.3x); status ${done.status}`);
rmSync(work, { recursive: true, force: true });
await s.stop();
