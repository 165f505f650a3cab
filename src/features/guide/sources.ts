/**
 * EPG sources (issue 48): a channel's XMLTV URL fetched every `interval_s` through the safe fetcher with a conditional
 * GET (the last ETag and Last-Modified). A document whose bytes changed is read like an import (overlaps resolved, the
 * covered range replaced) and staged as a draft for review, or, with `auto_publish`, published at once as a version
 * (kind `source`; deliveries follow). Every fetch is logged: `not_modified` (304), `unchanged` (same bytes), `staged`,
 * `published` or `error` (bad XML, HTTP status, address refused, lock window) with the reason.
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { BlockedAddressError, safeFetch } from '../../kernel/net/safe-fetch';
import { slotKey } from '../../kernel/slots';
import { channelById } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { MAX_XMLTV_BYTES } from './import';
import { applyOp, checkLock, resolveOverlaps, type GuideOp } from './ops';
import { GuideService } from './service';
import { SourceStore, type FetchLogRow, type SourceRow } from './sources-store';
import { recordVersion } from './versions';
import { parseXmltv, xmltvToFields, XmltvError } from './xmltv';

/** The API view of one logged fetch. */
export function fetchView(r: Omit<FetchLogRow, 'seq' | 'source_id'>) {
  return { at: iso(r.at), trigger: r.trigger, status: r.status, http_status: r.http_status, items: r.items, changed: !!r.changed, version: r.version, error: r.error, ms: r.ms };
}

/** The API view of a source. */
export function sourceView(s: SourceRow) {
  return {
    id: s.id, channel_id: s.channel_id, url: s.url, xmltv_channel: s.xmltv_channel, interval_s: s.interval_s, auto_publish: !!s.auto_publish, enabled: !!s.enabled,
    etag: s.etag, last_modified: s.last_modified, next_fetch_at: iso(s.next_fetch_at), last_fetch_at: s.last_fetch_at === null ? null : iso(s.last_fetch_at),
    last_status: s.last_status, last_error: s.last_error, created_at: iso(s.created_at), updated_at: iso(s.updated_at),
  };
}

type Outcome = Omit<FetchLogRow, 'seq' | 'source_id' | 'at' | 'trigger' | 'ms'> & { etag?: string | null; last_modified?: string | null; hash?: string };

/** A fetch's failure as a log outcome. */
const failed = (error: string, http_status: number | null = null): Outcome => ({ status: 'error', http_status, items: 0, changed: 0, outcome: null, version: null, error: error.slice(0, 1000) });

/** Picks the XMLTV channel: the one named, else the document's only one, else the one named like the channel's slug. */
function pick(channels: string[], named: string | null, ch: ChannelRow): string {
  if (named) { if (!channels.includes(named)) throw new XmltvError(`no channel "${named}" in the document`); return named; }
  if (channels.length === 1) return channels[0];
  if (channels.includes(ch.slug)) return ch.slug;
  throw new XmltvError(`the document lists ${channels.length} channels (${channels.slice(0, 10).join(', ')}); name one as xmltv_channel`);
}

/** Reads a changed document into the guide: staged as one draft, or published as a version with `auto_publish`. */
function apply(ctx: AppContext, s: SourceRow, ch: ChannelRow, text: string, http: number): Outcome {
  let doc;
  const keep = s.xmltv_channel ? (c: string) => c === s.xmltv_channel : undefined;
  try { doc = parseXmltv(text, { keep }); } catch (e) {
    if (e instanceof XmltvError) return failed(`bad XML: ${e.message}`, http);
    throw e;
  }
  let name: string;
  try { name = pick(doc.channels, s.xmltv_channel, ch); } catch (e) { return failed((e as Error).message, http); }
  const { items } = resolveOverlaps(xmltvToFields(doc.programmes, name));
  if (!items.length) return failed(`the document has no programmes for channel "${name}"`, http);
  const programmes = items.map((p) => ({ ...p, id: newId(), source: 'source' }));
  const op: GuideOp = { op: 'replace', kind: 'import', from: programmes[0].start_ms, to: Math.max(...programmes.map((p) => p.end_ms)), programmes };
  const guide = new GuideService(ctx);
  const now = ctx.clock.now();
  try {
    return tx(ctx.db, () => {
      if (!s.auto_publish) {
        guide.store.addDraft(newId(), ch.tenant_id, ch.id, JSON.stringify(op), now);
        return { status: 'staged', http_status: http, items: programmes.length, changed: 1, outcome: 'draft', version: null, error: null };
      }
      checkLock(op, guide.store, guide.settings(ch).lock_hours, now);
      const { changes } = applyOp(guide.store, ch.tenant_id, ch.id, op, now);
      const version = recordVersion(ctx, guide.store, ch, 'source', changes, now, `EPG source ${s.id}`);
      return { status: 'published', http_status: http, items: programmes.length, changed: 1, outcome: 'published', version, error: null };
    });
  } catch (e) {
    if (e instanceof AppError) return failed(e.message, http);
    throw e;
  }
}

