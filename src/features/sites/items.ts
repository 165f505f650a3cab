import { publishedArticleOf } from '../articles/public';
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { deliveryPath } from '../playback/delivery-table';
import { playbackFor } from '../assets/lifecycle';
import { catalogue, offersCatchup, offersStartOver, type Catalogue, type ProgRec, type VideoRec } from './catalogue';
import { parse } from './service';
import type { SiteRow, SiteStore } from './store';
import type { ItemType } from './model';

/** WebP image sizes of an item (the seed's keys). */
export const IMAGE_SIZES: Record<string, [number, number]> = {
  tile_16x9: [640, 360], tile_16x9_320: [320, 180], tile_1x1: [600, 600], tile_2x3: [400, 600], poster: [1280, 720], hero_16x9: [1920, 1080],
};

/** Everything one public read needs: the site, its tenant slug, the catalogue snapshot, the time and the base URL. */
export interface Scope { ctx: AppContext; site: SiteRow; tenantSlug: string; cat: Catalogue; now: number; store: SiteStore }

/** Builds a read scope for a site. */
export function scopeOf(ctx: AppContext, site: SiteRow, tenantSlug: string, store: SiteStore): Scope {
  return { ctx, site, tenantSlug, cat: catalogue(ctx, site.tenant_id), now: ctx.clock.now(), store };
}

const base = (s: Scope) => `${s.ctx.config.baseUrl}/s/v1/${s.site.slug}`;

/** WebP image URLs of an asset's poster, every size (made on first request, then cached). */
export function assetImages(s: Scope, assetId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(IMAGE_SIZES)) out[k] = `${base(s)}/images/${assetId}/${k}.webp`;
  return out;
}

type Json = Record<string, unknown>;

/** A published show or person of the site (by slug), or null. */
export function siteItem(s: Scope, kind: 'show' | 'person', slug: string): Json | null {
  const r = s.store.item(s.site.id, kind, slug);
  if (!r || r.slug !== slug) return null;
  const d = parse(r.data);
  return d.published ? { ...d, slug: r.slug, _updated: r.updated_at } : null;
}

/** Published shows of the site. */
export function publishedShows(s: Scope): Json[] {
  return s.store.items(s.site.id, 'show').map((r): Json => ({ ...parse(r.data), slug: r.slug, _updated: r.updated_at })).filter((d) => d.published);
}

/** A video as a list item. */
export function videoItem(s: Scope, v: VideoRec): Json {
  return { type: 'video', slug: v.id, title: v.title, description: v.description, url: `/v/${v.id}`, duration_s: v.duration_s, published_at: iso(v.published_at), images: v.poster ? assetImages(s, v.id) : {} };
}

/** A programme as a list item (catch-up and start-over flags). */
export function programmeItem(s: Scope, p: ProgRec): Json {
  const ch = s.cat.channelById.get(p.channel_id);
  const imgs = parse<Record<string, string>>(p.images);
  return {
    type: 'programme', slug: p.id, title: p.title, description: p.description ?? '', series: p.series, episode: p.episode, url: `/p/${p.id}`,
    channel: ch?.slug ?? null, start_at: iso(p.start_ms), end_at: iso(p.end_ms), catchup: offersCatchup(p, ch, s.now),
    images: Object.fromEntries(Object.entries(imgs).filter(([k, v]) => (k in IMAGE_SIZES || k === 'title_art') && typeof v === 'string')),
  };
}

/** A show as a list item. */
export function showItem(s: Scope, d: Json): Json {
  return { type: 'show', slug: d.slug, title: d.title, description: d.description ?? '', url: `/show/${String(d.slug)}`, images: typeof d.image_asset_id === 'string' && s.cat.videoById.has(d.image_asset_id) ? assetImages(s, d.image_asset_id) : {} };
}

/** A list item of any type by slug, or null when it is not public. */
export function itemOf(s: Scope, type: ItemType, slug: string): Json | null {
  switch (type) {
    case 'video': { const v = s.cat.videoById.get(slug); return v ? videoItem(s, v) : null; }
    case 'programme': { const p = s.cat.progById.get(slug); return p && !p.excluded ? programmeItem(s, p) : null; }
    case 'channel': { const c = s.cat.channelBySlug.get(slug); return c && channelAllowed(s, c.slug) ? { type: 'channel', slug: c.slug, title: c.name, url: `/live/${c.slug}`, images: {} } : null; }
    case 'clip': {
      const c = s.cat.clipById.get(slug);
      return c ? { type: 'clip', slug: c.id, title: c.title ?? '', url: `/c/${c.id}`, start_at: iso(c.start_ms), end_at: iso(c.end_ms), duration_s: Math.round((c.end_ms - c.start_ms) / 1000), images: {} } : null;
    }
    case 'show': { const d = siteItem(s, 'show', slug); return d ? showItem(s, d) : null; }
    case 'person': { const d = siteItem(s, 'person', slug); return d ? { type: 'person', slug, title: d.name, role: d.role ?? null, url: `/person/${slug}`, images: typeof d.image_asset_id === 'string' && s.cat.videoById.has(d.image_asset_id) ? assetImages(s, d.image_asset_id) : {} } : null; }
  }
}

