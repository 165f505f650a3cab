/**
 * The export worker: for each enabled destination, one batch at a time and in order — the oldest pending batch is
 * sent (its range re-read from the source), else the next batch is cut from the destination's position. A batch is
 * cut when `batch_events` events wait or the oldest has waited `batch_age_ms`; statistics rows only once they are
 * settled (older than two flush periods plus 2 s, so a late flush cannot slip in behind the position). A failed send
 * is retried on the schedule (config `export.retryMs`), then the batch is dead (the dead-letter queue) and the next
 * one goes. Nothing is held in memory between rounds: a slow or failing destination only leaves its position behind
 * (back-pressure without growth), and a crash resends at most the batch that was in flight (at-least-once).
 * With the job cluster linked, each attempt is sent by a worker (remote.ts) and its outcome is applied here the same way.
 */
import type { AppContext } from '../../kernel/context';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { exportThread, platformEvents, statsBatchEnd, statsBody, statsFile, type BatchBody } from './events';
import { exportSenderOf, sinkBatch, type PreparedBatch, type RemoteOutcome, type RemoteSender } from './remote';
import { sinkFor } from './sinks';
import { SinkError, type Sink } from './sinks/types';
import { ExportStore, type BatchRow, type BatchSource, type DestinationRow } from './store';

const STATS_SOURCES = ['player_events', 'edge_requests'] as const;
const POSITION = { player_events: 'player_ts', edge_requests: 'edge_ts' } as const;

/** Pure: a batch id, deterministic for a destination, source and range (a replay gets its own `tag`). */
export function batchId(destinationId: string, source: BatchSource, from: number, to: number, tag = ''): string {
  return createHash('sha256').update(`${destinationId}\0${source}\0${from}\0${to}\0${tag}`).digest('hex').slice(0, 32);
}

/** Parsed selection of a destination. */
export function selection(d: DestinationRow): { platform: string[] | null | 'none'; stats: string[]; pii: boolean } {
  const p = JSON.parse(d.platform_events) as string[];
  const s = JSON.parse(d.stats_events) as { sources: string[]; pii: boolean };
  return { platform: p.length === 0 ? 'none' : p.includes('*') ? null : p, stats: s.sources, pii: s.pii };
}

/** The events of a batch as NDJSON bytes, re-read from its source. */
export async function batchBody(ctx: AppContext, d: DestinationRow, b: Pick<BatchRow, 'source' | 'range_from' | 'range_to'>): Promise<BatchBody> {
  const sel = selection(d);
  if (b.source !== 'platform') return statsBody(ctx, b.source, d.tenant_id, b.range_from, b.range_to, sel.pii);
  const events = platformEvents(ctx, d.tenant_id, b.range_from, b.range_to, sel.platform === 'none' ? [] : sel.platform);
  return { body: Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join('')), count: events.length };
}

/**
 * The batch read ahead for a destination while its head is being sent: cut (when none is waiting) and read once the
 * head is prepared, so reading batch n+1 overlaps sending batch n. At most one per destination (memory stays
 * bounded by one batch); keyed by the destination's `updated_at` so a changed destination reads again.
 */
interface Ahead { stamp: number; ready: Promise<{ batchId: string; body: Promise<PreparedBatch> } | null> }

/** Drops a prepared batch nobody will send (a file left by a read-ahead that was not used). */
function discard(p: Promise<PreparedBatch>): void {
  p.then((x) => { if ('path' in x) void rm(x.path, { force: true }); }, () => {});
}

/** Runs the export rounds in the background (main process only). */
export class ExportWorker {
  readonly store: ExportStore;
  private sinks = new Map<string, { stamp: number; sink: Sink }>();
  private ahead = new Map<string, Ahead>();
  /** The time span of the last statistics batch cut per destination and source (statsBatchEnd's window). */
  private spans = new Map<string, number>();
  private running = false;
  private stopped = false;
  /** Aborted at stop: ends the wait for an attempt out on a worker (the attempt stays out; a restart waits again). */
  private halt = new AbortController();

  constructor(private ctx: AppContext) { this.store = new ExportStore(ctx.db); }

  private get settleMs(): number { return 2 * this.ctx.config.analytics.flushMs + 2_000; }

  private sink(d: DestinationRow): Sink {
    const have = this.sinks.get(d.id);
    if (have && have.stamp === d.updated_at) return have.sink;
    if (have) void have.sink.close();
    const sink = sinkFor(d, this.store.credentials(d), { allowlist: this.ctx.config.privateAllowlist, now: () => this.ctx.clock.now(), thread: () => exportThread(this.ctx) });
    this.sinks.set(d.id, { stamp: d.updated_at, sink });
    return sink;
  }

