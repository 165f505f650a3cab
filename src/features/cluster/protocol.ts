/**
 * The cluster's wire protocol over NATS JetStream (issue 49), shared by the control node and `viewstream worker`:
 * a work-queue stream of jobs (one subject per job kind and capability), a stream of results the control node
 * consumes durably (it alone writes metadata), and plain NATS progress messages.
 */
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, RetentionPolicy, StorageType, jetstreamManager } from '@nats-io/jetstream';
import type { MediaInfo } from '../../media/probe-parse';
import type { Plan } from '../../media/ladder';
import type { TranscodeResult } from '../../media/transcode';
import type { MediaStoreConfig } from '../../kernel/media-store';

/** Work-queue stream of jobs: each message is taken by exactly one worker, removed when acknowledged. */
export const JOB_STREAM = 'VS_JOBS';
/** Results (done or failed), kept until the control node's durable consumer acknowledges them. */
export const RESULT_STREAM = 'VS_RESULTS';
/** The control node's durable consumer of results. */
export const RESULT_CONSUMER = 'control';

/** Encoder classes a transcode may ask for: `any` (every worker) or `gpu` (workers with a usable GPU encoder). */
export type EncoderClass = 'any' | 'gpu';

/** Subjects: jobs by kind and capability, results and progress by job id. */
export const SUBJECTS = {
  transcode: (cls: EncoderClass) => `vs.jobs.transcode.${cls}`,
  result: (jobId: string) => `vs.results.${jobId}`,
  progress: (jobId: string) => `vs.progress.${jobId}`,
  progressAll: 'vs.progress.>',
};

/** The durable pull consumer that serves one job subject (work queues need one consumer per subject). */
export function consumerOf(cls: EncoderClass): string { return `transcode-${cls}`; }

/** A transcode handed to a worker: where the source is, what to make, where the output goes (media store keys). */
export interface TranscodeJobMsg {
  jobId: string; gen: number; tenantId: string; assetId: string;
  sourceKey: string; info: MediaInfo; plan: Plan; outPrefix: string;
}

/** What a finished transcode produced (the fields the asset's output needs). */
export type TranscodeOutput = Pick<TranscodeResult, 'encoder' | 'fallbackFrom' | 'audio' | 'files' | 'thumb'> & {
  renditions: { name: string; width: number; height: number; video_k: number }[];
};

/** A worker's report of a job's end. `token` proves the worker may report (checked against revocation). */
export type ResultMsg = { jobId: string; gen: number; token: string; worker: string } & (
  { ok: true; output: TranscodeOutput; ms: number } | { ok: false; error: string; permanent: boolean });

/** A worker's progress report (plain NATS: losing one is harmless). */
export interface ProgressMsg { jobId: string; gen: number; token: string; worker: string; pct: number; eta: number | null }

/** What `GET /cluster/join` answers a worker with a valid token. */
export interface JoinAnswer { worker_id: string; name: string; nats_url: string; media_store: MediaStoreConfig | { kind: 'local'; dir: string }; ack_wait_ms: number }

/**
 * Creates (or updates) the streams and the durable consumers: jobs in a file-backed work queue with a one-hour
 * de-duplication window (a control node that restarts republishes under the same message id), results kept until
 * consumed; consumers ack explicitly with `ackWaitMs` (a worker's heartbeat extends it; a dead worker's job is
 * delivered again when it runs out).
 */
export async function ensureStreams(nc: NatsConnection, ackWaitMs: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const put = async (name: string, cfg: Record<string, unknown>) => {
    try { await jsm.streams.info(name); await jsm.streams.update(name, cfg); } catch { await jsm.streams.add({ name, ...cfg }); }
  };
  await put(JOB_STREAM, { subjects: ['vs.jobs.>'], retention: RetentionPolicy.Workqueue, storage: StorageType.File, duplicate_window: nanos(3_600_000) });
  await put(RESULT_STREAM, { subjects: ['vs.results.>'], retention: RetentionPolicy.Limits, storage: StorageType.File, duplicate_window: nanos(3_600_000) });
  for (const cls of ['any', 'gpu'] as const) {
    const cfg = { durable_name: consumerOf(cls), filter_subject: SUBJECTS.transcode(cls), ack_policy: AckPolicy.Explicit, ack_wait: nanos(ackWaitMs), max_deliver: -1, deliver_policy: DeliverPolicy.All };
    try { await jsm.consumers.info(JOB_STREAM, cfg.durable_name); await jsm.consumers.update(JOB_STREAM, cfg.durable_name, { ack_wait: cfg.ack_wait }); } catch { await jsm.consumers.add(JOB_STREAM, cfg); }
  }
  try { await jsm.consumers.info(RESULT_STREAM, RESULT_CONSUMER); } catch {
    await jsm.consumers.add(RESULT_STREAM, { durable_name: RESULT_CONSUMER, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_deliver: -1, deliver_policy: DeliverPolicy.All });
  }
}

/** JSON bytes of a message. */
export function encode(v: unknown): Uint8Array { return new TextEncoder().encode(JSON.stringify(v)); }
