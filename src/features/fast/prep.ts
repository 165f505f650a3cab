/**
 * FAST preparation of an asset for a channel's renditions (job `fast.prep`): each channel rendition is either the
 * asset's own CMAF video rendition of the same size muxed with its audio rendition by stream copy (`copy`: no
 * re-encode), or, when the asset has no rendition of that size or no audio, a re-encode of its download/source to
 * the channel rendition (`conform`). Output under DATA/media/<tenant>/assets/<id>/fast/v<version>-<profile hash>/.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import { PermanentJobError } from '../../jobs/errors';
import { runTool } from '../../media/process';
import { fastConformArgs, fastCopyArgs, fastVideoDelayArgs } from '../../media/args/fast-prep';
import { initTracks } from '../../live/mp4';
import { lowerComposition, shiftTrack } from '../../live/fast-track-shift';
import { trackSpansMs } from '../../live/fast-ends';
import type { FfmpegTools } from '../../media/locate';
import { assetById } from '../assets/service';
import { parseAssetOutput, type AssetOutput } from '../assets/output';
import { FastStore } from './store';
import type { ChannelRendition, PrepSegments } from './model';

/** Segment length of prepared renditions (the shipped ladders' CMAF segment length). */
const SEGMENT_S = 4;

/** The profile key of a rendition set (what preps are keyed by). */
export function profileOf(r: ChannelRendition[]): string {
  return r.map((x) => `${x.name}=${x.width}x${x.height}@${x.video_k}`).join(',');
}

/** Variants of an asset's HLS master: resolution → video playlist, and the audio playlist (null: none). */
export function masterVariants(master: string): { video: Map<string, string>; audio: string | null } {
  const video = new Map<string, string>();
  let audio: string | null = null, pending: string | null = null;
  for (const line of master.split('\n').map((l) => l.trim())) {
    if (line.startsWith('#EXT-X-MEDIA:') && line.includes('TYPE=AUDIO')) audio ??= /URI="([^"]+)"/.exec(line)?.[1] ?? null;
    else if (line.startsWith('#EXT-X-STREAM-INF:')) pending = /RESOLUTION=(\d+x\d+)/.exec(line)?.[1] ?? '';
    else if (pending !== null && line && !line.startsWith('#')) { if (pending && !video.has(pending)) video.set(pending, line); pending = null; }
  }
  return { video, audio };
}

/** `copy` when the asset carries every channel rendition's size and an audio rendition, else `conform`. */
export function prepMode(out: AssetOutput, master: string | null, r: ChannelRendition[]): 'copy' | 'conform' {
  if (!master || !out.audio) return 'conform';
  const v = masterVariants(master);
  return v.audio && r.every((x) => v.video.has(`${x.width}x${x.height}`)) ? 'copy' : 'conform';
}

/** The prep directory (data-dir relative) of an asset version for a profile. */
export function prepDir(tenantId: string, assetId: string, version: number, profile: string): string {
  return join('media', tenantId, 'assets', assetId, 'fast', `v${version}-${createHash('sha256').update(profile).digest('hex').slice(0, 12)}`);
}

/** Segment files and durations (ms, from EXTINF) of a prepared rendition's playlist. */
function listed(dir: string): { segs: string[]; ms: number[] } {
  const segs: string[] = [], ms: number[] = [];
  let d = 0;
  for (const line of readFileSync(join(dir, 'index.m3u8'), 'utf8').split('\n')) {
    if (line.startsWith('#EXTINF:')) d = parseFloat(line.slice(8));
    else if (line && !line.startsWith('#')) { segs.push(line.trim()); ms.push(Math.round(d * 1000)); }
  }
  return { segs, ms };
}

/** The video's decode delay (s): its first packet's presentation minus decode time (B-frames), 0 when unknown. */
async function videoDelay(ffprobe: string, video: string): Promise<number> {
  const p = Bun.spawn(fastVideoDelayArgs(ffprobe, video), { stdout: 'pipe', stderr: 'ignore' });
  const [out] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  const [pts, dts] = out.trim().split('\n')[0]?.split(',').map(Number) ?? [];
  return Number.isFinite(pts) && Number.isFinite(dts) && pts > dts ? Math.min(1, pts - dts) : 0;
}

/**
 * Balances the muxed segments after a copy with the audio read `leadS` early: the audio's decode times move back by
 * `leadS` (sync kept), and the video's move later by `leadS` while its composition offsets drop by as much (its
 * presentation times kept). Each segment then starts both tracks at its first frame's presentation time and ends
 * them together, so a join after any segment leaves no hole for players that start a discontinuity at its first
 * decode time (hls.js).
 */
function balance(dir: string, segs: string[], leadS: number): void {
  const tracks = initTracks(readFileSync(join(dir, 'init.mp4')));
  const id = (kind: string) => [...tracks.keys()].find((k) => tracks.get(k)!.kind === kind);
  const a = id('soun'), v = id('vide');
  for (const f of segs) {
    const b = new Uint8Array(readFileSync(join(dir, f)));
    if (a !== undefined) shiftTrack(b, a, BigInt(Math.round(leadS * tracks.get(a)!.timescale)));
    if (v !== undefined) {
      const ticks = Math.round(leadS * tracks.get(v)!.timescale);
      if (lowerComposition(b, v, ticks)) shiftTrack(b, v, BigInt(ticks));
    }
    writeFileSync(join(dir, f), b);
  }
}

