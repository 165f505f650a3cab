/** The boundary every export sink implements (S3, Kafka, HTTPS, GA4). */
import type { ExportEvent } from '../events';
import type { BatchSource } from '../store';

/** One batch as a sink sends it. */
export interface SinkBatch {
  /** Stable across retries and crashes: the object key, message keys and the `X-VS-Batch` header come from it. */
  id: string;
  destinationId: string;
  source: BatchSource;
  /** The events as NDJSON bytes (one line each, `\n` after every line), as read: sinks send them as they are. */
  body: Uint8Array;
  /** The same NDJSON as text (decoded on first call). */
  text(): string;
  /** How many events (lines). */
  count: number;
  /** The events parsed (sinks that send them one by one). */
  events(): ExportEvent[];
}

/** A sink: sends a batch or throws (the worker retries with backoff, then dead-letters). */
export interface Sink {
  /** Sends the batch; resolves with the bytes put on the wire. */
  send(b: SinkBatch, signal: AbortSignal): Promise<{ bytes: number }>;
  /** Releases connections (Kafka producers). */
  close(): Promise<void>;
}

/** A sink failure with a short reason for the delivery log. */
export class SinkError extends Error {}
