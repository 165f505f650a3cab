/**
 * A worker's side of export jobs (issue 49): the batch's NDJSON bytes are read from the media store, checked and
 * counted as the control node's export thread does, and sent through the same sink code (S3, Kafka, HTTPS, GA4) with
 * the settings and credentials the job carries. The outcome — acknowledged, or the sink's error — is the job's result
 * (a refusal by the destination is an outcome, not a failed job); the control node records it.
 */
import { join } from 'node:path';
import { PermanentJobError } from '../../jobs/errors';
import type { MediaStore } from '../../kernel/media-store';
import { startFileReader, type FileReader } from '../export/read-thread';
import { sinkBatch } from '../export/remote';
import { sinkOf } from '../export/sinks';
import { SinkError, type Sink } from '../export/sinks/types';
import type { ExportJobMsg, ExportOutput } from './protocol';

/** How long a destination has to take one batch (as on the control node). */
const SEND_TIMEOUT_MS = 60_000;
/** Destinations whose sink a worker keeps (a Kafka producer stays connected between batches). */
const KEPT_SINKS = 32;

/** The sinks a worker keeps between batches, by destination (rebuilt when the destination changed), and its export thread. */
export class WorkerSinks {
  private sinks = new Map<string, { stamp: number; sink: Sink }>();
  private reader: FileReader | null = null;

  /** The sink of the job's destination as the job describes it. */
  sink(job: ExportJobMsg): Sink {
    const have = this.sinks.get(job.destinationId);
    if (have && have.stamp === job.stamp) return have.sink;
    if (have) { this.sinks.delete(job.destinationId); void have.sink.close(); }
    const sink = sinkOf(job.sink.kind, job.sink.config, job.sink.credentials, { allowlist: job.allowlist, now: () => Date.now(), thread: () => this.thread() });
    this.sinks.set(job.destinationId, { stamp: job.stamp, sink });
    for (const [id, s] of this.sinks) {
      if (this.sinks.size <= KEPT_SINKS) break;
      this.sinks.delete(id);
      void s.sink.close();
    }
    return sink;
  }

  /** The worker's export thread (started on first use): reads, counts and checks a batch file as on the control node. */
  thread(): FileReader { return this.reader ??= startFileReader(); }

  /** Closes every kept sink and stops the export thread. */
  async close(): Promise<void> {
    for (const { sink } of this.sinks.values()) await sink.close().catch(() => undefined);
    this.sinks.clear();
    this.reader?.stop();
    this.reader = null;
  }
}

/** Sends one export batch from the store; answers its outcome (throws only when the batch cannot be read or on `signal`). */
export async function runExport(env: { store: MediaStore; dir: string; signal: AbortSignal }, sinks: WorkerSinks, job: ExportJobMsg): Promise<ExportOutput> {
  const path = join(env.dir, 'batch.ndjson');
  if (!(await env.store.getFile(job.key, path))) throw new PermanentJobError(`${job.key} missing from the media store`);
  const { body, count, quoted } = await sinks.thread().read(path);
  if (quoted) return { count, bytes: 0, error: 'statistics export: a line was quoted by the CSV writer' };
  if (!count) return { count: 0, bytes: 0, error: null };
  try {
    const { bytes } = await sinks.sink(job).send(sinkBatch(job.batchId, job.destinationId, job.source, body, count), AbortSignal.any([env.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]));
    return { count, bytes, error: null };
  } catch (e) {
    if (env.signal.aborted) throw env.signal.reason;
    return { count, bytes: e instanceof SinkError && e.sent ? e.sent.bytes : body.byteLength, error: String((e as Error)?.message ?? e) };
  }
}