async function prepare(ctx: AppContext, job: JobRun<'fast.prep'>, tools: FfmpegTools | null): Promise<void> {
  const p = job.payload;
  const store = new FastStore(ctx.db);
  const row = store.prep(p.assetId, p.version, p.profile);
  if (!row) return; // gone
  const asset = assetById(ctx, p.assetId);
  const out = asset && parseAssetOutput(asset.output);
  if (!asset || !out || out.version !== p.version) { store.setPrep(p.assetId, p.version, p.profile, { status: 'failed', error: 'the asset version is gone' }, ctx.clock.now()); return; }
  if (!tools) throw new Error('ffmpeg not found');
  const src = join(ctx.config.dataDir, out.dir);
  const dir = join(ctx.config.dataDir, row.dir);
  rmSync(dir, { recursive: true, force: true });
  const master = existsSync(join(src, out.files.hls ?? 'master.m3u8')) ? readFileSync(join(src, out.files.hls ?? 'master.m3u8'), 'utf8') : null;
  const mode = row.mode as 'copy' | 'conform';
  const result: PrepSegments = { init: {}, segs: {}, ms: [] };
  for (const [i, r] of p.renditions.entries()) {
    let lead = 0;
    const rdir = join(dir, r.name);
    mkdirSync(rdir, { recursive: true });
    let argv: string[];
    if (mode === 'copy') {
      const v = masterVariants(master ?? '');
      const video = join(src, v.video.get(`${r.width}x${r.height}`)!);
      lead = await videoDelay(tools.ffprobe, video);
      argv = fastCopyArgs({ ffmpeg: tools.ffmpeg, video, audio: v.audio ? join(src, v.audio) : null, outDir: rdir, segmentS: SEGMENT_S, audioLeadS: lead });
    } else {
      const dl = out.files.download && existsSync(join(src, out.files.download)) ? join(src, out.files.download) : asset.source_path ? join(ctx.config.dataDir, asset.source_path) : null;
      if (!dl || !existsSync(dl)) throw new PermanentJobError('no download or source file to conform from');
      argv = fastConformArgs({ ffmpeg: tools.ffmpeg, input: dl, hasAudio: out.audio, outDir: rdir, segmentS: SEGMENT_S, keyS: 2, width: r.width, height: r.height, videoK: r.video_k, audioK: 128, fps: 25 });
    }
    const run = await runTool(argv, { timeoutMs: 3_600_000, stallMs: 120_000, stderrIsProgress: true, signal: job.signal, nice: mode === 'conform' ? 10 : undefined, batch: mode === 'conform' }).done;
    if (run.code !== 0) throw new Error(`fast ${mode} of ${r.name} failed: ${run.stderrTail.slice(-3).join(' | ') || `exit ${run.code}`}`);
    const l = listed(rdir);
    if (mode === 'copy' && lead > 0) balance(rdir, l.segs, lead);
    const rel = join(row.dir, r.name);
    result.init[r.name] = join(rel, 'init.mp4');
    result.segs[r.name] = l.segs.map((s) => join(rel, s));
    if (i === 0) {
      result.ms = l.ms;
      // Where each segment's shorter track ends (the first rendition's; renditions share the audio and the cuts).
      const init = readFileSync(join(rdir, 'init.mp4'));
      result.cut = l.segs.map((f, k) => {
        const sp = trackSpansMs(readFileSync(join(rdir, f)), init);
        if (!sp.video || !sp.audio) return l.ms[k];
        const end = Math.min(sp.video[1], sp.audio[1]);
        return Math.max(1, Math.min(l.ms[k], Math.floor(end - sp.video[0])));
      });
    }
    else if (l.segs.length !== result.ms.length) throw new PermanentJobError(`renditions are not aligned (${r.name}: ${l.segs.length} segments, ${result.ms.length} in the first)`);
    job.progress(((i + 1) / p.renditions.length) * 100);
  }
  store.setPrep(p.assetId, p.version, p.profile, { status: 'ready', segments: JSON.stringify(result) }, ctx.clock.now());
  job.setResult({ mode, segments: result.ms.length, dir: row.dir });
}

/** The `fast.prep` handler (ffmpeg found once at boot). */
export function fastJobHandlers(tools: FfmpegTools | null): FeatureHandlers<'fast.prep'> {
  return { 'fast.prep': (ctx, job) => prepare(ctx, job, tools) };
}

/** A `fast.prep` job that failed for good marks its prep failed (the schedule shows it). */
export function failPrepOfJob(ctx: AppContext, job: { type: string; payload: string }, error: string): void {
  if (job.type !== 'fast.prep') return;
  try {
    const p = JSON.parse(job.payload) as { assetId: string; version: number; profile: string };
    new FastStore(ctx.db).setPrep(p.assetId, p.version, p.profile, { status: 'failed', error }, ctx.clock.now());
  } catch { /* unreadable payload */ }
}
