import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { deliveryPath } from '../playback/delivery-table';
import { assetEventData, lifecycleAsset, savePreview } from '../assets/lifecycle';
import type { AssetPreview } from '../assets/output';

/**
 * Publishes a playable preview (savePreview's rules) and, when it was stored, emits `asset.preview_ready` in the same
 * transaction with the preview's address, so the studio (through the event stream) and webhooks can start playback
 * the moment it exists instead of polling. Returns whether it was stored.
 */
export function publishPreview(ctx: AppContext, id: string, preview: AssetPreview, replace: boolean, source: 'remux' | 'quick-encode' | 'ladder'): boolean {
  return tx(ctx.db, () => {
    if (!savePreview(ctx.db, id, preview, replace)) return false;
    const a = lifecycleAsset(ctx.db, id);
    if (!a) return true;
    const hls = ctx.config.cdnBaseUrl + deliveryPath('vodFile', { tenant: a.tenant_id, asset: a.id, ver: 'preview', file: 'master.m3u8' });
    emitEvent(ctx.db, a.tenant_id, 'asset.preview_ready', { ...assetEventData(a), preview: { hls }, source });
    return true;
  });
}
