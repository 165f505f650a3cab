/** Event export destinations: creation with per-kind checks, views, changes, the delivery log and replays. */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { BlockedAddressError, assertPublicUrl } from '../../kernel/net/safe-fetch';
import type { Principal } from '../../kernel/http/auth';
import { checkWebhookUrl } from '../webhooks/url-policy';
import { isEventType } from '../webhooks/event-types';
import { statsBatchEnd } from './events';
import { ga4Validate } from './sinks/ga4';
import { ExportStore, type BatchRow, type DestinationRow } from './store';
import { batchId } from './worker';
import type { Static } from 'elysia';
import type { CreateDestinationBody, EventsBody, BatchBody } from './model';

/** Most batches one replay may make. */
export const MAX_REPLAY_BATCHES = 1000;
const MAX_REPLAY_MS = 31 * 86_400_000;

type Create = Static<typeof CreateDestinationBody>;

/** Checks an endpoint URL (https, or http for allowlisted private addresses); 422 naming `field`. */
async function checkEndpoint(field: string, url: string, allowlist: string[]): Promise<string> {
  try { return await checkWebhookUrl(url, allowlist); } catch (e) {
    if (e instanceof AppError) throw invalid(field, e.message.replace(/^url: /, ''));
    throw e;
  }
}

/** Checks Kafka brokers (`host:port`, public unless allowlisted). */
async function checkBrokers(brokers: string[], allowlist: string[]): Promise<void> {
  for (const [i, b] of brokers.entries()) {
    if (!/^[A-Za-z0-9.-]+:\d{1,5}$/.test(b) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(b)) throw invalid(`kafka.brokers[${i}]`, 'must be host:port');
    try { await assertPublicUrl(`http://${b}/`, allowlist); } catch (e) {
      if (e instanceof BlockedAddressError) throw invalid(`kafka.brokers[${i}]`, e.detail);
      throw invalid(`kafka.brokers[${i}]`, 'cannot be resolved');
    }
  }
}

function selectionOf(e: Static<typeof EventsBody> | undefined, p: Principal): { platform: string; stats: string } {
  const platform = e?.platform ?? ['*'];
  for (const [i, ty] of platform.entries()) if (ty !== '*' && !isEventType(ty)) throw invalid(`events.platform[${i}]`, `unknown event type "${ty}"`);
  const pii = e?.statistics_pii ?? false;
  if (pii && !p.scopes.has('stats:pii')) throw new AppError('insufficient_scope', 'stats:pii');
  return { platform: JSON.stringify([...new Set(platform)]), stats: JSON.stringify({ sources: [...new Set(e?.statistics ?? [])], pii }) };
}

function batchOf(b: Static<typeof BatchBody> | undefined, d?: DestinationRow): { batch_events: number; batch_age_ms: number } {
  return { batch_events: b?.max_events ?? d?.batch_events ?? 500, batch_age_ms: Math.round((b?.max_age_s ?? (d ? d.batch_age_ms / 1000 : 5)) * 1000) };
}

/** Destinations of tenants (scope webhooks:manage). */
export class ExportService {
  readonly store: ExportStore;
  constructor(private ctx: AppContext, private onChange: (id: string) => void) { this.store = new ExportStore(ctx.db); }

  private row(tenantId: string, id: string): DestinationRow {
    const d = this.store.get(tenantId, id);
    if (!d) throw notFound('event destination');
    return d;
  }

