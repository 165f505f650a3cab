import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import type { AssetRow } from './store';
import { playbackFor } from './lifecycle';
import { identityService } from '../identity/service';
import { slotKey } from '../../kernel/slots';

/** Adds entries to a ready asset's playback block from its delivery URLs (e.g. subtitles' sidecar files). */
export type PlaybackExtra = (a: Pick<AssetRow, 'id' | 'tenant_id'>, playback: Record<string, string>) => Record<string, unknown>;
const EXTRAS = slotKey<PlaybackExtra[]>('assets.playbackExtras');

/** Lets another feature add to the playback block of the API's asset view (registered once per app). */
export function registerPlaybackExtra(ctx: Pick<AppContext, 'slots'>, fn: PlaybackExtra): void {
  const list = ctx.slots.get(EXTRAS, () => []);
  if (!list.includes(fn)) list.push(fn);
}

/** The hosted watch page and iframe page of a ready asset (public addresses on the player host). */
export function shareFor(ctx: AppContext, a: Pick<AssetRow, 'id' | 'tenant_id'>): { watch: string; embed: string; iframe: string } {
  const slug = identityService(ctx).tenant(a.tenant_id).slug;
  const path = `${encodeURIComponent(slug)}/vod/${encodeURIComponent(a.id)}`;
  const embed = `${ctx.config.playerUrl}/e/${path}`;
  const iframe = `<iframe src="${embed}" width="640" height="360" style="border:0;max-width:100%;aspect-ratio:16/9;height:auto" allow="autoplay; fullscreen; picture-in-picture; encrypted-media" allowfullscreen></iframe>`;
  return { watch: `${ctx.config.playerUrl}/w/${path}`, embed, iframe };
}

/** The API view of an asset row (`playback` only when ready and the media engine can describe it). */
export function assetView(ctx: AppContext, a: AssetRow) {
  let metadata: Record<string, unknown> = {};
  try { metadata = JSON.parse(a.metadata); } catch { /* stored by us as JSON */ }
  const v: Record<string, unknown> = {
    id: a.id,
    external_id: a.external_id,
    title: a.title,
    status: a.status,
    ladder: a.ladder ?? 'default',
    publish: a.publish_mode,
    published: a.published === 1,
    metadata,
    progress: a.progress,
    duration_s: a.duration_s,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
  };
  if (a.status === 'failed') v.error = a.error ?? 'processing failed';
  if (a.deleted_at !== null) v.deleted_at = iso(a.deleted_at);
  const playback = playbackFor(ctx, a);
  if (playback) {
    let extra: Record<string, unknown> = {};
    for (const fn of ctx.slots.get(EXTRAS, () => [])) extra = { ...extra, ...fn(a, playback) };
    v.playback = { ...playback, ...extra };
    v.share = shareFor(ctx, a);
  }
  return v as {
    id: string; external_id: string | null; title: string; status: string; ladder: string; publish: string; published: boolean;
    metadata: Record<string, unknown>; progress: number | null; duration_s: number | null; created_at: string; updated_at: string;
    error?: string; deleted_at?: string; playback?: Record<string, string> & { subtitles?: unknown[] }; share?: { watch: string; embed: string; iframe: string };
  };
}
