/**
 * Filmstrip thumbnails of a channel's recording: a plan of evenly spaced frames over a range (with the recorded
 * spans and the frame rate, for a clip cutter's snapping) and each frame rendered once by ffmpeg from the recorded
 * segment (joined with its init segment) into a small JPEG cached under `DATA/media/<tenant>/thumbs/<channel>/`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { AppError, invalid } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { thumbArgs } from '../../media/args/thumb';
import { fetchSegments, initFile, recordedRenditions, recordedSpansInRange, segmentFile, segmentsInRange, segmentTimesInRange } from '../channels/service';
import type { ChannelRow, SegmentRow } from '../channels/store';
import { parseTime } from '../guide/service';
import { videoFps } from './thumb-fps';

/** Most frames one plan may name. */
export const MAX_THUMBS = 60;
const MAX_RANGE_MS = 24 * 3_600_000;
/** Most segment boundaries a plan lists. */
const MAX_BOUNDARIES = 1000;
/** Frames waiting for a renderer before further asks are refused (429). */
const MAX_WAITING = 120;
/** Cached frames kept per channel before the oldest are dropped. */
const KEEP_PER_CHANNEL = 3000;
/** ffmpeg renders at once per app (the filmstrip asks for many frames together; the box has few cores). */
const PARALLEL = 2;

/** Per-app render state: frames being rendered (shared by concurrent asks) and the render queue. */
interface RenderState { pending: Map<string, Promise<string>>; running: number; queue: (() => void)[] }
const STATE = slotKey<RenderState>('catchup.thumbnails');

/** Thumbnails of recordings. Throws AppError. */
export class ThumbnailService {
  constructor(private ctx: AppContext) {}

  private rendition(ch: ChannelRow): string {
    const r = recordedRenditions(this.ctx, ch.id);
    const pick = r.includes('src') ? 'src' : r[0];
    if (!pick) throw invalid('from', 'nothing is recorded on this channel');
    return pick;
  }

  /** GET /v1/channels/{id}/thumbnails: `count` frames spread over [from, to) where something is recorded. */
  plan(ch: ChannelRow, q: { from?: string; to?: string; count?: number | string }) {
    const now = this.ctx.clock.now();
    const to = q.to ? parseTime('to', q.to) : now;
    const from = q.from ? parseTime('from', q.from) : to - 600_000;
    if (to <= from) throw invalid('to', 'must be after from');
    if (to - from > MAX_RANGE_MS) throw invalid('to', 'from and to are at most 24 hours apart');
    const count = q.count === undefined ? 12 : Number(q.count);
    if (!Number.isInteger(count) || count < 1 || count > MAX_THUMBS) throw invalid('count', `integer 1-${MAX_THUMBS}`);
    const rend = this.rendition(ch);
    const t = segmentTimesInRange(this.ctx, ch.id, rend, from, to);
    if (!t.n) throw invalid('from', 'nothing recorded between from and to');
    const base = `${this.ctx.config.baseUrl}/v1/channels/${ch.id}/thumbnails/`;
    const items: { at: string; at_ms: number; segment_start: string; segment_end: string; url: string }[] = [];
    const step = (to - from) / count;
    let j = 0;
    for (let i = 0; i < count; i++) {
      const want = Math.round(from + (i + 0.5) * step);
      while (j < t.n && t.start[j] + t.dur[j] <= want) j++;
      if (j >= t.n || t.start[j] > want) continue; // a gap in the recording: no frame there
      // Frames on a 100 ms grid inside the segment: nearby asks share cached files.
      const at = t.start[j] + Math.min(Math.floor((want - t.start[j]) / 100) * 100, Math.max(0, t.dur[j] - 100));
      if (items.length && items[items.length - 1].at_ms === at) continue;
      items.push({ at: iso(at), at_ms: at, segment_start: iso(t.start[j]), segment_end: iso(t.start[j] + t.dur[j]), url: `${base}${at}` });
    }
    const spans = recordedSpansInRange(this.ctx, ch.id, rend, from, to);
    const recorded: { from: string; to: string }[] = [];
    for (let i = 0; i < spans.length; i += 2) recorded.push({ from: iso(Math.max(from, spans[i])), to: iso(Math.min(to, spans[i + 1])) });
    // Segment starts (and the last end) for segment-precision cutters, when the range is short enough to list them.
    let segments: number[] | null = null;
    if (t.n <= MAX_BOUNDARIES) {
      segments = Array.from(t.start.subarray(0, t.n));
      segments.push(t.start[t.n - 1] + t.dur[t.n - 1]);
    }
    return { from: iso(from), to: iso(to), count, rendition: rend, segment_ms: ch.segment_s * 1000, fps: this.fps(ch, rend, t.start[t.n >> 1]), recorded, segments, items };
  }