const RUNNING = slotKey<Set<string>>('guide.sources.running');

/** "Fetch now": 409 while the scheduler (or another caller) is fetching the same source, else fetchSource. */
export async function fetchSourceNow(ctx: AppContext, s: SourceRow) {
  const running = ctx.slots.get(RUNNING, () => new Set<string>());
  if (running.has(s.id)) throw new AppError('conflict', 'this source is being fetched right now; try again in a moment');
  running.add(s.id);
  try { return await fetchSource(ctx, s, 'manual'); } finally { running.delete(s.id); }
}

/** Fetches one source now (conditional GET), applies what changed, logs and reschedules it. Returns the log entry. */
export async function fetchSource(ctx: AppContext, s: SourceRow, trigger: 'schedule' | 'manual') {
  const t0 = performance.now();
  const store = new SourceStore(ctx.db);
  const ch = channelById(ctx, s.tenant_id, s.channel_id);
  let o: Outcome;
  if (!ch) o = failed('the channel no longer exists');
  else {
    const headers: Record<string, string> = { accept: 'application/xml, text/xml;q=0.9, */*;q=0.5' };
    if (s.etag) headers['if-none-match'] = s.etag;
    if (s.last_modified) headers['if-modified-since'] = s.last_modified;
    try {
      const res = await safeFetch(s.url, { headers, timeoutMs: 30_000, maxBytes: MAX_XMLTV_BYTES, maxRedirects: 3, allowlist: ctx.config.privateAllowlist });
      const meta = { etag: res.headers.get('etag'), last_modified: res.headers.get('last-modified') };
      if (res.status === 304) { await res.body?.cancel(); o = { status: 'not_modified', http_status: 304, items: 0, changed: 0, outcome: null, version: null, error: null }; }
      else if (res.status !== 200) { await res.body?.cancel(); o = failed(`the EPG source answered HTTP ${res.status}`, res.status); }
      else {
        const bytes = await res.bytes();
        const hash = createHash('sha256').update(bytes).digest('hex');
        if (hash === s.content_hash) o = { status: 'unchanged', http_status: 200, items: 0, changed: 0, outcome: null, version: null, error: null, ...meta };
        else {
          o = apply(ctx, s, ch, new TextDecoder().decode(bytes), 200);
          // A document that could not be read keeps the old validators: the next fetch reads it again instead of a 304.
          if (o.status !== 'error') Object.assign(o, meta, { hash });
        }
      }
    } catch (e) {
      if (e instanceof BlockedAddressError) o = failed(`refused address: ${e.detail}`);
      else if (e instanceof AppError) o = failed(e.message);
      else o = failed(`fetch failed: ${String((e as Error)?.message ?? e)}`);
    }
  }
  const now = ctx.clock.now(), ms = Math.round(performance.now() - t0);
  const entry = { at: now, trigger, status: o.status, http_status: o.http_status, items: o.items, changed: o.changed, outcome: o.outcome, version: o.version, error: o.error, ms };
  tx(ctx.db, () => {
    store.log({ source_id: s.id, ...entry });
    store.update(s.id, {
      last_fetch_at: now, last_status: o.status, last_error: o.error, next_fetch_at: now + s.interval_s * 1000,
      ...(o.etag !== undefined ? { etag: o.etag } : {}), ...(o.last_modified !== undefined ? { last_modified: o.last_modified } : {}), ...(o.hash ? { content_hash: o.hash } : {}),
    });
  });
  return fetchView(entry);
}


/** Fetches every due source (at most `limit` at once); returns how many were started. The scheduler's tick. */
export async function fetchDueSources(ctx: AppContext, now = ctx.clock.now(), limit = 4): Promise<number> {
  const running = ctx.slots.get(RUNNING, () => new Set<string>());
  const store = new SourceStore(ctx.db);
  const due = store.due(now, limit).filter((s) => !running.has(s.id)).slice(0, Math.max(0, limit - running.size));
  await Promise.all(due.map(async (s) => {
    running.add(s.id);
    try { await fetchSource(ctx, s, 'schedule'); } catch (e) { ctx.log.warn('EPG source fetch failed', { source: s.id, error: String(e) }); } finally { running.delete(s.id); }
  }));
  return due.length;
}

/** Starts the EPG source scheduler (every `everyMs`); stops on shutdown. */
export function startGuideSources(ctx: AppContext, everyMs = 5_000): void {
  const timer = setInterval(() => { void fetchDueSources(ctx); }, everyMs);
  ctx.onStop(() => clearInterval(timer));
}
