/**
 * Where a programme is seen, for `artifact.published` and its JSON-LD: the page (`url`), the video's name,
 * thumbnails, upload date and addresses. The page is the programme's page on the public site when the sites feature
 * answers one; otherwise the hosted watch page of the programme's library video (publish-vod), else the channel's
 * hosted watch page. Content: the library video's MP4, else the programme's catch-up HLS. Thumbnails: the library video's poster, then the programme's guide images.
 */
import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import { AssetService } from '../assets/service';
import { assetView } from '../assets/view';
import { channelById } from '../channels/service';
import type { ProgrammeRow } from '../guide/store';
import { identityService } from '../identity/service';
import { deliveryPath } from '../playback/delivery-table';
import { playWindow } from './transcript';

/** The programme's public page and video facts. */
export interface ProgrammePage {
  url: string;
  organisation: { name: string; url: string };
  video: { name: string; description: string; thumbnailUrl: string[]; uploadDate: string; durationS: number; contentUrl: string | null; embedUrl: string | null; hls: string | null };
}

/** A public-site page finder (the sites feature's `programmeUrl`), null without a site. */
export type SitePageFinder = (tenantId: string, programmeId: string) => string | null;

/** The page and video facts of a programme (see the file comment). */
export function programmePage(ctx: AppContext, p: ProgrammeRow, sitePage?: SitePageFinder): ProgrammePage {
  const tenant = identityService(ctx).tenant(p.tenant_id);
  const { from, to } = playWindow(p);
  const images = JSON.parse(p.images || '{}') as Record<string, string>;
  const guideImages = ['tile_16x9', 'hero_16x9', 'poster', 'tile_1x1', 'tile_16x9_320'].map((k) => images[k]).filter((x): x is string => !!x);
  let asset: ReturnType<typeof assetView> | null = null;
  if (p.vod_asset_id) {
    try { asset = assetView(ctx, new AssetService(ctx).get(p.tenant_id, p.vod_asset_id)); } catch { asset = null; }
  }
  const share = asset && 'share' in asset ? (asset as { share?: { watch: string; embed: string } }).share ?? null : null;
  const playback = asset?.playback as { hls?: string; poster?: string | null; download?: string | null } | undefined;
  const ch = channelById(ctx, p.tenant_id, p.channel_id);
  const live = `${ctx.config.playerUrl}/w/${encodeURIComponent(tenant.slug)}/live/${encodeURIComponent(ch?.slug ?? p.channel_id)}`;
  const catchup = ch ? ctx.config.cdnBaseUrl + deliveryPath('catchupMaster', { slug: ch.slug, s: from, e: to }, tenant.slug) : null;
  const url = sitePage?.(p.tenant_id, p.id) ?? share?.watch ?? live;
  return {
    url,
    organisation: { name: tenant.name, url: ctx.config.baseUrl },
    video: {
      name: p.title, description: p.description ?? '', uploadDate: iso(to), durationS: Math.round((to - from) / 1000),
      thumbnailUrl: [...(playback?.poster ? [playback.poster] : []), ...guideImages],
      // Without a library video the programme's content is its catch-up range (what the review page plays too).
      contentUrl: playback?.download ?? catchup, embedUrl: share?.embed ?? null, hls: playback?.hls ?? catchup,
    },
  };
}
