import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { onOutbox } from '../../kernel/events/outbox';
import { fanOutBatch } from './fanout';
import { lazyCommit } from '../../kernel/db/lazy-commit';
import { startCheckpointer, type Checkpointer } from './checkpointer';
import { nextAttemptAt, ACK_TIMEOUT_MS } from './schedule';
import { sendAttempt } from './sender';
import { allowCidrs } from '../../kernel/net/safe-fetch';
import { sendTarget, type SendTarget } from '../../kernel/net/safe-send';
import type { Cidr } from '../../kernel/net/ip';
import { WebhookStore, endpointsVersion, type AttemptResult, type DueDelivery, type EndpointRow } from './store';

/** Tuning of the dispatcher (tests shorten `timeoutMs`; production keeps the defaults). */
export interface DispatcherOptions {
  /** Attempts in flight across all endpoints. */
  concurrency?: number;
  /** Attempts in flight per endpoint, so one slow endpoint never takes every slot. */
  perEndpoint?: number;
  /** Acknowledgement deadline per attempt (the spec's 10 s). */
  timeoutMs?: number;
  /** Real-time poll interval for retries that became due on the clock (and events written by other processes). */
  pollMs?: number;
  /** Outcomes are committed in batches at most this often. */
  flushMs?: number;
  /** Outbox events fanned out per slice (one transaction; the event loop runs between slices). */
  fanOutBatch?: number;
  /** Delivery rows queued per slice at most (whole events, at least one): bounds a slice when events reach many endpoints. */
  fanOutRows?: number;
  /** Attempts started per pump (each costs the event loop a little: the next ones start on the next turn). */
  startsPerPump?: number;
  /** Outcomes committed per transaction (more wait for the next turn). */
  flushRows?: number;
}

const RUNNING = slotKey<{ current: WebhookDispatcher | null }>('webhooks.dispatcher');

/** The app's slot holding its running dispatcher. */
function runningSlot(ctx: AppContext): { current: WebhookDispatcher | null } {
  return ctx.slots.get(RUNNING, () => ({ current: null }));
}

/** The dispatcher running for this context's database (for tests and tools that need to trigger a tick). */
export function webhookDispatcher(ctx: AppContext): WebhookDispatcher | null {
  return runningSlot(ctx).current;
}

/**
 * Moves events from the outbox into deliveries (durable cursor) and sends due deliveries in parallel with per-endpoint
 * limits. Outcomes are written in batches; due times come from `ctx.clock`, so tests advance a ManualClock and call
 * `tick()` instead of waiting.
 */
export class WebhookDispatcher {
  private store: WebhookStore;
  private o: Required<DispatcherOptions>;
  private perEp = new Map<string, number>();
  private inflight = new Map<string, Promise<void>>();
  private results: AttemptResult[] = [];
  /** Attempts finished but not yet committed (by delivery id): never claimed again until their outcome is written. */
  private done = new Map<string, { seq: number; ep: string }>();
  /** Seqs of deliveries in flight or finished but not committed (the rows still look due in the table). */
  private held = new Set<number>();
  /** Per endpoint, how many of `held` are its rows (how far past them a due read must look). */
  private heldBy = new Map<string, number>();
  /** The operator's allowlist, parsed once. */
  private allow: Cidr[];
  /** Endpoint URLs prepared once per endpoint cache load (shape and IP-literal checks; names resolve per attempt). */
  private targets = new Map<string, SendTarget>();
  private outboxDirty = true;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private endpoints: EndpointRow[] = [];
  private epVersion = -1;
  private epLoadedAt = 0;
  private rotate = 0;
  private scheduled = false;
  private stopped = true;
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsub: (() => void) | null = null;
  private ac = new AbortController();
  private ckpt: Checkpointer | null = null;

  constructor(private ctx: AppContext, opts: DispatcherOptions = {}) {
    this.store = new WebhookStore(ctx.db);
    this.allow = allowCidrs(ctx.config.privateAllowlist);
    this.o = { concurrency: 256, perEndpoint: 16, timeoutMs: ACK_TIMEOUT_MS, pollMs: 250, flushMs: 20, fanOutBatch: 100, fanOutRows: 400, startsPerPump: 16, flushRows: 100, ...opts };
  }

