import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import type { JobRun } from '../../jobs/types';
import type { Plan } from '../../media/ladder';
import { encodePreview, remuxBlocker, remuxPreview } from '../../media/preview';
import type { MediaInfo } from '../../media/probe-parse';
import { publishPreview } from './preview-event';
import { previewOutput } from '../assets/output';
import { assetRelDir, type MediaRuntime } from './runtime';

/** A quick-play preview under way: `finish` publishes it (or encodes one) once probed, `drop` stops it and removes its files. */
export interface QuickPlay { finish(info: MediaInfo, plan: Plan): Promise<void>; drop(): Promise<void> }

/** Short side of the quick first rendition of a source that must be transcoded. */
const QUICK_SHORT_SIDE = 360;

/**
 * First play in about a second (issue 21): the source is remuxed (no re-encode) into a one-variant CMAF preview
 * under `<asset>/preview/` while it is probed. A browser-ready H.264/AAC source's remux is published as the asset's
 * preview while the ladder encodes; any other source gets a quick small H.264 rendition instead, published at its
 * first segment (not on a cluster's control node, whose transcodes run on workers). Best effort: a failure leaves the
 * preview to the ladder's first segments, and never fails (or retries) the probe job.
 */
export function startQuickPlay(ctx: AppContext, job: JobRun<'asset.process'>, rt: MediaRuntime, o: { id: string; tenantId: string; source: string; segmentS: number }): QuickPlay {
  const rel = join(assetRelDir(o.tenantId, o.id), 'preview');
  const dir = join(ctx.config.dataDir, rel);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  job.signal.addEventListener('abort', onAbort, { once: true });
  const t0 = Date.now();
  const run = remuxPreview({ ffmpeg: rt.tools.ffmpeg, source: o.source, outDir: dir, segmentS: o.segmentS, signal: stop.signal })
    .then(() => null, (e: unknown) => String((e as Error)?.message ?? e));
  const done = () => job.signal.removeEventListener('abort', onAbort);
  const drop = async () => { stop.abort(); await run; rmSync(dir, { recursive: true, force: true }); done(); };
  const publish = (kind: string): boolean => {
    // Only while no preview is published (the ladder's own growing one may have come first: players keep it).
    if (!publishPreview(ctx, o.id, previewOutput(rel), kind === 'remux', kind === 'remux' ? 'remux' : 'quick-encode')) return false;
    job.note('first_playable', { ms: Date.now() - t0, preview: kind });
    job.setResult({ preview: kind, preview_ms: Date.now() - t0 });
    return true;
  };
  const fail = (why: string, error?: string) => {
    if (error) ctx.log.warn('quick-play preview failed; the ladder provides the preview', { asset: o.id, error });
    rmSync(dir, { recursive: true, force: true });
    job.setResult({ preview: 'ladder', preview_reason: why });
  };
  return {
    drop,
    async finish(info, plan) {
      const why = remuxBlocker(info);
      if (!why) {
        const failed = await run;
        done();
        if (failed) return fail('remux failed', failed);
        // Not published: the ladder finished first or the asset left the working states; the preview is not needed.
        if (!publish('remux')) rmSync(dir, { recursive: true, force: true });
        return;
      }
      stop.abort();
      await run;
      // With workers (VS_NATS_URL) the control node encodes nothing: a quick rendition of the whole source here would
      // be per-upload work growing with its length on the one node that does not scale out; the ladder's output plays.
      if (ctx.config.natsUrl) { done(); return fail(`${why}; transcodes run on workers`); }
      const r = plan.renditions.find((x) => Math.min(x.width, x.height) <= QUICK_SHORT_SIDE) ?? plan.renditions[plan.renditions.length - 1];
      let published = false;
      try {
        await encodePreview({
          ffmpeg: rt.tools.ffmpeg, source: o.source, outDir: dir, width: r.width, height: r.height, fps: plan.fps, segmentS: 1, signal: job.signal,
          onFirstSegment: () => { published = publish('quick-encode'); },
        });
        if (!published) fail(why);
        else job.setResult({ preview_reason: why });
      } catch (e) {
        if (!published) fail(why, String((e as Error)?.message ?? e));
      } finally { done(); }
    },
  };
}
