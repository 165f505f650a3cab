import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { AssetService } from '../assets/service';
import type { ProgrammeRow } from '../guide/store';

/** Live-to-VOD state of a programme as shown in catch-up (`vod`): null until published, then follows the asset. */
export function vodView(ctx: AppContext, p: ProgrammeRow) {
  if (!p.vod_status) return null;
  let status = p.vod_status, assetStatus: string | null = null, error = p.vod_error;
  if (p.vod_asset_id && status !== 'failed') {
    let a = null;
    try { a = new AssetService(ctx).get(p.tenant_id, p.vod_asset_id); } catch { /* trashed or purged */ }
    assetStatus = a?.status ?? 'deleted';
    status = a?.status === 'ready' ? 'published' : a?.status === 'failed' || !a ? 'failed' : 'publishing';
    if (a?.status === 'failed') error = a.error;
    if (!a) error = 'the library asset was deleted';
  }
  return { asset_id: p.vod_asset_id, status, trigger: p.vod_trigger ?? 'api', asset_status: assetStatus, ...(error ? { error } : {}), updated_at: p.vod_at ? iso(p.vod_at) : null };
}
