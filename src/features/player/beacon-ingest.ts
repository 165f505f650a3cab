import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { AppContext } from '../../kernel/context';
import { AppError, type FieldError } from '../../kernel/errors';
import { BeaconSchema, BEACON_LIMITS, type BeaconBody } from './beacon-model';
import { BEACON_MOVE, BEACON_STAGE_DDL, type StageRow } from './beacon-stage';
import { realtimeTracker } from '../stats/realtime';
import { beaconCounts } from '../stats/beacon-counts';
import { BeaconBinder, type SessionRecord } from './beacon-binding';

/** Columns of the raw player event table, in append order (shared with the statistics feature's table). */
export const EVENT_COLUMNS = [
  'ts', 'received', 'tenant_id', 'sid', 'viewer_id', 'page_host', 'page_url', 'kind', 'content_id', 'channel', 'live', 'e', 'pos', 'buf',
  'startup_ms', 'dur_ms', 'level', 'pathway', 'error', 'ip_hash', 'country', 'asn', 'device', 'user_agent', 'referrer', 'data',
] as const;

/** DDL of the raw event table (idempotent; the statistics feature creates the same table). */
export const PLAYER_EVENTS_DDL = `CREATE TABLE IF NOT EXISTS player_events (
    ts BIGINT NOT NULL, received BIGINT NOT NULL, tenant_id VARCHAR NOT NULL, sid VARCHAR NOT NULL, viewer_id VARCHAR,
    page_host VARCHAR, page_url VARCHAR, kind VARCHAR, content_id VARCHAR, channel VARCHAR, live BOOLEAN, e VARCHAR NOT NULL,
    pos DOUBLE, buf DOUBLE, startup_ms DOUBLE, dur_ms DOUBLE, level VARCHAR, pathway VARCHAR, error VARCHAR,
    ip_hash VARCHAR, country VARCHAR, asn INTEGER, device VARCHAR, user_agent VARCHAR, referrer VARCHAR, data VARCHAR)`;

const check = TypeCompiler.Compile(BeaconSchema);
const KNOWN = new Set(['e', 't', 'pos', 'buf', 'startup_ms', 'dur_ms', 'level', 'error', 'pathway']);

/** Coarse device class from a User-Agent. */
export function deviceOf(ua: string): string {
  if (/smart-?tv|tizen|web0s|hbbtv|appletv|crkey|roku/i.test(ua)) return 'tv';
  if (/ipad|tablet/i.test(ua)) return 'tablet';
  if (/mobi|iphone|android/i.test(ua)) return 'mobile';
  return 'desktop';
}

