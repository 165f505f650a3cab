import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { enqueueJob } from '../../jobs/enqueue';
import { jobQueue } from '../../jobs/worker';
import type { FeatureHandlers, JobRow } from '../../jobs/types';
import { PermanentJobError } from '../../jobs/errors';
import { checkUrlShape, safeFetch } from '../../kernel/net/safe-fetch';
import { markFilter, PROBE_FPS } from '../../media/args/watermark';
import { encodeVariantB, VARIANT_B_DIR, withProbeStream, type ProbeStream, type VariantOptions } from '../../media/watermark';
import type { FfmpegTools } from '../../media/locate';
import { AssetService } from '../assets/service';
import { parseAssetOutput } from '../assets/output';
import { IdentityService } from '../identity/service';
import { playbackState } from '../playback/service';
import { tenantMarkKey, variantBit } from './bits';
import { WATERMARK_SECRET } from './choice';
import { readBits, scoreSessions, type Scored } from './detect';
import { frameSignature, placeCopy, SIGNATURE_LEN, type TraceAlignment } from './align';
import { WatermarkStore, type TraceRow } from './store';

/** True when an asset's playback policy asks for the A/B watermark (its next encode makes both variants). */
export function watermarkWanted(ctx: AppContext, tenantId: string, assetId: string): boolean {
  return playbackState(ctx).rulesFor(tenantId, { kind: 'asset', ref: assetId, channel: null }).rules.watermark.mode === 'ab';
}

/** Variant A's mark for the ladder encode. */
export function variantAMark(): string { return markFilter('a'); }

/**
 * Encodes variant B beside a packaged A (media/watermark.ts) and answers its cost for the job's result: B's bytes,
 * segments and wall time. Makes sure the marking secret exists (delivery workers only read it).
 */
export async function encodeSecondVariant(ctx: AppContext, o: VariantOptions): Promise<{ b_bytes: number; b_segments: number; b_encode_ms: number }> {
  new IdentityService(ctx.db, null).secret(WATERMARK_SECRET);
  const t0 = Date.now();
  const r = await encodeVariantB(o);
  return { b_bytes: r.bytes, b_segments: r.segments, b_encode_ms: Date.now() - t0 };
}

/** Most bytes of a leaked copy (uploaded files together, or the fetched URL). */
export const MAX_TRACE_BYTES = 512 * 2 ** 20;
/** Most files one upload may hold (segments of a copy, in order). */
export const MAX_TRACE_FILES = 2000;
/** Most candidate sessions scored per trace (oldest first). */
const MAX_CANDIDATES = 1_000_000;
/** Named only at this confidence or above (and ahead of the runner-up). */
export const NAME_CONFIDENCE = 0.99;
/** Copy frames compared when searching its start (30 s at the probe rate: enough to place it, bounded work). */
const ALIGN_COPY_FRAMES = 30 * PROBE_FPS;

/** What a finished trace found. */
export interface TraceResult {
  segments: number; bits_read: number; bits: string; sessions_scored: number;
  alignment?: TraceAlignment;
  named: (Scored & { viewer_id: string | null; issued_at: string }) | null;
  candidates: (Scored & { viewer_id: string | null; issued_at: string })[];
}

/** A trace as the API shows it. */
export function traceView(r: TraceRow) {
  return {
    id: r.id, asset_id: r.asset_id, status: r.status, progress: Math.round(r.progress * 10) / 10, source: r.source, url: r.url, files: r.files,
    offset_s: r.offset_search ? null : r.offset_s, result: r.result ? (JSON.parse(r.result) as TraceResult) : null, error: r.error,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at), finished_at: r.finished_at === null ? null : iso(r.finished_at),
  };
}

/** Traces of leaked copies back to their playback sessions. */
export class TraceService {
  readonly store: WatermarkStore;
  constructor(private ctx: AppContext) { this.store = new WatermarkStore(ctx.db); }

  private workDir(id: string): string { return join(this.ctx.config.dataDir, 'tmp', 'watermark', id); }

