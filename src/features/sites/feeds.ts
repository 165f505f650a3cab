import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SitemapIndexStream, SitemapStream, streamToPromise, type SitemapItemLoose } from 'sitemap';
import { notFound } from '../../kernel/errors';
import { parseAssetOutput } from '../assets/output';
import { playbackFor } from '../assets/lifecycle';
import { offersCatchup } from './catalogue';
import { publishedShows, showEpisodes, siteItem, type Scope } from './items';
import { parse } from './service';
import { PODCAST_ART } from './images';

/** Crawlers that train AI models (blocked by `block_training` and `block`). */
const AI_TRAINING = ['GPTBot', 'Google-Extended', 'CCBot', 'anthropic-ai', 'ClaudeBot', 'Applebot-Extended', 'Bytespider', 'meta-externalagent', 'cohere-training-data-crawler'];
/** AI assistants and answer engines fetching pages for users (also blocked by `block`). */
const AI_ASSISTANTS = ['ChatGPT-User', 'OAI-SearchBot', 'Claude-User', 'Claude-SearchBot', 'PerplexityBot', 'Perplexity-User'];

/** The website's own address (sitemap locations, feed links): settings.seo.base_url, else https://<first verified domain>, else the appliance. */
export function siteBase(s: Pick<Scope, 'ctx' | 'site' | 'store'>): string {
  const seo = parse<{ seo?: { base_url?: string } }>(s.site.settings).seo;
  if (seo?.base_url) return seo.base_url.replace(/\/+$/, '');
  const d = s.store.domains(s.site.id).find((x) => x.verified_at);
  return d ? `https://${d.hostname}` : s.ctx.config.baseUrl;
}

const api = (s: Scope) => `${s.ctx.config.baseUrl}/s/v1/${s.site.slug}`;

/** robots.txt: every crawler may read the site; the AI crawler mode disallows training crawlers or every AI crawler. */
export function robots(s: Scope): string {
  const mode = parse<{ ai_crawler_mode?: string }>(s.site.settings).ai_crawler_mode ?? 'allow';
  const blocked = mode === 'block' ? [...AI_TRAINING, ...AI_ASSISTANTS] : mode === 'block_training' ? AI_TRAINING : [];
  const lines = blocked.map((a) => `User-agent: ${a}\nDisallow: /\n`);
  return `# AI crawler mode: ${mode}\n${lines.join('\n')}${lines.length ? '\n' : ''}User-agent: *\nAllow: /\n\nSitemap: ${api(s)}/sitemap/index.xml\n`;
}

/** The sitemap files served. */
export const SITEMAPS = ['index', 'pages', 'shows', 'videos', 'programmes'] as const;

/** One sitemap (npm `sitemap`): the index, published pages, shows, videos and catch-up programmes (video extension). */
export async function sitemap(s: Scope, name: string): Promise<string> {
  if (name === 'index') {
    const idx = new SitemapIndexStream();
    // Only sitemaps with at least one URL are listed (the protocol's urlset needs one).
    const full: string[] = [];
    for (const n of SITEMAPS.slice(1)) if ((await sitemapItems(s, n)).length) full.push(n);
    for (const n of full.length ? full : ['pages']) idx.write({ url: `${api(s)}/sitemap/${n}.xml` });
    idx.end();
    return (await streamToPromise(idx)).toString('utf8');
  }
  const items = await sitemapItems(s, name);
  if (!items.length) return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n';
  const sm = new SitemapStream({ xmlns: { news: false, video: name === 'videos', image: false, xhtml: false } });
  for (const it of items) sm.write(it);
  sm.end();
  return (await streamToPromise(sm)).toString('utf8');
}

/** The URLs of one urlset sitemap. */
async function sitemapItems(s: Scope, name: string): Promise<SitemapItemLoose[]> {
  const site = siteBase(s);
  const items: SitemapItemLoose[] = [];
  if (name === 'pages') {
    for (const p of s.store.pages(s.site.id)) {
      if (!p.live || !p.path || parse<{ seo?: { noindex?: boolean } }>(p.live).seo?.noindex) continue;
      items.push({ url: site + p.path, lastmod: new Date(p.updated_at).toISOString() });
    }
  } else if (name === 'shows') {
    for (const d of publishedShows(s)) items.push({ url: `${site}/show/${String(d.slug)}`, lastmod: new Date(Number(d._updated)).toISOString() });
  } else if (name === 'videos') {
    for (const v of s.cat.videos.slice(0, 50_000)) {
      items.push({
        url: `${site}/v/${v.id}`,
        video: [{
          thumbnail_loc: `${api(s)}/images/${v.id}/tile_16x9.webp`, title: v.title.slice(0, 100) || v.id, description: (v.description || v.title || v.id).slice(0, 2048),
          player_loc: `${site}/v/${v.id}`, ...(v.duration_s ? { duration: Math.max(1, Math.min(28_800, Math.round(v.duration_s))) } : {}),
          publication_date: new Date(v.published_at).toISOString(), tag: v.tags.slice(0, 32),
        }],
      });
    }
  } else if (name === 'programmes') {
    for (const p of s.cat.programmes) {
      if (!offersCatchup(p, s.cat.channelById.get(p.channel_id), s.now)) continue;
      items.push({ url: `${site}/p/${p.id}`, lastmod: new Date(p.end_ms).toISOString() });
      if (items.length >= 50_000) break;
    }
  } else throw notFound('sitemap');
  return items;
}

