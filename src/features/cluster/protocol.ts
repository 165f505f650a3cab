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
import type { AsrSegment } from '../../engines/asr/types';
import type { Piece } from '../clips/cut-plan';
import type { BatchSource, DestinationKind } from '../export/store';
import type { ArticleDraft, ArticleInput } from '../../engines/article/types';

/** Work-queue stream of jobs: each message is taken by exactly one worker, removed when acknowledged. */
export const JOB_STREAM = 'VS_JOBS';
/** Results (done or failed), kept until the control node's durable consumer acknowledges them. */
export const RESULT_STREAM = 'VS_RESULTS';
/** The control node's durable consumer of results. */
export const RESULT_CONSUMER = 'control';

/** Encoder classes a transcode may ask for: `any` (every worker) or `gpu` (workers with a usable GPU encoder). */
export type EncoderClass = 'any' | 'gpu';

/** Kinds of job a worker runs: ladder transcode, frame-exact clip cut, poster image, speech recognition, article draft, export batch send. */
export type JobKind = 'transcode' | 'clip' | 'image' | 'subtitle' | 'article' | 'export';

/**
 * A capability a job requires and a worker offers: `any` (every worker), `gpu` (a usable GPU encoder),
 * `lang:<code>` (a speech engine for that language, primary subtag) or `llm` (a chat endpoint for article drafts).
 */
export type Capability = string;

/** The subject token of a capability (`lang:en` -> `lang-en`: NATS tokens and consumer names stay plain). */
export function capToken(cap: Capability): string { return cap.toLowerCase().replace(/[^a-z0-9_-]/g, '-'); }

/** Subjects: jobs by kind and capability, results, progress and cancels by job id. */
export const SUBJECTS = {
  job: (kind: JobKind, cap: Capability) => `vs.jobs.${kind}.${capToken(cap)}`,
  transcode: (cls: EncoderClass) => `vs.jobs.transcode.${cls}`,
  jobsAll: 'vs.jobs.>',
  result: (jobId: string) => `vs.results.${jobId}`,
  progress: (jobId: string) => `vs.progress.${jobId}`,
  progressAll: 'vs.progress.>',
  cancel: (jobId: string) => `vs.cancel.${jobId}`,
  cancelAll: 'vs.cancel.>',
};

/**
 * The durable pull consumer that serves one job subject (work queues need one consumer per subject):
 * `vs.jobs.transcode.any` -> `transcode-any`; an encoder class names the transcode one.
 */
export function consumerOf(subjectOrClass: string): string {
  return subjectOrClass.startsWith('vs.jobs.') ? subjectOrClass.slice('vs.jobs.'.length).replace(/\./g, '-') : `transcode-${subjectOrClass}`;
}

/** A transcode handed to a worker: where the source is, what to make, where the output goes (media store keys). */
export interface TranscodeJobMsg {
  kind?: 'transcode'; jobId: string; gen: number; tenantId: string; assetId: string;
  sourceKey: string; info: MediaInfo; plan: Plan; outPrefix: string;
}

/** A poster frame: drawn from `sourceKey` at `atS`, written as `<outKey>.jpg` and `<outKey>.webp`. */
export interface ImageJobMsg {
  kind: 'image'; jobId: string; gen: number; tenantId: string;
  sourceKey: string; atS: number; width: number; upscale: { w: number; h: number } | null; outKey: string;
}

/** Speech recognition of an asset source's first audio stream with the worker's engine for `language`. */
export interface SubtitleJobMsg {
  kind: 'subtitle'; jobId: string; gen: number; tenantId: string;
  sourceKey: string; language: string; prefer: string | null; prompt: string | null;
}

/**
 * An article draft (`article.draft`): what the engine reads — the programme's guide title and description, the
 * transcript's language, the programme's length and its numbered cues (no database ids: the worker never opens the
 * database). `engine` is `extractive` (built in) or `llm` (the worker's own chat endpoint, `vs.jobs.article.llm`).
 */
export interface ArticleJobMsg {
  kind: 'article'; jobId: string; gen: number; tenantId: string; engine: 'extractive' | 'llm'; input: ArticleInput;
}

/** One piece of a clip's rendition with the media store keys of its init and segment (see clips/cut-plan). */
export type ClipPieceMsg = Piece & { initKey: string; segKey: string };