/** Parses and schema-checks a beacon body; 400 with errors[] when it does not match. */
export function parseBeacon(text: string): BeaconBody {
  let v: unknown;
  try { v = JSON.parse(text); } catch { throw new AppError('invalid_json', 'beacon body is not JSON'); }
  if (check.Check(v)) return v;
  const errors: FieldError[] = [];
  for (const e of check.Errors(v)) { errors.push({ field: e.path.replace(/^\//, '').replace(/\//g, '.') || '(body)', detail: e.message }); if (errors.length >= 20) break; }
  throw new AppError('bad_request', `beacon does not match schema v1: ${errors.slice(0, 3).map((e) => `${e.field}: ${e.detail}`).join('; ')}`, { errors });
}

/**
 * Accepts viewing beacons: per-IP rate limit, bounded queue of events (503 not_ready + Retry-After when full), one
 * staged row per beacon written to DuckDB in batches off the request path (appender) and unnested into
 * player_events by SQL in the same transaction (see beacon-stage.ts), flushed on stop.
 */
export class BeaconIngest {
  private rows: StageRow[] = [];
  /** Events in `rows` (the queue limit counts events). */
  private queued = 0;
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval>;
  private ready: Promise<void> | null;
  private perIp = new Map<string, { minute: number; n: number }>();
  private tenants = new Map<string, string>();
  private salt = { day: -1, value: '' };
  private binder: BeaconBinder;
  readonly counts = { accepted: 0, written: 0, failed: 0, refused: 0, dropped: 0, studio: 0 };

  constructor(private ctx: AppContext, private lookupTenant: (slug: string) => string | null, lookupSession: (sid: string) => SessionRecord | null) {
    this.binder = new BeaconBinder(lookupSession, (slug) => this.tenantId(slug) || null);
    // Never an unhandled rejection (a store closed during a quick stop); a write retries the DDL when it failed.
    this.ready = this.prepare().catch(() => { this.ready = null; });
    this.timer = setInterval(() => { void this.flush(); }, BEACON_LIMITS.flushMs);
    (this.timer as { unref?: () => void }).unref?.();
    ctx.onStop(async () => { clearInterval(this.timer); await this.flush(); await this.flush(); });
  }

  /** Refuses an address over its per-minute allowance (429 with Retry-After). */
  rateCheck(ip: string | null): void {
    if (!ip) return;
    const minute = Math.floor(this.ctx.clock.now() / 60_000);
    const c = this.perIp.get(ip);
    if (c && c.minute === minute && c.n >= BEACON_LIMITS.perIpPerMin) throw new AppError('rate_limited', 'too many beacons from this address', { headers: { 'retry-after': String(60 - Math.floor((this.ctx.clock.now() / 1000) % 60)) } });
    if (this.perIp.size > 50_000) this.perIp.clear();
    this.perIp.set(ip, c && c.minute === minute ? { minute, n: c.n + 1 } : { minute, n: 1 });
  }

  private tenantId(slug: string | null | undefined): string {
    if (!slug) return '';
    let id = this.tenants.get(slug);
    if (id === undefined) { id = this.lookupTenant(slug) ?? ''; if (this.tenants.size < 10_000) this.tenants.set(slug, id); }
    return id;
  }

  private ipHash(ip: string | null): string | null {
    if (!ip) return null;
    const day = Math.floor(this.ctx.clock.now() / 86_400_000);
    if (this.salt.day !== day) this.salt = { day, value: crypto.randomUUID() }; // daily salt, never stored: hashes cannot be joined across days
    return new Bun.CryptoHasher('sha256').update(`${this.salt.value}|${ip}`).digest('hex').slice(0, 32);
  }

  /**
   * Queues the events of one beacon bound to its playback session (beacon-binding.ts); 503 when the queue is full.
   * A beacon of no session, or one that disagrees with its session, is dropped and counted; one of a studio preview
   * session is counted apart and never reaches the audience tables. Returns the events queued.
   */
  accept(b: BeaconBody, meta: { ip: string | null; ua: string; referrer: string | null; country?: string | null; asn?: number | null }): number {
    const bound = this.binder.bind(b);
    const counts = beaconCounts(this.ctx);
    const now = this.ctx.clock.now();
    if ('drop' in bound) { this.counts.dropped++; counts.drop(bound.tenantId, bound.drop); return 0; }
    if (bound.studio) {
      this.counts.studio++;
      counts.studioBeacon(bound.tenantId);
      counts.studio.observe(bound.tenantId, b.sid, bound.kind, bound.id, b.events, now);
      return 0;
    }
    if (this.queued + b.events.length > BEACON_LIMITS.queueMax) {
      this.counts.refused += b.events.length;
      throw new AppError('not_ready', 'beacon queue is full; retry later', { headers: { 'retry-after': '5' } });
    }
    counts.audience(bound.tenantId);
    const tenant = bound.tenantId;
    const ipHash = this.ipHash(meta.ip);
    const device = deviceOf(meta.ua);
    // Events go to DuckDB as the beacon's JSON (clamped in place); an event with fields of its own carries them as `data` text.
    let events: unknown[] = b.events;
    for (let i = 0; i < b.events.length; i++) {
      const ev = b.events[i];
      if (Math.abs(ev.t - now) > 86_400_000) ev.t = now; // a wrong client clock cannot move events by days
      let extra: Record<string, unknown> | null = null;
      for (const k in ev) if (!KNOWN.has(k)) (extra ??= {})[k] = (ev as Record<string, unknown>)[k];
      if (extra) {
        if (events === b.events) events = b.events.slice();
        events[i] = { e: ev.e, t: ev.t, pos: ev.pos, buf: ev.buf, startup_ms: ev.startup_ms, dur_ms: ev.dur_ms, level: ev.level, pathway: ev.pathway, error: ev.error, data: JSON.stringify(extra) };
      }
    }
    this.rows.push([
      now, tenant, b.sid, b.vid, b.host ?? null, b.url ?? null, bound.kind, bound.id, bound.channel, bound.kind === 'live',
      ipHash, meta.country ?? null, meta.asn ?? null, device, meta.ua.slice(0, 500) || null, meta.referrer?.slice(0, 2000) ?? null, JSON.stringify(events),
    ]);
    // Concurrent viewers are answered from memory: the session's latest event goes to the realtime tracker now.
    realtimeTracker(this.ctx).observe(tenant, b.sid, bound.kind, bound.channel ?? bound.id, b.events, now);
    this.queued += b.events.length;
    this.counts.accepted += b.events.length;
    if (this.queued >= BEACON_LIMITS.flushRows && !this.writing) void this.flush();
    return b.events.length;
  }

  /** Writes everything queued (one batch at a time). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.rows.length) return;
    const batch = this.rows, n = this.queued;
    this.rows = [];
    this.queued = 0;
    this.writing = this.write(batch)
      .then(() => { this.counts.written += n; })
      .catch((e) => { this.counts.failed += n; this.ctx.log.error('beacon batch failed', { rows: n, error: String(e) }); })
      .finally(() => { this.writing = null; });
    await this.writing;
  }

  /** Creates the tables and moves beacons staged before a crash (appended, not yet moved). */
  private async prepare(): Promise<void> {
    await this.ctx.stats.run(PLAYER_EVENTS_DDL);
    await this.ctx.stats.run(BEACON_STAGE_DDL);
    await this.ctx.stats.transaction(BEACON_MOVE);
  }

  private async write(batch: StageRow[]): Promise<void> {
    await (this.ready ??= this.prepare());
    // One transaction: the staged beacons and their move (a batch of a row group or more is written compressed, not to the WAL).
    await this.ctx.stats.append('beacon_stage', batch, BEACON_MOVE);
  }
}