  /** Cuts the next batch of a destination when one is due; true when it made one. */
  async cut(d: DestinationRow): Promise<boolean> {
    const now = this.ctx.clock.now();
    const sel = selection(d);
    if (sel.platform !== 'none') {
      const types = sel.platform;
      const marks = types ? ` AND type IN (${types.map(() => '?').join(', ')})` : '';
      const rows = this.ctx.db.query<{ seq: number; at: number }, (string | number)[]>(
        `SELECT seq, at FROM events WHERE tenant_id = ? AND seq > ?${marks} ORDER BY seq LIMIT ?`).all(d.tenant_id, d.platform_seq, ...(types ?? []), d.batch_events);
      if (rows.length && (rows.length >= d.batch_events || now - rows[0]!.at >= d.batch_age_ms)) {
        const to = rows[rows.length - 1]!.seq;
        this.store.createBatch({ id: batchId(d.id, 'platform', d.platform_seq, to), destination_id: d.id, source: 'platform', range_from: d.platform_seq, range_to: to, replay: 0 }, { column: 'platform_seq', value: to }, now);
        return true;
      }
    }
    for (const source of STATS_SOURCES) {
      if (!sel.stats.includes(source) || !this.ctx.config.analytics.enabled) continue;
      const from = d[POSITION[source]];
      const until = now - this.settleMs;
      if (until <= from) continue;
      const key = `${d.id}:${source}`;
      const r = await statsBatchEnd(this.ctx, source, d.tenant_id, from, until, d.batch_events, this.spans.get(key));
      if (!r || (r.to >= until && until - r.first < d.batch_age_ms)) continue;
      this.spans.set(key, r.to - from);
      this.store.createBatch({ id: batchId(d.id, source, from, r.to), destination_id: d.id, source, range_from: from, range_to: r.to, replay: 0 }, { column: POSITION[source], value: r.to }, now);
      return true;
    }
    return false;
  }

  /** A batch made ready to send: its file when the sink reads files itself, else its body. */
  private prepare(d: DestinationRow, b: Pick<BatchRow, 'source' | 'range_from' | 'range_to'>): Promise<PreparedBatch> {
    if (b.source !== 'platform' && this.sink(d).sendFile) return statsFile(this.ctx, b.source, d.tenant_id, b.range_from, b.range_to, selection(d).pii).then((path) => ({ path }));
    return batchBody(this.ctx, d, b);
  }

  /** The prepared batch: the one read ahead when it is this batch, else prepared now. */
  private async body(d: DestinationRow, b: BatchRow): Promise<PreparedBatch> {
    const a = this.ahead.get(d.id);
    if (a) {
      this.ahead.delete(d.id);
      const r = await a.ready.catch(() => null);
      if (r && r.batchId === b.id && a.stamp === d.updated_at) return r.body;
      if (r) discard(r.body);
    }
    return this.prepare(d, b);
  }

  /** Starts reading the batch after `current` (cutting it when due) while `current` is sent. */
  private readAhead(d: DestinationRow, current: BatchRow): void {
    if (this.ahead.has(d.id) || this.stopped) return;
    const ready = (async () => {
      let next = this.store.nextAfter(d.id, current.seq);
      if (!next) {
        // The position moved when `current` was cut: cut from the row as it is now.
        const fresh = this.store.get(d.tenant_id, d.id);
        if (!fresh || !fresh.enabled || fresh.updated_at !== d.updated_at || !await this.cut(fresh)) return null;
        next = this.store.nextAfter(d.id, current.seq);
      }
      if (!next || next.next_at > this.ctx.clock.now()) return null;
      const body = this.prepare(d, next);
      body.catch(() => {}); // read by body(); a failure there is the attempt's failure
      return { batchId: next.id, body };
    })();
    ready.catch(() => {});
    this.ahead.set(d.id, { stamp: d.updated_at, ready });
  }

  /** Waits for a read-ahead's cut of a destination (so a round never cuts the same range beside it). */
  private async settled(id: string): Promise<void> {
    await this.ahead.get(id)?.ready.catch(() => null);
  }

  /** Sends a batch once and records the outcome. */
  async attempt(d: DestinationRow, b: BatchRow): Promise<void> {
    const remote = exportSenderOf(this.ctx).send;
    if (remote) { await this.attemptRemote(d, b, remote); return; }
    const t0 = performance.now();
    const prepared = await this.body(d, b);
    const now = () => this.ctx.clock.now();
    if ('path' in prepared) { await this.attemptFile(d, b, prepared.path, t0); return; }
    const { body, count } = prepared;
    if (!count) { this.store.delivered(b.id, { events: 0, bytes: 0, latencyMs: 0 }, now()); return; }
    this.readAhead(d, b);
    const signal = AbortSignal.timeout(60_000);
    try {
      const { bytes } = await this.sink(d).send(sinkBatch(b.id, d.id, b.source, body, count), signal);
      this.store.delivered(b.id, { events: count, bytes, latencyMs: Math.round(performance.now() - t0) }, now());
    } catch (e) { this.failed(d, b, e, { events: count, bytes: body.byteLength }, t0); }
  }

