/**
 * Fetching an import's documents through the safe fetcher (private addresses refused unless VS_PRIVATE_ALLOWLIST,
 * bounded size and time, gzip accepted) and following a sitemap index one level.
 */
import { gunzipSync } from 'node:zlib';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { FetchTooLargeError, safeFetch } from '../../kernel/net/safe-fetch';
import { badDocument, parseDocument, type FoundVideo } from './parse';

/** Largest document (also after gunzip): 50 MB, the sitemaps.org limit. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** Most child sitemaps followed from an index. */
export const MAX_CHILD_SITEMAPS = 50;
/** Most items one import holds; further videos are left out and the import says `truncated`. */
export const MAX_IMPORT_ITEMS = 50_000;
/** Deadline of one document, and of the whole reading. */
export const DOCUMENT_TIMEOUT_MS = 20_000, READ_TIMEOUT_MS = 120_000;

/** One document read for an import (answered in the import's `sources`). */
export interface SourceReport { url: string; kind: string; videos: number; pages_without_video: number; error?: string }

/** What reading an import's URL found. */
export interface ReadResult { format: 'sitemap' | 'sitemap_index' | 'media_rss'; videos: FoundVideo[]; sources: SourceReport[]; truncated: boolean }

/** Limits of one reading (tests shrink them). */
export interface ReadLimits { maxBytes: number; documentTimeoutMs: number; readTimeoutMs: number }

/** The defaults above. */
export const DEFAULT_READ_LIMITS: ReadLimits = { maxBytes: MAX_DOCUMENT_BYTES, documentTimeoutMs: DOCUMENT_TIMEOUT_MS, readTimeoutMs: READ_TIMEOUT_MS };

async function fetchText(ctx: AppContext, url: string, limits: ReadLimits, signal: AbortSignal): Promise<string> {
  const res = await safeFetch(url, { timeoutMs: limits.documentTimeoutMs, maxBytes: limits.maxBytes, maxRedirects: 5, allowlist: ctx.config.privateAllowlist, signal, headers: { accept: 'application/xml, text/xml, application/rss+xml, */*' } });
  if (res.status < 200 || res.status > 299) { await res.body?.cancel(); throw badDocument(url, `answered HTTP ${res.status}`); }
  let bytes = Buffer.from(await res.bytes());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try { bytes = gunzipSync(bytes, { maxOutputLength: limits.maxBytes }); } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new FetchTooLargeError(limits.maxBytes);
      throw badDocument(url, 'not a valid gzip file');
    }
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** How far a reading got: documents read of those known so far, videos found. */
export interface ReadProgress { documents_read: number; documents_total: number; videos: number }

/** Options of one reading: a caller's signal (a job's: shutdown, cancel) and a progress callback after each document. */
export interface ReadOptions { signal?: AbortSignal; onProgress?: (p: ReadProgress) => void }

/** Reads the sitemap, sitemap index or media RSS feed at `url` (see the file comment). Errors of the top document throw. */
export async function readImport(ctx: AppContext, url: string, limits: ReadLimits = DEFAULT_READ_LIMITS, o: ReadOptions = {}): Promise<ReadResult> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new AppError('not_ready', `reading the sitemaps took over ${limits.readTimeoutMs} ms`)), limits.readTimeoutMs);
  const outer = () => ac.abort(o.signal!.reason);
  if (o.signal?.aborted) outer(); else o.signal?.addEventListener('abort', outer, { once: true });
  const progress = (read: number, total: number, videos: number) => o.onProgress?.({ documents_read: read, documents_total: total, videos });
  try {
    progress(0, 1, 0);
    const top = await parseDocument(url, await fetchText(ctx, url, limits, ac.signal));
    if (top.kind !== 'index') {
      const videos = top.videos.slice(0, MAX_IMPORT_ITEMS);
      progress(1, 1, videos.length);
      return { format: top.kind === 'rss' ? 'media_rss' : 'sitemap', videos, truncated: top.videos.length > videos.length,
        sources: [{ url, kind: top.kind, videos: top.videos.length, pages_without_video: top.pagesWithoutVideo }] };
    }
    const sources: SourceReport[] = [{ url, kind: 'sitemapindex', videos: 0, pages_without_video: 0 }];
    const videos: FoundVideo[] = [];
    let truncated = top.sitemaps.length > MAX_CHILD_SITEMAPS;
    const children = top.sitemaps.slice(0, MAX_CHILD_SITEMAPS);
    let read = 1;
    progress(read, 1 + children.length, 0);
    for (const child of children) {
      try {
        const doc = await parseDocument(child, await fetchText(ctx, child, limits, ac.signal));
        if (doc.kind === 'index') { sources.push({ url: child, kind: 'sitemapindex', videos: 0, pages_without_video: 0, error: 'a sitemap index inside an index is not followed (one level only)' }); continue; }
        sources.push({ url: child, kind: doc.kind, videos: doc.videos.length, pages_without_video: doc.pagesWithoutVideo });
        for (const v of doc.videos) { if (videos.length < MAX_IMPORT_ITEMS) videos.push(v); else truncated = true; }
      } catch (e) {
        if (ac.signal.aborted) throw ac.signal.reason;
        sources.push({ url: child, kind: 'unknown', videos: 0, pages_without_video: 0, error: e instanceof AppError ? e.detail : String(e) });
      } finally {
        progress(++read, 1 + children.length, videos.length);
      }
    }
    return { format: 'sitemap_index', videos, sources, truncated };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', outer);
  }
}
