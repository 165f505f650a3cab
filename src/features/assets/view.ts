import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import type { AssetRow } from './store';
import { playbackFor } from './lifecycle';

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
  if (playback) v.playback = playback;
  return v as {
    id: string; external_id: string | null; title: string; status: string; ladder: string; publish: string; published: boolean;
    metadata: Record<string, unknown>; progress: number | null; duration_s: number | null; created_at: string; updated_at: string;
    error?: string; deleted_at?: string; playback?: Record<string, string>;
  };
}