/** UUIDv5 (RFC 9562) of `name` in namespace `ns`. */
export function uuidV5(ns: string, name: string): string {
  const h = createHash('sha1').update(Buffer.from(ns.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Podcasting 2.0's namespace for `podcast:guid`. */
export const PODCAST_NS = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

const esc = (v: unknown) => String(v ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
  // Characters XML 1.0 cannot carry.
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/**
 * RSS 2.0 feed of a show's podcast (Apple's required tags and Podcasting 2.0 `podcast:guid`): episodes are the show's
 * public videos with a progressive MP4 (enclosure with its byte length); artwork is a 1400 px square JPEG.
 */
export function podcastFeed(s: Scope, slug: string): string {
  const d = siteItem(s, 'show', slug);
  const pod = d?.podcast as { enabled?: boolean; author?: string; owner_email?: string; category?: string; subcategory?: string; explicit?: boolean; language?: string } | undefined;
  if (!d || !pod?.enabled) throw notFound('podcast');
  const feedUrl = `${api(s)}/podcast/${slug}/feed.xml`;
  const site = siteBase(s);
  const eps = ((d.episodes as { assets?: string[] } | undefined)?.assets ?? []).map((id) => s.cat.videoById.get(id)).filter((v) => !!v);
  const artId = typeof d.image_asset_id === 'string' ? d.image_asset_id : eps[0]?.id;
  const items = eps.flatMap((v) => {
    const out = parseAssetOutput(v.output);
    const file = out?.files.download ? join(s.ctx.config.dataDir, out.dir, out.files.download) : null;
    let length = 0;
    try { length = file ? statSync(file).size : 0; } catch { length = 0; }
    if (!out || !length) return [];
    const url = playbackFor(s.ctx, { id: v.id, tenant_id: s.site.tenant_id, status: 'ready', output: v.output })?.download;
    if (!url) return [];
    return [`    <item>
      <title>${esc(v.title || v.id)}</title>
      <description>${esc(v.description || v.title)}</description>
      <link>${esc(`${site}/v/${v.id}`)}</link>
      <guid isPermaLink="false">${esc(v.id)}</guid>
      <pubDate>${new Date(v.published_at).toUTCString()}</pubDate>
      <enclosure url="${esc(url)}" length="${length}" type="video/mp4"/>
      ${v.duration_s ? `<itunes:duration>${Math.round(v.duration_s)}</itunes:duration>` : ''}
      <itunes:explicit>${pod.explicit ? 'true' : 'false'}</itunes:explicit>
    </item>`];
  });
  const cat = pod.category ?? 'News';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${esc(d.title)}</title>
    <link>${esc(`${site}/show/${slug}`)}</link>
    <description>${esc(d.description || d.title)}</description>
    <language>${esc(pod.language ?? parse<{ language?: string }>(s.site.settings).language ?? 'he')}</language>
    <atom:link href="${esc(feedUrl)}" rel="self" type="application/rss+xml"/>
    <podcast:guid>${uuidV5(PODCAST_NS, feedUrl.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, ''))}</podcast:guid>
    <itunes:author>${esc(pod.author ?? s.site.name)}</itunes:author>
    ${artId ? `<itunes:image href="${esc(`${api(s)}/images/${artId}/podcast.jpg`)}"/>` : ''}
    <itunes:category text="${esc(cat)}">${pod.subcategory ? `<itunes:category text="${esc(pod.subcategory)}"/>` : ''}</itunes:category>
    <itunes:explicit>${pod.explicit ? 'true' : 'false'}</itunes:explicit>
    ${pod.owner_email ? `<itunes:owner><itunes:name>${esc(pod.author ?? s.site.name)}</itunes:name><itunes:email>${esc(pod.owner_email)}</itunes:email></itunes:owner>` : ''}
    <itunes:type>episodic</itunes:type>
${items.join('\n')}
  </channel>
</rss>
`;
}

/** Artwork size (for docs/tests). */
export const PODCAST_ART_PX = PODCAST_ART;
