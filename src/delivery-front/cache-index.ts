import { cacheFileOf } from './edge-conf';
import { unlinkAll } from './purge-unlink';
import type { EdgeCache, PurgeSelector, PurgeOutcome } from '../features/edge/port';

/** One line of the front's fill log (`vs_fill` in edge-conf.ts): an answer nginx stored under key `k`. */
export interface FillLine { k: string; u: string; h: string; tag: string; ten: string; st: string; s: number }

/** What the index knows of one stored key. */
interface Entry { urls: Set<string>; tenant: string | null; tags: Set<string>; file: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Most URLs remembered per key (a recording segment is reached by live, catch-up and clip URLs alike). */
const URLS_PER_KEY = 16;

/** Pure: a request target without its `/t/<token>` prefix (the token is never stored), as the index keeps URLs. */
export function viewerPath(target: string): string {
  let t = target;
  const m = /^https?:\/\/[^/]+(\/.*)?$/i.exec(t);
  if (m) t = m[1] ?? '/';
  if (t.startsWith('/t/')) { const i = t.indexOf('/', 3); t = i < 0 ? '/' : t.slice(i); }
  return t;
}

/** Pure: the tags of a stored answer: its `Cache-Tag` values, plus `asset:<id>` / `clip:<id>` read from its key and URL. */
export function tagsOf(line: Pick<FillLine, 'k' | 'tag'>, url: string): string[] {
  const tags = line.tag ? line.tag.split(/[\s,]+/).filter((t) => t && t.length <= 256) : [];
  const file = /^f\|media\/[0-9a-f-]{36}\/assets\/([0-9a-f-]{36})\//.exec(line.k);
  if (file) tags.push(`asset:${file[1]}`);
  const clip = /^\/m\/clips\/([0-9a-f-]{36})\//.exec(url);
  if (clip) tags.push(`clip:${clip[1]}`);
  return tags;
}

/**
 * The tag index of the edge cache: every stored key with the URLs it was reached by (token removed), its tenant (from
 * the file's path, or the fill line) and its tags, filled from the front's fill log; and the purge: the selected keys'
 * files removed from the cache directory (nginx then finds no file for the key: the next request is a MISS and stores
 * it again). In memory: the cache directory is emptied at every start, so nothing stored outlives what is indexed.
 */
export class CacheIndex implements EdgeCache {
  private readonly keys = new Map<string, Entry>();
  private readonly byTag = new Map<string, Set<string>>();

  constructor(private readonly dir: string, private readonly flush: () => void = () => {}) {}

  /** Keys stored now. */
  size(): number { return this.keys.size; }

  /** Records fill log lines. */
  add(lines: FillLine[]): void {
    for (const l of lines) {
      if (typeof l.k !== 'string' || !l.k || typeof l.u !== 'string') continue;
      const url = viewerPath(l.u);
      let e = this.keys.get(l.k);
      if (!e) {
        const ten = /^f\|[a-z]+\/([0-9a-f-]{36})\//.exec(l.k)?.[1] ?? (UUID.test(l.ten) ? l.ten : null);
        e = { urls: new Set(), tenant: ten, tags: new Set(), file: cacheFileOf(this.dir, l.k) };
        this.keys.set(l.k, e);
      }
      if (e.urls.size < URLS_PER_KEY) e.urls.add(url);
      for (const t of tagsOf(l, url)) {
        if (e.tags.has(t)) continue;
        e.tags.add(t);
        let s = this.byTag.get(t);
        if (!s) this.byTag.set(t, (s = new Set()));
        s.add(l.k);
      }
    }
  }

  /** The keys a selector names for a tenant (see `PurgeSelector`); reads what the front logged up to now first. */
  select(tenant: string, sel: PurgeSelector): string[] {
    this.flush();
    const own = (k: string) => this.keys.get(k)?.tenant === tenant;
    const out = new Set<string>();
    const byTag = (t: string, anyTenant: boolean) => { for (const k of this.byTag.get(t) ?? []) if (anyTenant || own(k)) out.add(k); };
    if (sel.asset_id) byTag(`asset:${sel.asset_id}`, false);
    if (sel.clip_id) byTag(`clip:${sel.clip_id}`, false);
    // Answers whose tenant the front cannot tell (public app answers) are reached by exact URL or tag only.
    if (sel.tag) byTag(sel.tag, false);
    if (sel.urls || sel.prefix) {
      const urls = new Set((sel.urls ?? []).map(viewerPath));
      const prefix = sel.prefix ? viewerPath(sel.prefix) : null;
      for (const [k, e] of this.keys) {
        const mine = e.tenant === tenant;
        for (const u of e.urls) {
          if (urls.has(u) || urls.has(u.split('?')[0]!) ? (mine || e.tenant === null) : mine && prefix !== null && u.startsWith(prefix)) { out.add(k); break; }
        }
      }
    }
    return [...out];
  }

  /**
   * Forgets the keys and removes their cached files in one pass over the list (purge-unlink.ts: synchronous unlinks
   * in slices, no round trip per key); counts the files that were there.
   */
  async purge(keys: string[]): Promise<PurgeOutcome> {
    const files: string[] = [];
    for (const k of keys) {
      const e = this.keys.get(k);
      files.push(e?.file ?? cacheFileOf(this.dir, k));
      if (!e) continue;
      for (const t of e.tags) { const s = this.byTag.get(t); s?.delete(k); if (s && !s.size) this.byTag.delete(t); }
      this.keys.delete(k);
    }
    return { keys: keys.length, removed: await unlinkAll(files) };
  }
}