  /**
   * Starts a trace of `asset_id` from uploaded files (concatenated in order: a whole file, or an init segment and
   * media segments) or a URL fetched through the safe fetcher by the job; `offset_s`: where in the asset the copy
   * starts. 404 for an asset not the tenant's; 409 when the asset has no watermarked output.
   */
  async create(tenantId: string, body: { asset_id: string; url?: string; offset_s?: number; file?: File[] | File }) {
    const files = body.file === undefined ? [] : Array.isArray(body.file) ? body.file : [body.file];
    if ((files.length > 0) === (body.url !== undefined)) throw new AppError('validation_error', 'give either file (uploaded) or url', { errors: [{ field: files.length ? 'url' : 'file', detail: 'exactly one of file and url' }] });
    if (files.length > MAX_TRACE_FILES) throw invalid('file', `at most ${MAX_TRACE_FILES} files`);
    const total = files.reduce((n, f) => n + f.size, 0);
    if (total > MAX_TRACE_BYTES) throw new AppError('payload_too_large', `the copy exceeds ${MAX_TRACE_BYTES} bytes`);
    if (files.length && total === 0) throw invalid('file', 'the uploaded copy is empty');
    if (body.url !== undefined) checkUrlShape(body.url, this.ctx.config.privateAllowlist);
    const offset = body.offset_s ?? 0;
    // offset_s absent: the job searches where the copy starts (a clip of the middle, cut anywhere).
    if (!Number.isFinite(offset) || offset < 0 || offset > 86400 * 7) throw invalid('offset_s', 'seconds from 0 to 604800');
    if (!isUuid(body.asset_id)) throw notFound('asset');
    const a = new AssetService(this.ctx).get(tenantId, body.asset_id);
    const out = a.status === 'ready' ? parseAssetOutput(a.output) : null;
    if (!out || !existsSync(join(this.ctx.config.dataDir, out.dir, VARIANT_B_DIR))) throw new AppError('conflict', 'this asset has no watermarked output (its policy had watermark.mode ab when it was encoded?)');
    const id = newId();
    const dir = this.workDir(id);
    mkdirSync(dir, { recursive: true });
    try {
      // One file, in the order given (an init segment first, then the media segments, as a player would join them).
      const leak = join(dir, 'leak.bin');
      writeFileSync(leak, '');
      for (const f of files) await appendFile(leak, new Uint8Array(await f.arrayBuffer()));
    } catch (e) { rmSync(dir, { recursive: true, force: true }); throw e; }
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      this.store.insertTrace({ id, tenant_id: tenantId, asset_id: a.id, source: files.length ? 'upload' : 'url', url: body.url ?? null, files: files.length, offset_s: offset, offset_search: body.offset_s === undefined ? 1 : 0, status: 'queued', created_at: now });
      enqueueJob(this.ctx.db, { tenantId, type: 'watermark.trace', payload: { traceId: id }, subject: { kind: 'watermark_trace', id }, priority: 40, maxAttempts: 2 }, now);
    });
    jobQueue(this.ctx)?.wake();
    return traceView(this.store.trace(tenantId, id)!);
  }

  /** One trace (404 for another tenant's). */
  one(tenantId: string, id: string) {
    const r = isUuid(id) ? this.store.trace(tenantId, id) : null;
    if (!r) throw notFound('trace');
    return traceView(r);
  }

  /** The `watermark.trace` job: reads the copy's bits and scores every session issued for the asset. */
  async run(traceId: string, tools: FfmpegTools | null, signal?: AbortSignal): Promise<void> {
    const r = this.store.traceById(traceId);
    if (!r || r.status === 'done' || r.status === 'failed') return;
    if (!tools) throw new PermanentJobError('ffmpeg is not available');
    const ctx = this.ctx, dir = this.workDir(r.id);
    const now = () => ctx.clock.now();
    this.store.running(r.id, now());
    try {
      const a = new AssetService(ctx).get(r.tenant_id, r.asset_id);
      const out = parseAssetOutput(a.output);
      const outDir = out && join(ctx.config.dataDir, out.dir);
      if (!outDir || !existsSync(join(outDir, VARIANT_B_DIR))) throw new PermanentJobError('the asset has no watermarked output any more');
      mkdirSync(dir, { recursive: true });
      const leak = join(dir, 'leak.bin');
      if (r.source === 'url') await fetchCopy(ctx, r.url!, leak, signal);
      // The top rendition's segment times (its VOD playlist) and its A and B streams, as a player would join them.
      const durations = readFileSync(join(outDir, 'media_0.m3u8'), 'utf8').split('\n').filter((l) => l.startsWith('#EXTINF:')).map((l) => Number(l.slice(8).split(',')[0]));
      const mids: number[] = [];
      durations.reduce((t, d) => { mids.push(t + d / 2); return t + d; }, 0);
      const segs = durations.map((_, i) => `seg_0_${String(i + 1).padStart(5, '0')}.m4s`);
      const join3 = async (file: string, from: string) => {
        writeFileSync(file, await readFile(join(outDir, 'init_0.m4s')));
        for (const s of segs) await appendFile(file, await readFile(join(from, s)));
      };
      await join3(join(dir, 'a.mp4'), outDir);
      await join3(join(dir, 'b.mp4'), join(outDir, VARIANT_B_DIR));
      // The A and B streams and the copy decoded side by side (one decode each); the copy placed in the asset (given
      // offset_s, or searched against A's frames), then each segment's middle read from all three.
      const o = { signal, nice: 5 };
      this.store.progress(r.id, 10, now());
      const signatures = (st: ProbeStream, limit: number) => {
        const n = Math.min(st.count, limit), out = new Float32Array(n * SIGNATURE_LEN);
        for (let k = 0; k < n; k++) frameSignature(st.frame(k)!, out, k * SIGNATURE_LEN);
        return out;
      };
      const at = (st: ProbeStream, shift: number) => mids.map((m) => st.frame(Math.round((m - shift) * PROBE_FPS)));
      const aSide = withProbeStream(tools.ffmpeg, join(dir, 'a.mp4'), dir, o, (st) => ({ frames: at(st, 0), sig: signatures(st, Infinity) }));
      const [fa, fb, copy] = await Promise.all([
        aSide.then((x) => x.frames), withProbeStream(tools.ffmpeg, join(dir, 'b.mp4'), dir, o, (st) => at(st, 0)),
        withProbeStream(tools.ffmpeg, leak, dir, o, async (st) => {
          const alignment = placeCopy((await aSide).sig, signatures(st, ALIGN_COPY_FRAMES), r.offset_search ? null : r.offset_s);
          if (!alignment) throw new PermanentJobError('the copy could not be placed in the asset (no decodable frames, or longer than the asset?)');
          return { frames: at(st, alignment.offset_s), alignment };
        }),
      ]);
      this.store.progress(r.id, 90, now());
      if (fa.some((f) => !f) || fb.some((f) => !f)) throw new PermanentJobError('the asset\'s own variants could not be decoded');
      const bits = readBits(copy.frames, fa as Uint8Array[], fb as Uint8Array[]);
      if (!bits.some((b) => b.bit !== null)) throw new PermanentJobError('no segment of the asset could be read from the copy (not a copy of this asset, or offset_s wrong? leave it out to have it searched)');
      const sessions = this.store.sessionsOf(r.tenant_id, r.asset_id, MAX_CANDIDATES);
      const secret = new IdentityService(ctx.db, null).secret(WATERMARK_SECRET);
      const key = tenantMarkKey(secret, r.tenant_id);
      const scored = scoreSessions(bits, sessions.map((s) => s.sid), (sid, n) => variantBit(key, r.asset_id, sid, n));
      const bySid = new Map(sessions.map((s) => [s.sid, s]));
      const withWho = (s: Scored) => ({ ...s, viewer_id: bySid.get(s.sid)?.viewer_id ?? null, issued_at: iso(bySid.get(s.sid)?.issued_at ?? 0) });
      const best = scored[0], second = scored[1];
      const result: TraceResult = {
        segments: bits.length, bits_read: bits.filter((b) => b.bit !== null).length, bits: bits.map((b) => (b.bit === null ? '?' : String(b.bit))).join(''),
        sessions_scored: scored.length, alignment: copy.alignment,
        named: best && best.confidence >= NAME_CONFIDENCE && (!second || best.matched > second.matched) ? withWho(best) : null,
        candidates: scored.slice(0, 5).map(withWho),
      };
      this.store.finish(r.id, result, now());
    } catch (e) {
      if (e instanceof PermanentJobError || e instanceof AppError) { this.store.fail(r.id, (e as Error).message, now()); return; }
      throw e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Fetches a leaked copy through the safe fetcher into `file` (private addresses refused, bounded size and time). */
async function fetchCopy(ctx: AppContext, url: string, file: string, signal?: AbortSignal): Promise<void> {
  const res = await safeFetch(url, { timeoutMs: 10 * 60_000, idleTimeoutMs: 30_000, maxBytes: MAX_TRACE_BYTES, maxRedirects: 5, allowlist: ctx.config.privateAllowlist, signal });
  if (res.status !== 200 || !res.body) throw new PermanentJobError(`the copy's URL answered HTTP ${res.status}`);
  const w = createWriteStream(file);
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) if (!w.write(chunk)) await new Promise((r) => w.once('drain', r));
  } finally { await new Promise((r) => w.end(r)); }
}

/** The `watermark.trace` job handler (registered in features/jobs/registry.ts). */
export function watermarkJobHandlers(tools: FfmpegTools | null): FeatureHandlers<'watermark.trace'> {
  return { 'watermark.trace': (ctx, job) => new TraceService(ctx).run(job.payload.traceId, tools, job.signal) };
}

/** A trace job that failed for good leaves its trace `failed` with the reason. */
export function failTraceOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.type !== 'watermark.trace' || job.subject_kind !== 'watermark_trace' || !job.subject_id) return;
  new WatermarkStore(ctx.db).fail(job.subject_id, error, ctx.clock.now());
}
