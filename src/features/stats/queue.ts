/** Writes one batch of records; rejects on failure (the batch is dropped and counted). */
export type BatchWriter<T> = (rows: T[]) => Promise<void>;

/** Counters of one ingest queue. */
export interface QueueStats { queued: number; written: number; refused: number; failed: number; flushes: number }

/**
 * A bounded in-memory ingest queue: `offer` is O(1) and never blocks the request path; rows are written in
 * batches by `flush`, every `flushMs` or as soon as `flushRows` are queued. When `max` rows wait, offers are refused
 * (back-pressure: the caller answers 503 or drops the record) — memory never grows past `max` rows.
 */
export class IngestQueue<T> {
  private rows: T[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;
  private writing: Promise<void> | null = null;
  readonly counts: QueueStats = { queued: 0, written: 0, refused: 0, failed: 0, flushes: 0 };
  constructor(private write: BatchWriter<T>, private o: { flushMs: number; flushRows: number; max: number; onError?: (e: unknown) => void }) {}

  /** Starts the periodic flush. */
  start(): this {
    this.timer ??= setInterval(() => { void this.flush(); }, this.o.flushMs);
    this.timer.unref?.();
    return this;
  }

  /** Queues one row; false when the queue is full (nothing queued). */
  offer(row: T): boolean {
    if (this.rows.length >= this.o.max) { this.counts.refused++; return false; }
    this.rows.push(row);
    this.counts.queued = this.rows.length;
    if (this.rows.length >= this.o.flushRows && !this.writing) void this.flush();
    return true;
  }

  /** Queues several rows at once, all or none; false when they do not fit. */
  offerMany(rows: T[]): boolean {
    if (this.rows.length + rows.length > this.o.max) { this.counts.refused += rows.length; return false; }
    for (const r of rows) this.rows.push(r);
    this.counts.queued = this.rows.length;
    if (this.rows.length >= this.o.flushRows && !this.writing) void this.flush();
    return true;
  }

  /** Free places before back-pressure. */
  room(): number { return this.o.max - this.rows.length; }

  /** Writes everything queued now (waits for a write in progress first). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (!this.rows.length) return;
    const batch = this.rows;
    this.rows = [];
    this.counts.queued = 0;
    this.writing = this.write(batch)
      .then(() => { this.counts.written += batch.length; this.counts.flushes++; })
      .catch((e) => { this.counts.failed += batch.length; this.o.onError?.(e); })
      .finally(() => { this.writing = null; });
    await this.writing;
  }

  /** Stops the timer and writes what is left (shutdown, SIGTERM). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    await this.flush();
  }
}
