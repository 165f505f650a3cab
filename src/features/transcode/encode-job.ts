import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { planLadder, type Plan } from '../../media/ladder';
import type { MediaInfo } from '../../media/probe-parse';
import { transcode } from '../../media/transcode';
import { PREVIEW } from '../../media/preview';
import { assetEventData, lifecycleAsset, markReady, playbackFor, saveProgress, transition } from '../assets/lifecycle';
import { previewOutput, serializeOutput, type AssetOutput } from '../assets/output';
import { laddersOf } from './ladders';
import { sourceFile } from './probe-job';
import { assetRelDir, requireRuntime, type MediaRuntime } from './runtime';
import { publishPreview } from './preview-event';
import { encodeSecondVariant, variantAMark, watermarkWanted } from '../watermark/service';
import { PackagingService } from '../packaging/service';
import { keepsDash, withPackaging } from '../packaging/plan';

/** The `output` JSON of a ready asset (defined in the assets feature's output model). */
export type { AssetOutput } from '../assets/output';

/** The output's encryption mark for a tenant's packaging settings (AES-128 by default: delivered only as AES-128 HLS). */
export function encryptionOf(p: { aes128_default: boolean }): Pick<AssetOutput, 'encryption'> {
  return p.aes128_default ? { encryption: 'aes-128' } : {};
}

/** `asset.encode`: queued → encoding → packaging → ready; writes into a work dir renamed into place at the end. */
export async function encodeAsset(ctx: AppContext, job: JobRun<'asset.encode'>, media: MediaRuntime | null): Promise<void> {
  const begun = beginEncode(ctx, job);
  if (!begun) return;
  const { id, a, info, ladderName, plan, packaging } = begun;
  const rel = assetRelDir(a.tenant_id, id);
  const base = join(ctx.config.dataDir, rel);
  mkdirSync(base, { recursive: true });
  for (const f of readdirSync(base)) if (f.startsWith('.work-')) rmSync(join(base, f), { recursive: true, force: true });
  const work = join(base, `.work-${job.id}-${job.attempt}`);
  mkdirSync(work);
  const rt = requireRuntime(media);
  const started = Date.now();
  let lastAsset = 0;
  // A/B forensic watermark asked by the asset's policy: A marked here, B encoded after it (about as long again).
  const marked = watermarkWanted(ctx, a.tenant_id, id);
  const share = marked ? 0.6 : 0.98;
  try {
    const res = await transcode({
      tools: rt.tools, source: sourceFile(ctx.config.dataDir, a.source_path), workDir: work, info, plan, encoder: rt.choice.encoder,
      signal: job.signal, nice: rt.choice.nice, mark: marked ? variantAMark() : undefined,
      onProgress: (pct, eta) => {
        const overall = 2 + pct * share;
        job.progress(overall, eta ?? undefined);
        if (Date.now() - lastAsset > 1000 || pct >= 100) { lastAsset = Date.now(); saveProgress(ctx.db, id, Math.round(overall * 10) / 10, eta === null ? null : Math.round(eta)); }
      },
      onStage: (s) => { if (s === 'packaging') transition(ctx.db, id, ['encoding'], 'packaging'); },
      onFallback: (from, reason) => {
        ctx.log.warn('GPU encoder failed; falling back to libx264', { job: job.id, asset: id, encoder: from, reason });
        job.note('encoder_fallback', { from, to: 'libx264', reason });
        job.setResult({ fallback_from: from, fallback_reason: reason });
      },
      onFirstPlayable: () => {
        const ms = Date.now() - started;
        job.note('first_playable', { ms });
        job.setResult({ first_playable_ms: ms });
        // The ladder's growing EVENT playlist is the preview only when no quick-play remux was published.
        publishPreview(ctx, id, previewOutput(`${rel}/.work-${job.id}-${job.attempt}`), false, 'ladder');
      },
    });
    if (marked) job.setResult({ watermark: await encodeSecondVariant(ctx, { tools: rt.tools, source: sourceFile(ctx.config.dataDir, a.source_path), durationS: info.durationS, plan, encoder: res.encoder, outDir: work, signal: job.signal, nice: rt.choice.nice, onProgress: (pct) => job.progress(62 + pct * 0.38) }) });
    const version = a.output_version + 1;
    const dir = `${rel}/v${version}`;
    rmSync(join(ctx.config.dataDir, dir), { recursive: true, force: true });
    renameSync(work, join(ctx.config.dataDir, dir));
    const files: Record<string, string> = { ...res.files };
    if (!packaging.dash) { rmSync(join(ctx.config.dataDir, dir, files.dash), { force: true }); delete files.dash; }
    const output: AssetOutput = {
      dir, version, encoder: res.encoder, fallback_from: res.fallbackFrom, ladder: ladderName, audio: res.audio,
      renditions: res.renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, video_k: r.video_k })),
      files, thumb: { w: res.thumb.w, h: res.thumb.h, interval_s: res.thumb.intervalS }, ...encryptionOf(packaging),
    };
    job.setResult({ encoder: res.encoder, output_version: version, ready_ms: Date.now() - started });
    tx(ctx.db, () => {
      if (!markReady(ctx.db, id, output, version)) throw new PermanentJobError('asset changed while packaging');
      const playback = playbackFor(ctx, { id, tenant_id: a.tenant_id, status: 'ready', output: serializeOutput(output) });
      emitEvent(ctx.db, a.tenant_id, 'asset.ready', { ...assetEventData({ ...a, status: 'ready' }), playback });
    });
    for (const f of readdirSync(base)) if (/^v\d+$/.test(f) && f !== `v${version}`) rmSync(join(base, f), { recursive: true, force: true });
    adoptPreview(join(base, 'preview'), join(ctx.config.dataDir, dir));
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/**
 * The start shared by the local and the cluster encode: the asset checked (null when already ready), its plan with
 * the tenant's packaging settings as they are now (segment duration, DASH on/off, AES-128, I-frame playlists), and the move to `encoding` (a
 * restart after a crash finds the asset still encoding or packaging: the encode starts over).
 */
