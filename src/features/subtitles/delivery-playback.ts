import type { AppContext } from '../../kernel/context';
import { registerPlaybackExtra } from '../assets/view';
import { sidecarName } from './delivery';
import { SubtitleDeliveryStore } from './delivery-store';

/**
 * Adds `subtitles` to a ready asset's playback block: each published, ready track as its sidecar WebVTT file beside
 * the HLS master (`.../v<N>/subs_<track>.vtt`, served by the same gate as the media), in track order.
 */
export function registerSubtitleSidecars(ctx: AppContext): void {
  const store = new SubtitleDeliveryStore(ctx.db);
  registerPlaybackExtra(ctx, (a, pb) => ({
    subtitles: pb.hls ? store.assetTracks(a.tenant_id, a.id).map((t) => ({ id: t.id, language: t.language, kind: t.kind, label: t.label, url: pb.hls.replace(/[^/]*$/, sidecarName(t.id)) })) : [],
  }));
}