  /**
   * Sends a statistics batch from DuckDB's file through a sink that reads it itself (off the event loop), reading
   * the next batch meanwhile, and records the outcome (a batch with no line is delivered as 0 events).
   */
  private async attemptFile(d: DestinationRow, b: BatchRow, path: string, t0: number): Promise<void> {
    this.readAhead(d, b);
    const signal = AbortSignal.timeout(60_000);
    try {
      const { count, bytes } = await this.sink(d).sendFile!({ id: b.id, destinationId: d.id, source: b.source, path }, signal);
      this.store.delivered(b.id, count ? { events: count, bytes, latencyMs: Math.round(performance.now() - t0) } : { events: 0, bytes: 0, latencyMs: 0 }, this.ctx.clock.now());
    } catch (e) {
      const sent = e instanceof SinkError ? e.sent : undefined;
      this.failed(d, b, e, { events: sent?.count ?? 0, bytes: sent?.bytes ?? 0 }, t0);
    }
  }

  /**
   * An attempt handed to the job cluster (issue 49): a worker sends the batch (read here, read ahead as for a local
   * send) and its outcome is recorded as a local one's. At stop the wait ends with nothing recorded: the attempt stays
   * with its worker and the next start waits for its outcome instead of sending again.
   */
  private async attemptRemote(d: DestinationRow, b: BatchRow, send: RemoteSender): Promise<void> {
    const t0 = performance.now();
    let out: RemoteOutcome | null;
    try {
      out = await send({
        destination: d, credentials: this.store.credentials(d), batch: b,
        prepare: async () => { const p = await this.body(d, b); this.readAhead(d, b); return p; },
      }, this.halt.signal);
    } catch (e) { if (!this.halt.signal.aborted) this.failed(d, b, e, { events: 0, bytes: 0 }, t0); return; }
    if (!out) return;
    const latencyMs = Math.round(performance.now() - t0);
    if (out.error === null) this.store.delivered(b.id, out.count ? { events: out.count, bytes: out.bytes, latencyMs } : { events: 0, bytes: 0, latencyMs: 0 }, this.ctx.clock.now());
    else this.failed(d, b, new Error(out.error), { events: out.count, bytes: out.bytes }, t0);
  }

  /** Records a failed attempt: retried on the schedule, or dead after the last retry. */
  private failed(d: DestinationRow, b: BatchRow, e: unknown, o: { events: number; bytes: number }, t0: number): void {
    const now = this.ctx.clock.now();
    const schedule = this.ctx.config.exportRetryMs;
    const next = b.attempts < schedule.length ? now + schedule[b.attempts]! : null;
    this.store.failed(b.id, { ...o, error: String((e as Error)?.message ?? e), latencyMs: Math.round(performance.now() - t0) }, next, now);
    this.ctx.log.warn('event export attempt failed', { destination: d.id, batch: b.id, attempt: b.attempts + 1, dead: next === null, error: String((e as Error)?.message ?? e) });
  }

  /** One pass over every destination: each sends its due head batch or cuts a new one; true when anything moved. */
  async round(): Promise<boolean> {
    let moved = false;
    for (const d of this.store.all()) {
      if (this.stopped) break;
      if (!d.enabled) continue;
      try {
        await this.settled(d.id);
        let head = this.store.head(d.id);
        if (!head && await this.cut(d)) head = this.store.head(d.id);
        if (head && head.next_at <= this.ctx.clock.now()) { await this.attempt(d, head); moved = true; }
      } catch (e) { this.ctx.log.warn('event export round failed', { destination: d.id, error: String(e) }); }
    }
    return moved;
  }

  /** Starts the loop: rounds back to back while work moves (up to a second), else every `tickMs`. */
  start(tickMs: number): void {
    const tick = async () => {
      if (this.running || this.stopped) return;
      this.running = true;
      try {
        const until = performance.now() + 1000;
        while (!this.stopped && await this.round() && performance.now() < until) { /* keep going while batches move */ }
      } finally { this.running = false; }
    };
    const timer = setInterval(() => void tick(), tickMs);
    this.ctx.onStop(async () => {
      this.stopped = true;
      this.halt.abort(new Error('stopping'));
      clearInterval(timer);
      for (const { sink } of this.sinks.values()) await sink.close();
    });
  }

  /** Drops the cached sink of a destination (changed or deleted). */
  forget(id: string): void {
    void this.ahead.get(id)?.ready.then((r) => { if (r) discard(r.body); }, () => {});
    this.ahead.delete(id);
    for (const k of this.spans.keys()) if (k.startsWith(`${id}:`)) this.spans.delete(k);
    const have = this.sinks.get(id);
    if (have) { void have.sink.close(); this.sinks.delete(id); }
  }
}
