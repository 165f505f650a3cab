import { createHash } from 'node:crypto';

/**
 * The canonical form of a page URL: parsed and re-serialised (scheme and host lower-cased, default port and dot
 * segments dropped, percent-encoding normalised by WHATWG URL), without the fragment; null when it does not parse.
 */
export function canonicalUrl(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch { return null; }
}

/**
 * The `external_id` an imported asset gets: `sitemap:` and the first 40 hex digits of SHA-256 of the canonical page
 * URL (`#<n>` appended for the n-th extra video of one page, n >= 2). Page URLs hold characters external ids do
 * not allow, so the URL itself is kept in the asset's `metadata.import.page_url`.
 */
export function importExternalId(canonicalPage: string, videoIndex: number): string {
  const key = videoIndex === 0 ? canonicalPage : `${canonicalPage}#${videoIndex + 1}`;
  return `sitemap:${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}