  /** Starts listening for outbox wake-ups and polling for due retries. */
  start(): this {
    this.stopped = false;
    runningSlot(this.ctx).current = this;
    const file = this.ctx.db.filename;
    if (file && file !== ':memory:') {
      // The thread takes over this connection's checkpoints (every feature's commits) and also runs twice a second.
      this.ckpt = startCheckpointer(file, 100, (error) => this.ctx.log.warn('webhook WAL checkpoint failed', { error }), { owner: this.ctx.db, everyMs: 500 });
    }
    this.unsub = onOutbox(() => { this.outboxDirty = true; this.kick(); });
    this.timer = setInterval(() => { this.outboxDirty = true; this.kick(); }, this.o.pollMs);
    this.kick();
    return this;
  }

  /** Schedules one pump soon (coalesces many wake-ups). */
  kick(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => { this.scheduled = false; if (!this.stopped) this.pump(); });
  }

  /** Drains the outbox, runs one pump and waits for every attempt it started, then records their outcomes. */
  async tick(): Promise<void> {
    do { this.outboxDirty = true; this.pump(Infinity); } while (this.outboxDirty);
    await Promise.allSettled([...this.inflight.values()]);
    while (this.results.length) this.flush();
  }

  /** Number of attempts in flight. */
  get busy(): number { return this.inflight.size; }

  /** Stops: no new attempts; in-flight ones are cancelled and left due (they are sent again after restart). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.unsub?.();
    this.ac.abort();
    await Promise.allSettled([...this.inflight.values()]);
    try { while (this.results.length) this.flush(); } catch { /* database already closed */ }
    this.ckpt?.stop();
    this.ckpt = null;
    const slot = runningSlot(this.ctx);
    if (slot.current === this) slot.current = null;
  }

  private pump(starts = this.o.startsPerPump): void {
    try {
      if (this.outboxDirty) {
        // One slice per pump: a burst of events is fanned out over several turns of the event loop, never in one block.
        this.outboxDirty = false;
        const n = fanOutBatch(this.ctx.db, this.ctx.clock.now(), this.o.fanOutBatch, { ...this.commitOpts(), maxRows: this.o.fanOutRows });
        if (n) this.ckpt?.nudge();
        this.outboxDirty = n > 0; // a slice cut short by its row bound leaves events: the next turn looks again
        if (this.outboxDirty) this.kick();
      }
      this.claim(starts);
    } catch (e) {
      this.ctx.log.error('webhook dispatcher pump failed', { error: String((e as Error)?.stack ?? e) });
    }
  }

  /** The dispatcher's commits leave checkpoints to its checkpoint thread while that runs. */
  private commitOpts(): { checkpoint: boolean } {
    return { checkpoint: !this.ckpt?.running };
  }

  /** Commits outcomes `delayMs` from now (coalescing); a backlog is committed on the next turn instead. */
  private scheduleFlush(delayMs = this.o.flushMs): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      try { this.flush(); } catch (e) {
        this.ctx.log.error('webhook outcome write failed', { error: String(e) });
        this.scheduleFlush();
      }
    }, delayMs);
  }

  /** Commits finished attempts (up to `flushRows` per transaction), then lets their rows be claimed again. */
  private flush(): void {
    if (!this.results.length) return;
    const batch = this.results.slice(0, this.o.flushRows);
    this.results = this.results.slice(batch.length);
    // A backlog goes on at the next turn: uncommitted rows are held (never claimed), and every claim reads past them.
    if (this.results.length) this.scheduleFlush(0);
    try {
      // Outcomes commit without waiting for fsync (a lost outcome only means the attempt is sent again: lazyCommit).
      lazyCommit(this.ctx.db, () => { for (const r of batch) this.store.applyResult(r); }, this.commitOpts());
      this.ckpt?.nudge();
    } catch (e) {
      this.results = batch.concat(this.results);
      throw e;
    }
    for (const r of batch) {
      const h = this.done.get(r.id);
      this.done.delete(r.id);
      if (h) this.release(h.seq, h.ep);
    }
    this.kick();
  }

  private loadEndpoints(): void {
    const now = Date.now();
    if (this.epVersion === endpointsVersion() && now - this.epLoadedAt < 5000) return;
    this.epVersion = endpointsVersion();
    this.epLoadedAt = now;
    this.endpoints = this.store.enabledEndpoints();
    this.targets.clear();
  }

  /** The endpoint URL prepared for sending, or undefined when refused (each attempt then reports the refusal). */
  private targetOf(url: string): SendTarget | undefined {
    let t = this.targets.get(url);
    if (!t) {
      try { t = sendTarget(url, this.allow); } catch { return undefined; }
      this.targets.set(url, t);
    }
    return t;
  }

  private hold(seq: number, ep: string): void {
    this.held.add(seq);
    this.heldBy.set(ep, (this.heldBy.get(ep) ?? 0) + 1);
  }

  private release(seq: number, ep: string): void {
    this.held.delete(seq);
    const left = (this.heldBy.get(ep) ?? 1) - 1;
    if (left > 0) this.heldBy.set(ep, left); else this.heldBy.delete(ep);
  }

  private claim(starts: number): void {
    this.loadEndpoints();
    const now = this.ctx.clock.now();
    const n = this.endpoints.length;
    this.rotate = (this.rotate + 1) % Math.max(1, n);
    let budget = starts;
    for (let i = 0; i < n; i++) {
      if (budget <= 0) { this.kick(); return; } // the rest start on the next turn of the event loop
      const ep = this.endpoints[(i + this.rotate) % n];
      const busy = this.perEp.get(ep.id) ?? 0;
      let free = Math.min(this.o.perEndpoint - busy, this.o.concurrency - this.inflight.size, budget);
      if (free <= 0) continue;
      // Held rows still look due: read past them in the index (seqs only), and load only the rows that start.
      for (const seq of this.store.dueSeqs(ep.id, now, free + (this.heldBy.get(ep.id) ?? 0))) {
        if (free <= 0) break;
        if (this.held.has(seq)) continue;
        const d = this.store.dueRow(seq);
        if (!d) continue;
        free--;
        budget--;
        this.send(ep, d);
      }
    }
  }

  private send(ep: EndpointRow, d: DueDelivery): void {
    this.perEp.set(ep.id, (this.perEp.get(ep.id) ?? 0) + 1);
    this.hold(d.seq, ep.id);
    const p = sendAttempt(d, ep, {
      nowMs: this.ctx.clock.now(), timeoutMs: this.o.timeoutMs, allowlist: this.ctx.config.privateAllowlist, signal: this.ac.signal, target: this.targetOf(ep.url),
    })
      .then((r) => {
        if (this.ac.signal.aborted) return; // cancelled by shutdown: leave it due, it is sent again after restart
        const at = this.ctx.clock.now();
        const failures = d.attempts + 1 - d.round_base;
        const nextAt = r.ok ? null : nextAttemptAt(failures, at);
        this.results.push({ seq: d.seq, id: d.id, ok: r.ok, code: r.code, error: r.error, at, nextAt, dead: !r.ok && nextAt === null });
        this.done.set(d.id, { seq: d.seq, ep: ep.id });
        this.scheduleFlush();
        if (!r.ok) this.ctx.log.debug('webhook attempt failed', { delivery: d.id, endpoint: ep.id, error: r.error });
      })
      .finally(() => {
        this.inflight.delete(d.id);
        if (!this.done.has(d.id)) this.release(d.seq, ep.id); // no outcome to write (shutdown): not held any more
        const left = (this.perEp.get(ep.id) ?? 1) - 1;
        if (left > 0) this.perEp.set(ep.id, left); else this.perEp.delete(ep.id);
        this.kick();
      });
    this.inflight.set(d.id, p);
  }
}

/** Starts the dispatcher for the app and registers its stop on shutdown. */
export function startWebhookDispatcher(ctx: AppContext, opts: DispatcherOptions = {}): WebhookDispatcher {
  const d = new WebhookDispatcher(ctx, opts).start();
  ctx.onStop(() => d.stop());
  return d;
}
