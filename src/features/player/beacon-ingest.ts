import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { AppContext } from '../../kernel/context';
import type { StatsParam, StatsStore } from '../../kernel/stats';
import { AppError, type FieldError } from '../../kernel/errors';
import { BeaconSchema, BEACON_LIMITS, type BeaconBody } from './beacon-model';

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
type Row = StatsParam[];
type Appending = StatsStore & { append?: (table: string, rows: readonly (readonly StatsParam[])[]) => Promise<void> };

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
 * Accepts viewing beacons: per-IP rate limit, bounded queue (503 not_ready + Retry-After when full), rows written
 * to DuckDB in batches off the request path (appender; multi-row INSERT where the store has no appender), flushed on stop.
 */
export class BeaconIngest {
  private rows: Row[] = [];
  private writing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval>;
  private ready: Promise<void> | null;
  private perIp = new Map<string, { minute: number; n: number }>();
  private tenants = new Map<string, string>();
  private salt = { day: -1, value: '' };
  readonly counts = { accepted: 0, written: 0, failed: 0, refused: 0 };

  constructor(private ctx: AppContext, private lookupTenant: (slug: string) => string | null) {
    // Never an unhandled rejection (a store closed during a quick stop); a write retries the DDL when it failed.
    this.ready = ctx.stats.run(PLAYER_EVENTS_DDL).catch(() => { this.ready = null; });
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

  /** Queues the events of one beacon; 503 when the queue is full. */
  accept(b: BeaconBody, meta: { ip: string | null; ua: string; referrer: string | null; country?: string | null; asn?: number | null }): number {
    if (this.rows.length + b.events.length > BEACON_LIMITS.queueMax) {
      this.counts.refused += b.events.length;
      throw new AppError('not_ready', 'beacon queue is full; retry later', { headers: { 'retry-after': '5' } });
    }
    const now = this.ctx.clock.now();
    const tenant = this.tenantId(b.tenant);
    const ipHash = this.ipHash(meta.ip);
    const device = deviceOf(meta.ua);
    for (const ev of b.events) {
      const extra: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(ev)) if (!KNOWN.has(k)) extra[k] = v;
      const ts = Math.abs(ev.t - now) > 86_400_000 ? now : ev.t; // a wrong client clock cannot move events by days
      this.rows.push([
        ts, now, tenant, b.sid, b.vid, b.host ?? null, b.url ?? null, b.kind ?? null, b.id ?? null, b.kind === 'live' ? b.id ?? null : null,
        b.kind === 'live', ev.e, ev.pos, ev.buf, ev.startup_ms ?? null, ev.dur_ms ?? null, ev.level === undefined ? null : String(ev.level),
        ev.pathway ?? null, ev.error ?? null, ipHash, meta.country ?? null, meta.asn ?? null, device, meta.ua.slice(0, 500) || null, meta.referrer?.slice(0, 2000) ?? null,
        Object.keys(extra).length ? JSON.stringify(extra) : null,
      ]);
    }
    this.counts.accepted += b.events.length;
    if (this.rows.length >= BEACON_LIMITS.flushRows && !this.writing) void this.flush();
    return b.events.length;
  }

  /** Writes everything queued (one batch at a time). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.rows.length) return;
    const batch = this.rows;
    this.rows = [];
    this.writing = this.write(batch)
      .then(() => { this.counts.written += batch.length; })
      .catch((e) => { this.counts.failed += batch.length; this.ctx.log.error('beacon batch failed', { rows: batch.length, error: String(e) }); })
      .finally(() => { this.writing = null; });
    await this.writing;
  }

  private async write(batch: Row[]): Promise<void> {
    await (this.ready ??= this.ctx.stats.run(PLAYER_EVENTS_DDL));
    const st = this.ctx.stats as Appending;
    if (typeof st.append === 'function') { await st.append('player_events', batch); return; }
    const one = `(${EVENT_COLUMNS.map(() => '?').join(',')})`;
    for (let i = 0; i < batch.length; i += 500) {
      const part = batch.slice(i, i + 500);
      await st.run(`INSERT INTO player_events (${EVENT_COLUMNS.join(',')}) VALUES ${part.map(() => one).join(',')}`, part.flat());
    }
  }
}