  /** Frame rate of the recording near `at` (video samples ÷ duration of one segment); null when unreadable. */
  private fps(ch: ChannelRow, rend: string, at: number): number | null {
    const seg = segmentsInRange(this.ctx, ch.id, rend, at, at + 1)[0];
    if (!seg) return null;
    try { return videoFps(readFileSync(segmentFile(this.ctx, seg)), readFileSync(initFile(this.ctx, ch, rend, seg.init_ms)), seg.duration_ms); } catch { return null; }
  }

  /** The cached JPEG of the frame at `atMs` (rendered on first ask); 422 when nothing is recorded there. */
  async frame(ch: ChannelRow, atMs: number): Promise<string> {
    const rend = this.rendition(ch);
    const seg = segmentsInRange(this.ctx, ch.id, rend, atMs - 120_000, atMs + 1).find((s) => s.start_ms <= atMs && atMs < s.start_ms + s.duration_ms);
    if (!seg) throw invalid('at', 'nothing recorded at this time');
    const offset = Math.floor((atMs - seg.start_ms) / 100) * 100;
    const dir = join(this.ctx.config.dataDir, 'media', ch.tenant_id, 'thumbs', ch.id);
    const out = join(dir, `${seg.start_ms}-${offset}-${rend}.jpg`);
    if (existsSync(out)) return out;
    const st = this.ctx.slots.get(STATE, () => ({ pending: new Map(), running: 0, queue: [] }));
    let p = st.pending.get(out);
    if (!p) {
      p = this.queued(st, () => this.render(ch, rend, seg, offset, dir, out)).finally(() => st.pending.delete(out));
      st.pending.set(out, p);
    }
    return p;
  }

  private async queued<T>(st: RenderState, fn: () => Promise<T>): Promise<T> {
    if (st.running >= PARALLEL) {
      if (st.queue.length >= MAX_WAITING) throw new AppError('rate_limited', 'too many thumbnails are being rendered; ask again shortly');
      await new Promise<void>((res) => st.queue.push(res));
    }
    st.running++;
    try { return await fn(); } finally { st.running--; st.queue.shift()?.(); }
  }

  private async render(ch: ChannelRow, rend: string, seg: SegmentRow, offsetMs: number, dir: string, out: string): Promise<string> {
    const tools = locateFfmpeg({ ffmpeg: this.ctx.config.ffmpegPath, ffprobe: this.ctx.config.ffprobePath });
    await fetchSegments(this.ctx, ch, rend, [seg], [seg.init_ms]); // an hour moved to a bucket media store: local copies
    const segPath = segmentFile(this.ctx, seg), init = initFile(this.ctx, ch, rend, seg.init_ms);
    if (!tools) throw new AppError('not_ready', 'ffmpeg is not available');
    if (!existsSync(segPath) || !existsSync(init)) throw invalid('at', 'the recording at this time is gone');
    mkdirSync(dir, { recursive: true });
    const tag = `${process.pid}-${Math.random().toString(36).slice(2)}`;
    const joined = join(dir, `.${tag}.mp4`), tmp = join(dir, `.${tag}.jpg`);
    try {
      writeFileSync(joined, Buffer.concat([readFileSync(init), readFileSync(segPath)]));
      const r = await runTool(thumbArgs(tools.ffmpeg, joined, tmp, offsetMs / 1000), { timeoutMs: 20_000 }).done;
      if (r.code !== 0 || !existsSync(tmp)) {
        this.ctx.log.warn('thumbnail failed', { channel: ch.id, at: seg.start_ms + offsetMs, error: r.stderrTail.join(' | ') });
        throw new AppError('internal_error', 'the frame could not be rendered');
      }
      renameSync(tmp, out);
      this.prune(dir);
      return out;
    } finally {
      rmSync(joined, { force: true });
      rmSync(tmp, { force: true });
    }
  }

  /** Keeps the cache bounded: past KEEP_PER_CHANNEL frames, the oldest recorded ones go (names start with the time). */
  private prune(dir: string): void {
    const names = readdirSync(dir).filter((n) => n.endsWith('.jpg') && !n.startsWith('.'));
    if (names.length <= KEEP_PER_CHANNEL) return;
    const byTime = names.map((n) => ({ n, t: Number(n.split('-')[0]) })).sort((a, b) => a.t - b.t);
    for (const x of byTime.slice(0, names.length - KEEP_PER_CHANNEL / 2)) rmSync(join(dir, x.n), { force: true });
  }
}
