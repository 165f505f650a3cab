import type { AppContext } from '../../kernel/context';
import { emitEvent } from '../../kernel/events/outbox';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import { identityService } from '../identity/service';
import { PlaybackService } from '../playback/service';
import { edgeOf } from './port';
import { walk, type WalkReport } from './prewarm-walk';
import { DistributionService } from './distributions';

/** `edge.purge`: evicts the keys the selector names now (counted in the job's result: keys, removed). */
async function purge(ctx: AppContext, job: JobRun<'edge.purge'>): Promise<void> {
  const cache = edgeOf(ctx).cache;
  if (!cache) { job.setResult({ keys: 0, removed: 0, edge: false }); return; }
  const keys = cache.select(job.tenantId, job.payload.selector);
  job.setResult({ ...(await cache.purge(keys)), edge: true });
}

/** The URLs a pre-warm starts from: a short-lived playback URL of the asset, clip or channel (what a viewer gets), or the URLs given. */
function startUrls(ctx: AppContext, job: JobRun<'edge.prewarm'>): string[] {
  const t = job.payload.target;
  if (t.urls) return t.urls.map((u) => new URL(u, 'http://edge.invalid').toString());
  const ten = identityService(ctx).tenant(job.tenantId);
  const spec = t.asset_id ? { asset: t.asset_id } : t.clip_id ? { clip: t.clip_id } : { channel: t.channel_id! };
  return [new PlaybackService(ctx).issue({ id: ten.id, slug: ten.slug }, spec, { ttl_s: 3600 }, 'api').src];
}

/** The Host a pre-warm sends for a URL: its host when it names one of the tenant's enabled CDN distributions. */
function distributionHosts(ctx: AppContext, tenantId: string): (u: URL) => string | null {
  const names = new Set(new DistributionService(ctx).list(tenantId).items.filter((d) => d.enabled).flatMap((d) => d.hostnames));
  return (u) => (names.has(u.hostname.toLowerCase()) ? u.hostname.toLowerCase() : null);
}

/**
 * `edge.prewarm`: walks the target through the edge (`walk`), reporting progress and the running tally in the job's
 * result, then emits `prewarm.finished` `{prewarm, status, urls, failed, hit, stored}` (also when it fails).
 */
async function prewarm(ctx: AppContext, job: JobRun<'edge.prewarm'>): Promise<void> {
  const finish = (status: 'succeeded' | 'failed', r: Partial<WalkReport>) =>
    emitEvent(ctx.db, job.tenantId, 'prewarm.finished', { prewarm: job.id, status, urls: r.fetched ?? 0, failed: r.failed ?? 0, hit: r.hit ?? 0, stored: r.stored ?? 0 });
  const base = edgeOf(ctx).base;
  if (!base) { finish('failed', {}); throw new PermanentJobError('no edge cache runs (the delivery front stopped)'); }
  const t = job.payload.target;
  let r: WalkReport;
  try {
    r = await walk(base, startUrls(ctx, job), {
      follow: !t.urls, lowest: t.renditions === 'lowest', signal: job.signal, hostOf: distributionHosts(ctx, job.tenantId),
      onProgress: (p) => { job.setResult({ ...p }); job.progress(Math.min(99, Math.floor((p.fetched / Math.max(1, p.known)) * 100))); },
    });
  } catch (e) {
    finish('failed', {});
    throw new PermanentJobError(`pre-warm failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  job.setResult({ ...r });
  job.progress(100);
  finish('succeeded', r);
}

/** The edge feature's job handlers. */
export const edgeJobHandlers: FeatureHandlers<'edge.purge' | 'edge.prewarm'> = { 'edge.purge': purge, 'edge.prewarm': prewarm };
