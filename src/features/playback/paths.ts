import type { TargetKind } from './token';

/** A delivery request's target as read from its path: whose, what kind, which one, and for archives the range. */
export interface PathTarget {
  /** Tenant as named in the path or `c=` query: a slug or an id. */
  tenant: string | null;
  kind: TargetKind;
  /** Asset id, channel slug, clip id; for catch-up and start-over the channel slug. */
  id: string;
  /** Catch-up range in epoch ms (archive paths). */
  from?: number;
  to?: number;
  /** Start-over programme id. */
  programme?: string;
  /** VOD: the request is for the AES-128 view (`.../aes/...`). */
  encrypted?: boolean;
  /** VOD: the file name requested. */
  file?: string;
}

const SEG = '([A-Za-z0-9._~-]+)';
const PATTERNS: { re: RegExp; make: (m: RegExpExecArray, q: URLSearchParams) => PathTarget | null }[] = [
  // Live: /live/<tenant>/<channel_slug>/<file> ; Flussonic-style archives under the channel path.
  { re: new RegExp(`^/live/${SEG}/${SEG}/archive-(\\d{9,11})-(\\d{1,6})\\.m3u8$`), make: (m) => ({ tenant: m[1], kind: 'catchup', id: m[2], from: Number(m[3]) * 1000, to: (Number(m[3]) + Number(m[4])) * 1000 }) },
  { re: new RegExp(`^/live/${SEG}/${SEG}/`), make: (m) => ({ tenant: m[1], kind: 'channel', id: m[2] }) },
  // Catch-up: /m/catchup/<channel_slug>/<start_ms>/<end_ms>/<file>?c=<tenant>
  { re: new RegExp(`^/m/catchup/${SEG}/(\\d{10,14})/(\\d{10,14}|live)/`), make: (m, q) => ({ tenant: q.get('c'), kind: 'catchup', id: m[1], from: Number(m[2]), to: m[3] === 'live' ? undefined : Number(m[3]) }) },
  // Start-over: /m/startover/<channel_slug>/<programme_id>/<file>?c=<tenant>
  { re: new RegExp(`^/m/startover/${SEG}/${SEG}/`), make: (m, q) => ({ tenant: q.get('c'), kind: 'startover', id: m[1], programme: m[2] }) },
  // Clips: /m/clips/<clip_id>/<file>?c=<tenant>
  { re: new RegExp(`^/m/clips/${SEG}/`), make: (m, q) => ({ tenant: q.get('c'), kind: 'clip', id: m[1] }) },
  // VOD assets: /m/<tenant>/assets/<asset_id>/<file>
  { re: new RegExp(`^/m/${SEG}/assets/${SEG}/(?:${SEG}/)?(aes/)?([^/]*)$`), make: (m) => ({ tenant: m[1], kind: 'asset', id: m[2], encrypted: !!m[4], file: m[5] }) },
  { re: new RegExp(`^/m/${SEG}/assets/${SEG}/`), make: (m) => ({ tenant: m[1], kind: 'asset', id: m[2] }) },
  // VOD assets (alternate): /m/assets/<asset_id>/<file>?c=<tenant>
  { re: new RegExp(`^/m/assets/${SEG}/`), make: (m, q) => ({ tenant: q.get('c'), kind: 'asset', id: m[1] }) },
];

/** True for paths the delivery gate guards (media and live playback). */
export function isDeliveryPath(path: string): boolean {
  return path.startsWith('/m/') || path.startsWith('/live/');
}

/** Reads the target of a delivery path (already stripped of any /t/<token> prefix); null when it is none. */
export function classifyPath(path: string, query: URLSearchParams): PathTarget | null {
  for (const p of PATTERNS) {
    const m = p.re.exec(path);
    if (m) return p.make(m, query);
  }
  return null;
}
