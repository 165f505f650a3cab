/**
 * Reading one fetched document: a sitemap (`urlset`, with Google's video extension), a sitemap index
 * (`sitemapindex`) or a media RSS feed (`rss` with `media:content` / video enclosures). Well-formedness and the root
 * element are checked by a real XML parser (saxes), sitemaps are read by the `sitemap` package's parsers, media RSS
 * by saxes events; never regular expressions.
 */
import { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { ErrorLevel, XMLToSitemapIndexStream, XMLToSitemapItemStream, type IndexItem, type SitemapItem } from 'sitemap';
import { AppError } from '../../kernel/errors';

/** Most URLs one sitemap file may list (sitemaps.org). */
export const MAX_URLS_PER_FILE = 50_000;

/** One video found in a document, before review. */
export interface FoundVideo {
  pageUrl: string;
  videoUrl: string;
  videoKind: 'content' | 'player';
  title: string;
  durationS: number | null;
  thumbnailUrl: string | null;
}

/** What one document holds. */
export type ParsedDocument =
  | { kind: 'urlset'; videos: FoundVideo[]; pagesWithoutVideo: number }
  | { kind: 'index'; sitemaps: string[] }
  | { kind: 'rss'; videos: FoundVideo[]; pagesWithoutVideo: number };

/** 422 naming the problem with the document at `url`. */
export function badDocument(url: string, detail: string): AppError {
  return new AppError('validation_error', `${url}: ${detail}`, { errors: [{ field: 'url', detail }] });
}

const ROOTS = new Set(['urlset', 'sitemapindex', 'rss']);

/**
 * Checks the text is well-formed XML and answers its root element's local name and how many elements its root holds
 * (the entries, counted here because the sitemap parsers stop at their own cap); 422 naming line and column otherwise.
 */
export function rootElement(url: string, text: string): { root: string; entries: number } {
  const p = new SaxesParser({ xmlns: true });
  let root: string | null = null;
  let failure: Error | null = null;
  let depth = 0, entries = 0;
  p.on('opentag', (t: SaxesTagNS) => { root ??= t.local; if (++depth === 2) entries++; });
  p.on('closetag', () => { depth--; });
  p.on('error', (e: Error) => { failure ??= e; });
  try { p.write(text).close(); } catch (e) { failure ??= e as Error; }
  if (failure) throw badDocument(url, `not well-formed XML (${(failure as Error).message.split('\n')[0]})`);
  if (!root) throw badDocument(url, 'no XML root element');
  if (!ROOTS.has(root)) throw badDocument(url, `root element <${root}> is not urlset, sitemapindex or rss`);
  return { root, entries };
}

function collect<T>(text: string, stream: NodeJS.ReadWriteStream): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const out: T[] = [];
    Readable.from([text]).pipe(stream).on('data', (x: T) => out.push(x)).on('end', () => resolve(out)).on('error', reject);
  });
}

function tooMany(url: string, n: number): AppError {
  return badDocument(url, `more than ${MAX_URLS_PER_FILE} URLs in one file (${n}); split it with a sitemap index`);
}

/** Parses one fetched document (see the file comment). */
export async function parseDocument(url: string, text: string): Promise<ParsedDocument> {
  const { root, entries } = rootElement(url, text);
  if (root !== 'rss' && entries > MAX_URLS_PER_FILE) throw tooMany(url, entries);
  if (root === 'sitemapindex') {
    const items = await collect<IndexItem>(text, new XMLToSitemapIndexStream({ level: ErrorLevel.SILENT, logger: false }));
    if (items.length > MAX_URLS_PER_FILE) throw tooMany(url, items.length);
    return { kind: 'index', sitemaps: items.map((i) => i.url).filter(Boolean) };
  }
  if (root === 'rss') return parseMediaRss(url, text);
  const items = await collect<SitemapItem>(text, new XMLToSitemapItemStream({ level: ErrorLevel.SILENT, logger: false }));
  if (items.length > MAX_URLS_PER_FILE) throw tooMany(url, items.length);
  const videos: FoundVideo[] = [];
  let without = 0;
  for (const it of items) {
    let found = 0;
    for (const v of it.video ?? []) {
      const videoUrl = v.content_loc || v.player_loc;
      if (!videoUrl || !it.url) continue;
      found++;
      videos.push({
        pageUrl: it.url, videoUrl, videoKind: v.content_loc ? 'content' : 'player', title: (v.title ?? '').trim(),
        durationS: typeof v.duration === 'number' && Number.isFinite(v.duration) ? v.duration : null, thumbnailUrl: v.thumbnail_loc || null,
      });
    }
    if (!found) without++;
  }
  return { kind: 'urlset', videos, pagesWithoutVideo: without };
}

/** Media RSS (`<item>` with `media:content url`, inside `media:group` too, or a video `<enclosure>`), read with saxes. */
function parseMediaRss(url: string, text: string): ParsedDocument {
  const MRSS = 'http://search.yahoo.com/mrss/';
  const p = new SaxesParser({ xmlns: true });
  const videos: FoundVideo[] = [];
  let without = 0, count = 0;
  let item: { title: string; link: string; video: string | null; duration: number | null; thumb: string | null } | null = null;
  let field: 'title' | 'link' | null = null;
  p.on('opentag', (t: SaxesTagNS) => {
    if (t.local === 'item' && !t.uri) { item = { title: '', link: '', video: null, duration: null, thumb: null }; count++; return; }
    if (!item) return;
    const attr = (n: string) => t.attributes[n]?.value;
    if (!t.uri && (t.local === 'title' || t.local === 'link')) field = t.local;
    else if (t.uri === MRSS && t.local === 'content' && !item.video) {
      const medium = attr('medium'), type = attr('type') ?? '';
      if (attr('url') && (medium === 'video' || type.startsWith('video/') || (!medium && !type))) {
        item.video = attr('url')!;
        const d = Number(attr('duration'));
        if (attr('duration') !== undefined && Number.isFinite(d)) item.duration = d;
      }
    } else if (t.uri === MRSS && t.local === 'thumbnail' && !item.thumb && attr('url')) item.thumb = attr('url')!;
    else if (!t.uri && t.local === 'enclosure' && !item.video && (attr('type') ?? '').startsWith('video/') && attr('url')) item.video = attr('url')!;
  });
  p.on('text', (s: string) => { if (item && field) item[field] += s; });
  p.on('cdata', (s: string) => { if (item && field) item[field] += s; });
  p.on('closetag', (t: SaxesTagNS) => {
    if (!t.uri && (t.local === 'title' || t.local === 'link')) field = null;
    if (t.local === 'item' && !t.uri && item) {
      const it: { title: string; link: string; video: string | null; duration: number | null; thumb: string | null } = item;
      if (it.video) videos.push({ pageUrl: it.link.trim() || it.video, videoUrl: it.video, videoKind: 'content', title: it.title.trim(), durationS: it.duration, thumbnailUrl: it.thumb });
      else without++;
      item = null;
    }
  });
  try { p.write(text).close(); } catch (e) { throw badDocument(url, `not well-formed XML (${(e as Error).message.split('\n')[0]})`); }
  if (count > MAX_URLS_PER_FILE) throw tooMany(url, count);
  return { kind: 'rss', videos, pagesWithoutVideo: without };
}