  /** Creates a destination positioned at now (history can be sent with a replay); the https secret is answered once. */
  async create(p: Principal, b: Create) {
    const allow = this.ctx.config.privateAllowlist;
    const given = (['s3', 'kafka', 'https', 'ga4'] as const).filter((k) => b[k] !== undefined);
    if (given.length !== 1 || given[0] !== b.kind) throw invalid(b.kind, `give the settings of kind "${b.kind}" as \`${b.kind}\` (and no other)`);
    let config: Record<string, unknown>, creds: Record<string, string>;
    let secret: string | undefined;
    if (b.kind === 's3') {
      const s = b.s3!;
      config = { endpoint: await checkEndpoint('s3.endpoint', s.endpoint, allow), bucket: s.bucket, region: s.region ?? 'us-east-1', prefix: s.prefix ?? 'viewstream/', access_key_id: s.access_key_id };
      creds = { secret_access_key: s.secret_access_key };
    } else if (b.kind === 'kafka') {
      const s = b.kafka!;
      await checkBrokers(s.brokers, allow);
      if ((s.sasl_username === undefined) !== (s.sasl_password === undefined)) throw invalid('kafka.sasl_password', 'sasl_username and sasl_password go together');
      config = { brokers: s.brokers, topic: s.topic, client_id: s.client_id ?? 'viewstream', ssl: s.ssl ?? false, ...(s.sasl_username ? { sasl_username: s.sasl_username } : {}) };
      creds = s.sasl_password ? { sasl_password: s.sasl_password } : {};
    } else if (b.kind === 'https') {
      config = { url: await checkEndpoint('https.url', b.https!.url, allow), gzip: b.https!.gzip ?? false };
      secret = `whsec_${randomBytes(24).toString('base64url')}`;
      creds = { secret };
    } else {
      const s = b.ga4!;
      const endpoint = await checkEndpoint('ga4.endpoint', s.endpoint ?? 'https://www.google-analytics.com', allow);
      config = { endpoint, measurement_id: s.measurement_id };
      creds = { api_secret: s.api_secret };
      let messages: string[];
      try { messages = await ga4Validate({ endpoint, measurement_id: s.measurement_id, api_secret: s.api_secret }, allow, this.ctx.clock.now()); } catch (e) {
        throw invalid('ga4.endpoint', `the validation server could not be reached: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
      }
      if (messages.length) throw new AppError('validation_error', `ga4: the Measurement Protocol validation server refused the payload: ${messages.join('; ')}`, { errors: messages.map((m) => ({ field: 'ga4', detail: m })) });
    }
    const sel = selectionOf(b.events, p);
    const now = this.ctx.clock.now();
    const seq = this.ctx.db.query<{ s: number | null }, []>('SELECT max(seq) AS s FROM events').get()?.s ?? 0;
    const row: DestinationRow = {
      id: crypto.randomUUID(), tenant_id: p.tenantId, name: b.name, kind: b.kind, config: JSON.stringify(config), credentials: JSON.stringify(creds),
      platform_events: sel.platform, stats_events: sel.stats, ...batchOf(b.batch), enabled: b.enabled === false ? 0 : 1,
      platform_seq: seq, player_ts: now, edge_ts: now, created_at: now, updated_at: now,
    };
    this.store.insert(row);
    return { ...this.view(row), ...(secret ? { secret } : {}) };
  }

  /** The API view of a destination. */
  view(d: DestinationRow) {
    const sel = JSON.parse(d.stats_events) as { sources: string[]; pii: boolean };
    const counts = this.ctx.db.query<{ pending: number; dead: number }, [string]>(
      `SELECT count(*) FILTER (WHERE status = 'pending') AS pending, count(*) FILTER (WHERE status = 'dead') AS dead FROM export_batches WHERE destination_id = ?`).get(d.id)!;
    return {
      id: d.id, name: d.name, kind: d.kind, enabled: d.enabled === 1, settings: JSON.parse(d.config) as Record<string, unknown>,
      events: { platform: JSON.parse(d.platform_events) as string[], statistics: sel.sources, statistics_pii: sel.pii },
      batch: { max_events: d.batch_events, max_age_s: d.batch_age_ms / 1000 },
      position: { platform_seq: d.platform_seq, player_events_at: iso(d.player_ts), edge_requests_at: iso(d.edge_ts) },
      queue: { pending: counts.pending ?? 0, dead: counts.dead ?? 0 },
      created_at: iso(d.created_at), updated_at: iso(d.updated_at),
    };
  }

  list(tenantId: string) { return this.store.list(tenantId).map((d) => this.view(d)); }
  get(tenantId: string, id: string) { return this.view(this.row(tenantId, id)); }

  /** Changes name, selection, batching or enabled (disabling keeps the position; enabling resumes from it). */
  patch(p: Principal, id: string, b: { name?: string; events?: Static<typeof EventsBody>; batch?: Static<typeof BatchBody>; enabled?: boolean }) {
    const d = this.row(p.tenantId, id);
    const sel = b.events ? selectionOf(b.events, p) : null;
    this.store.update(d.id, {
      name: b.name, ...(sel ? { platform_events: sel.platform, stats_events: sel.stats } : {}), ...(b.batch ? batchOf(b.batch, d) : {}),
      enabled: b.enabled === undefined ? undefined : b.enabled ? 1 : 0,
    }, Math.max(this.ctx.clock.now(), d.updated_at + 1));
    this.onChange(d.id);
    return this.view(this.row(p.tenantId, id));
  }

  delete(tenantId: string, id: string): void {
    const d = this.row(tenantId, id);
    this.store.delete(d.id);
    this.onChange(d.id);
  }

  /** The API view of a batch. */
  batchView(b: BatchRow) {
    return {
      id: b.id, source: b.source, replay: b.replay === 1, status: b.status,
      range: { from: b.range_from, to: b.range_to, unit: b.source === 'platform' ? 'seq' : 'ms' },
      events: b.events, bytes: b.bytes, attempts: b.attempts, latency_ms: b.latency_ms, last_error: b.last_error,
      next_attempt_at: b.status === 'pending' ? iso(b.next_at) : null, created_at: iso(b.created_at), delivered_at: b.delivered_at === null ? null : iso(b.delivered_at),
    };
  }

  /** The delivery log (or, with status dead, the dead-letter queue), newest first. */
  batches(tenantId: string, id: string, q: { status?: string; cursor?: string; limit?: number }) {
    const d = this.row(tenantId, id);
    const limit = q.limit ?? 50;
    const before = q.cursor === undefined ? undefined : Number(q.cursor);
    if (before !== undefined && !Number.isSafeInteger(before)) throw invalid('cursor', 'not a cursor from this list');
    const rows = this.store.batches(d.id, { status: q.status, before, limit: limit + 1 });
    const more = rows.length > limit;
    const items = rows.slice(0, limit);
    return { items: items.map((b) => this.batchView(b)), next_cursor: more ? String(items[items.length - 1]!.seq) : null };
  }

  /** Sends a dead batch again (same id: the same object key and message keys). */
  replayDead(tenantId: string, id: string, batch: string) {
    const d = this.row(tenantId, id);
    const b = this.store.batch(d.id, batch);
    if (!b) throw notFound('batch');
    if (b.status !== 'dead') throw new AppError('conflict', `batch is ${b.status}; only a dead batch can be replayed`);
    this.store.requeue(b.id, this.ctx.clock.now());
    return this.batchView(this.store.batch(d.id, batch)!);
  }

  /** Queues the events of [from, to) again as replay batches (after those already queued); answers how many. */
  async replayRange(tenantId: string, id: string, fromIso: string, toIso: string) {
    const d = this.row(tenantId, id);
    const from = /^\d{4}-\d{2}-\d{2}T/.test(fromIso) ? Date.parse(fromIso) : NaN;
    const to = /^\d{4}-\d{2}-\d{2}T/.test(toIso) ? Date.parse(toIso) : NaN;
    if (!Number.isFinite(from)) throw invalid('from', 'must be an RFC 3339 timestamp');
    if (!Number.isFinite(to)) throw invalid('to', 'must be an RFC 3339 timestamp');
    if (to <= from) throw invalid('to', 'must be after from');
    if (to - from > MAX_REPLAY_MS) throw invalid('to', 'at most 31 days after from');
    const now = this.ctx.clock.now();
    const tag = crypto.randomUUID();
    const cuts: { source: BatchRow['source']; from: number; to: number }[] = [];
    const sel = JSON.parse(d.stats_events) as { sources: ('player_events' | 'edge_requests')[] };
    if (JSON.parse(d.platform_events).length) {
      const seqs = this.ctx.db.query<{ seq: number }, [string, number, number]>('SELECT seq FROM events WHERE tenant_id = ? AND at >= ? AND at < ? ORDER BY seq').all(d.tenant_id, from, to).map((r) => r.seq);
      for (let i = 0; i < seqs.length; i += d.batch_events) cuts.push({ source: 'platform', from: seqs[i]! - 1, to: seqs[Math.min(i + d.batch_events, seqs.length) - 1]! });
    }
    for (const source of sel.sources) {
      let at = from, span = 0;
      while (at < to && cuts.length <= MAX_REPLAY_BATCHES) {
        const r = await statsBatchEnd(this.ctx, source, d.tenant_id, at, to, d.batch_events, span);
        if (!r) break;
        cuts.push({ source, from: at, to: r.to });
        span = r.to - at;
        at = r.to;
      }
    }
    if (cuts.length > MAX_REPLAY_BATCHES) throw invalid('to', `the range holds more than ${MAX_REPLAY_BATCHES} batches of events; replay a shorter range`);
    for (const c of cuts) this.store.createBatch({ id: batchId(d.id, c.source, c.from, c.to, tag), destination_id: d.id, source: c.source, range_from: c.from, range_to: c.to, replay: 1 }, null, now);
    return { replay: tag, batches: cuts.length };
  }
}