export function beginEncode(ctx: AppContext, job: JobRun<'asset.encode'>) {
  const id = String(job.payload?.assetId ?? '');
  const a = lifecycleAsset(ctx.db, id);
  if (!a || a.deleted_at !== null) throw new PermanentJobError('asset not found or deleted');
  if (a.status === 'ready') return null;
  if (!a.probe || !a.source_path) throw new PermanentJobError('asset was not probed');
  const info = JSON.parse(a.probe) as MediaInfo;
  const { name: ladderName, plan: planned } = encodePlan(ctx, job.payload, info);
  const settings = new PackagingService(ctx).get(a.tenant_id);
  const plan = withPackaging(planned, settings);
  // AES-128 by default keeps the DASH manifest away (a clear MPD beside the encrypted HLS would bypass it).
  const packaging = { ...settings, dash: keepsDash(settings) };
  if (!transition(ctx.db, id, ['queued', 'encoding', 'packaging'], 'encoding')) throw new PermanentJobError(`asset is ${a.status}`);
  return { id, a: { ...a, source_path: a.source_path }, info, ladderName, plan, packaging };
}

/**
 * The plan the probe resolved (tenant default and ladder, once) and carried in the payload; a job queued by an
 * older version carries only the ladder name, planned here from the stored probe without resolving the tenant.
 */
export function encodePlan(ctx: AppContext, p: JobRun<'asset.encode'>['payload'], info: MediaInfo): { name: string; plan: Plan } {
  if (p?.plan && p.ladder) return { name: p.ladder, plan: p.plan };
  const ladder = p?.ladder ? laddersOf(ctx).ladders[p.ladder] : undefined;
  if (!ladder || !p?.ladder || !info.video) throw new PermanentJobError('ladder or video stream missing');
  const plan = planLadder(ladder, info.video);
  if ('error' in plan) throw new PermanentJobError(plan.error);
  return { name: p.ladder, plan };
}

/**
 * The ladder replaces the quick-play preview under the same URL (`.../preview/master.m3u8` now answers the
 * ladder's master from the ready output): a player still playing the preview's variant keeps finding its playlist
 * and segments, hard-linked into the output directory (no copy), and the preview directory goes.
 */
function adoptPreview(previewDir: string, outDir: string): void {
  if (!existsSync(previewDir)) return;
  for (const f of readdirSync(previewDir)) {
    if (f === PREVIEW.master || !f.startsWith('preview')) continue;
    try { linkSync(join(previewDir, f), join(outDir, f)); } catch { /* already linked by an earlier attempt */ }
  }
  rmSync(previewDir, { recursive: true, force: true });
}
