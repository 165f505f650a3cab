/**
 * Export batches sent by workers (issue 49): with the job cluster linked, each attempt at an export batch becomes an
 * `export` job on `vs.jobs.export.any`. The control node cuts the batch as on one box (positions and batch rows: it
 * alone writes them), puts its NDJSON bytes in the media store under `cluster/export/<batch>-<attempt>`, records the
 * hand-off in `cluster_jobs` (`export-<batch>-<attempt>`) and publishes the job with the destination's sink settings and
 * opened credentials; a worker reads the bytes, sends them with the same sink code and reports the outcome (status or
 * error, lines, bytes), which the export loop applies as a local send's (retry schedule, dead letter). The bytes are
 * removed once the outcome is in. A restart finds the attempt's record: one still out is waited for, one ended is
 * applied, neither is sent again; a worker that dies mid-send has its job redelivered to another (at least once: the
 * batch id lets the receiver drop the repeat, as on one box).
 */
import { rm } from 'node:fs/promises';
import type { AppContext } from '../../kernel/context';
import { mediaStoreOf } from '../../kernel/media-store';
import type { RemoteOutcome, RemoteSender } from '../export/remote';
import type { ClusterLink } from './link';
import { SUBJECTS, type ExportJobMsg, type ExportOutput } from './protocol';
import { cancelRemote } from './remote-job';
import { beginClusterJob, clusterJob, markPublished, recordEnd, type ClusterJobRow } from './store';

/** Where the control node puts batches for workers to send (removed after each outcome). */
export const EXPORT_PREFIX = 'cluster/export/';

/** How often the wait re-reads the attempt's record when no result wakes it. */
const POLL_MS = 1000;

/** The name of an attempt: its cluster record is `export-<name>`, its bytes `cluster/export/<name>`. */
export function exportAttempt(batchId: string, sends: number): string { return `${batchId}-${sends}`; }

/** Waits for the attempt's record to end: the record, `stopped` (this node stops), `timeout`, or null (the batch was deleted). */
async function waitEnd(ctx: AppContext, link: ClusterLink, jobId: string, stop: AbortSignal, until: number): Promise<ClusterJobRow | 'stopped' | 'timeout' | null> {
  for (;;) {
    const row = clusterJob(ctx.db, jobId);
    if (!row) return null;
    if (row.status === 'done' || row.status === 'failed') return row;
    if (stop.aborted) return 'stopped';
    if (Date.now() >= until) return 'timeout';
    // Woken by the result as it is recorded (the results consumer writes the record first), else polled.
    const ac = new AbortController();
    const t = setTimeout(() => ac.abort(), Math.min(POLL_MS, Math.max(1, until - Date.now())));
    const off = () => ac.abort();
    stop.addEventListener('abort', off, { once: true });
    await link.awaitResult(jobId, ac.signal).catch(() => undefined);
    clearTimeout(t);
    stop.removeEventListener('abort', off);
  }
}

/** The outcome an ended record stands for. */
function outcomeOf(row: ClusterJobRow): RemoteOutcome {
  if (row.status === 'failed') return { count: 0, bytes: 0, error: `on worker ${row.worker ?? '?'}: ${row.error ?? 'failed'}`, worker: row.worker };
  const r = JSON.parse(row.result!) as { output: ExportOutput };
  return { count: r.output.count, bytes: r.output.bytes, error: r.output.error, worker: row.worker };
}

/**
 * Removes batch bytes no attempt out on a worker needs (a restart between an outcome and its removal left them; an
 * attempt still `publishing` puts its bytes again when it is resumed).
 */
async function sweep(ctx: AppContext): Promise<void> {
  const store = mediaStoreOf(ctx);
  for (const e of await store.list(EXPORT_PREFIX)) {
    const row = clusterJob(ctx.db, `export-${e.key.slice(EXPORT_PREFIX.length)}`);
    if (!row || (row.status !== 'published' && row.status !== 'running')) await store.delete(e.key);
  }
}

/**
 * The export loop's remote sender (set by the cluster at start). An attempt waits for its worker up to a minute plus
 * two ack waits (a dead worker's job is redelivered after one); past that the job is cancelled (removed from the
 * queue, its worker told to stop) and the attempt fails like a send that timed out: retried on the schedule.
 */
export function remoteExportSender(ctx: AppContext, link: ClusterLink): RemoteSender {
  const store = mediaStoreOf(ctx);
  const subject = SUBJECTS.job('export', 'any');
  const waitMs = 60_000 + 2 * ctx.config.clusterAckWaitMs;
  const swept = sweep(ctx).catch((e) => ctx.log.warn('export transfer sweep failed', { error: String(e) }));
  return async (x, stop) => {
    await swept;
    const { destination: d, batch: b } = x;
    const name = exportAttempt(b.id, b.sends);
    const jobId = `export-${name}`, key = `${EXPORT_PREFIX}${name}`;
    let row = clusterJob(ctx.db, jobId);
    if (!row || row.status === 'publishing') {
      const p = await x.prepare();
      if ('body' in p) {
        if (!p.count) return { count: 0, bytes: 0, error: null, worker: null };
        await store.put(key, p.body);
      } else {
        try { await store.putFile(key, p.path); } finally { await rm(p.path, { force: true }); }
      }
      row ??= beginClusterJob(ctx.db, jobId, subject);
      const msg: ExportJobMsg = {
        kind: 'export', jobId, gen: row.gen, tenantId: d.tenant_id, destinationId: d.id, stamp: d.updated_at, batchId: b.id, source: b.source, key,
        sink: { kind: d.kind, config: JSON.parse(d.config) as Record<string, unknown>, credentials: x.credentials }, allowlist: ctx.config.privateAllowlist,
      };
      try { markPublished(ctx.db, jobId, row.gen, await link.publish(subject, msg)); } catch (e) {
        // Not handed out: the attempt fails here (its record ends, its bytes go) and the schedule retries it.
        recordEnd(ctx.db, jobId, row.gen, 'control', { error: `not published: ${String((e as Error)?.message ?? e)}`, permanent: false });
        await store.delete(key).catch(() => undefined);
        throw e;
      }
    }
    let end = await waitEnd(ctx, link, jobId, stop, Date.now() + waitMs);
    if (end === 'stopped') return null;
    if (end === 'timeout') {
      await cancelRemote(ctx, jobId, link);
      const now = clusterJob(ctx.db, jobId);
      end = now && now.status === 'done' ? now : 'timeout';
    }
    await store.delete(key).catch((e) => ctx.log.warn('export transfer not removed', { key, error: String(e) }));
    if (end === null) return { count: 0, bytes: 0, error: 'the batch was deleted', worker: null };
    if (end === 'timeout') return { count: 0, bytes: 0, error: `no worker sent the batch within ${Math.round(waitMs / 1000)} s`, worker: null };
    return outcomeOf(end);
  };
}