/** True when the site shows this channel (its guide settings list it, or list none). */
export function channelAllowed(s: Scope, slug: string): boolean {
  const list = parse<{ guide?: { channels?: string[] } }>(s.site.settings).guide?.channels;
  return !list || list.includes(slug);
}

/** The episodes of a show: its assets (public ones) and the catch-up programmes of its series, newest first. */
export function showEpisodes(s: Scope, d: Json): Json[] {
  const ep = (d.episodes ?? {}) as { assets?: string[]; series?: string; channel?: string };
  const vids = (ep.assets ?? []).map((id) => s.cat.videoById.get(id)).filter((v): v is VideoRec => !!v).map((v) => videoItem(s, v));
  const progs = ep.series ? s.cat.programmes.filter((p) => p.series === ep.series && (!ep.channel || s.cat.channelById.get(p.channel_id)?.slug === ep.channel)
    && offersCatchup(p, s.cat.channelById.get(p.channel_id), s.now)).map((p) => programmeItem(s, p)) : [];
  return [...vids, ...progs];
}

/** A programme's article once an editor published it (never a draft or a rejected one), else null. */
function articleOf(s: Scope, programmeId: string): Json | null {
  const a = publishedArticleOf(s.ctx, s.site.tenant_id, programmeId);
  return a && { id: a.id, language: a.language, published_at: a.published_at, ...a.body };
}

/** Playback of a channel now (`live`). */
function livePlayback(s: Scope, slug: string): Json {
  return { mode: 'live', src: s.ctx.config.cdnBaseUrl + deliveryPath('liveMaster', { tenant: s.tenantSlug, channel: slug }), tenant: s.tenantSlug, channel: slug, kind: 'live' };
}

/** One public entity with `playback`, channel `now`/`next`, series and people; null when not public. */
export function entity(s: Scope, type: ItemType, slug: string): Json | null {
  const item = itemOf(s, type, slug);
  if (!item) return null;
  if (type === 'video') {
    const v = s.cat.videoById.get(slug)!;
    const pb = playbackFor(s.ctx, { id: v.id, tenant_id: s.site.tenant_id, status: 'ready', output: v.output });
    const shows = publishedShows(s).filter((d) => ((d.episodes as { assets?: string[] } | undefined)?.assets ?? []).includes(v.id));
    return { ...item, tags: v.tags, playback: pb ? { mode: 'vod', src: pb.hls, tenant: s.tenantSlug, kind: 'vod' } : null, series: shows.map((d) => showItem(s, d)), people: [], article: v.programme_id ? articleOf(s, v.programme_id) : null };
  }
  if (type === 'programme') {
    const p = s.cat.progById.get(slug)!;
    const ch = s.cat.channelById.get(p.channel_id)!;
    const so = offersStartOver(s.ctx, p, ch, s.now);
    const cu = offersCatchup(p, ch, s.now);
    const ps = p.play_start_ms ?? p.start_ms, pe = p.play_end_ms ?? p.end_ms;
    const playback = cu ? { mode: 'catchup', src: s.ctx.config.cdnBaseUrl + deliveryPath('catchupMaster', { slug: ch.slug, s: ps, e: pe }, s.tenantSlug), tenant: s.tenantSlug, channel: ch.slug, kind: 'catchup' }
      : so ? { mode: 'startover', src: s.ctx.config.cdnBaseUrl + deliveryPath('startoverMaster', { slug: ch.slug, pid: p.id }, s.tenantSlug), tenant: s.tenantSlug, channel: ch.slug, kind: 'live' } : null;
    const shows = publishedShows(s).filter((d) => p.series && (d.episodes as { series?: string } | undefined)?.series === p.series);
    return { ...item, start_over: so, playback, series: shows.map((d) => showItem(s, d)), people: [], article: articleOf(s, p.id) };
  }
  if (type === 'channel') {
    const ch = s.cat.channelBySlug.get(slug)!;
    const progs = s.cat.programmes.filter((p) => p.channel_id === ch.id && p.end_ms > s.now).sort((a, b) => a.start_ms - b.start_ms);
    const now = progs.find((p) => p.start_ms <= s.now) ?? null;
    const next = progs.find((p) => p.start_ms > s.now) ?? null;
    return { ...item, playback: livePlayback(s, slug), now: now && programmeItem(s, now), next: next && programmeItem(s, next) };
  }
  if (type === 'clip') {
    return { ...item, playback: { mode: 'vod', src: s.ctx.config.cdnBaseUrl + deliveryPath('clipMaster', { id: slug }, s.tenantSlug), tenant: s.tenantSlug, kind: 'clip' } };
  }
  if (type === 'show') {
    const d = siteItem(s, 'show', slug)!;
    const people = ((d.people as string[] | undefined) ?? []).map((p) => itemOf(s, 'person', p)).filter(Boolean);
    const pod = d.podcast as { enabled?: boolean } | undefined;
    return { ...item, kind: d.kind ?? 'series', episodes: showEpisodes(s, d), people, podcast: pod?.enabled ? { feed_url: `${base(s)}/podcast/${slug}/feed.xml` } : null };
  }
  const d = siteItem(s, 'person', slug)!;
  const shows = publishedShows(s).filter((x) => ((x.people as string[] | undefined) ?? []).includes(slug));
  return { ...item, bio: d.bio ?? '', shows: shows.map((x) => showItem(s, x)) };
}