/** A frame-exact clip cut: per rendition its pieces; the clip's files go under `outPrefix`. */
export interface ClipJobMsg {
  kind: 'clip'; jobId: string; gen: number; tenantId: string; clipId: string;
  renditions: { name: string; pieces: ClipPieceMsg[] }[]; resolution: string | null; outPrefix: string; inputPrefix: string | null;
}

/**
 * One attempt at sending an export batch (issue 49): the batch's NDJSON bytes are in the media store at `key` (put by
 * the control node, removed by it after the result); the destination's kind, settings and opened credentials travel
 * here (see docs/scale-out.md: NATS on a private network or with TLS), with the control node's private-address
 * allowlist. `jobId` is `export-<batch>-<attempt>`.
 */
export interface ExportJobMsg {
  kind: 'export'; jobId: string; gen: number; tenantId: string; destinationId: string; stamp: number;
  batchId: string; source: BatchSource; key: string;
  sink: { kind: DestinationKind; config: Record<string, unknown>; credentials: Record<string, string> | null };
  allowlist: string[];
}

/** Any job message (a transcode message may carry no `kind`: published before job kinds existed). */
export type JobMsg = TranscodeJobMsg | ImageJobMsg | SubtitleJobMsg | ClipJobMsg | ArticleJobMsg | ExportJobMsg;

/** What an image job produced: the two keys written. */
export interface ImageOutput { jpg: string; webp: string }
/** What a recognition produced: the engine and its segments (the control node builds and stores the cues). */
export interface SubtitleOutput { engine: string; compute: string; segments: AsrSegment[] }
/** What an article draft produced: the body, the repairs made (`warnings`), the engine and model (the control node stores it). */
export type ArticleOutput = ArticleDraft;
/** How an export attempt ended: `error` null when the destination acknowledged the batch; lines and bytes sent. */
export interface ExportOutput { count: number; bytes: number; error: string | null }
/** What a clip cut produced: the files under the prefix (relative names) and the variants of its master playlist. */
export interface ClipOutput { files: string[]; variants: { name: string; bandwidth: number; codecs: string | null }[] }

/** What a finished transcode produced (the fields the asset's output needs). */
export type TranscodeOutput = Pick<TranscodeResult, 'encoder' | 'fallbackFrom' | 'audio' | 'files' | 'thumb'> & {
  renditions: { name: string; width: number; height: number; video_k: number }[];
};

/** A worker's report of a job's end. `token` proves the worker may report (checked against revocation). */
export type ResultMsg = { jobId: string; gen: number; token: string; worker: string } & (
  { ok: true; output: TranscodeOutput | ImageOutput | SubtitleOutput | ClipOutput | ArticleOutput | ExportOutput; ms: number } | { ok: false; error: string; permanent: boolean; cancelled?: boolean });

/** The control node's order to stop a job (plain NATS; the job's message is also removed from the stream). */
export interface CancelMsg { jobId: string; gen: number }

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
  for (const cls of ['any', 'gpu'] as const) await ensureJobConsumer(nc, SUBJECTS.transcode(cls), ackWaitMs);
  try { await jsm.consumers.info(RESULT_STREAM, RESULT_CONSUMER); } catch {
    await jsm.consumers.add(RESULT_STREAM, { durable_name: RESULT_CONSUMER, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_deliver: -1, deliver_policy: DeliverPolicy.All });
  }
}

/** Creates (or updates the ack wait of) the durable work-queue consumer of one job subject. */
export async function ensureJobConsumer(nc: NatsConnection, subject: string, ackWaitMs: number): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const cfg = { durable_name: consumerOf(subject), filter_subject: subject, ack_policy: AckPolicy.Explicit, ack_wait: nanos(ackWaitMs), max_deliver: -1, deliver_policy: DeliverPolicy.All };
  try { await jsm.consumers.info(JOB_STREAM, cfg.durable_name); await jsm.consumers.update(JOB_STREAM, cfg.durable_name, { ack_wait: cfg.ack_wait }); } catch { await jsm.consumers.add(JOB_STREAM, cfg); }
}

/** JSON bytes of a message. */
export function encode(v: unknown): Uint8Array { return new TextEncoder().encode(JSON.stringify(v)); }
