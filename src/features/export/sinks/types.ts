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

/** A statistics batch as DuckDB wrote it and nobody has read yet (the file goes away once sent or refused). */
export interface SinkFile { id: string; destinationId: string; source: BatchSource; path: string }

/** A sink: sends a batch or throws (the worker retries with backoff, then dead-letters). */
export interface Sink {
  /** Sends the batch; resolves with the bytes put on the wire. */
  send(b: SinkBatch, signal: AbortSignal): Promise<{ bytes: number }>;
  /**
   * Sinks that read the file themselves, off the event loop (https): sends a statistics batch from DuckDB's file and
   * removes it; resolves with the lines sent (0: nothing was sent) and the bytes put on the wire.
   */
  sendFile?(f: SinkFile, signal: AbortSignal): Promise<{ count: number; bytes: number }>;
  /** Releases connections (Kafka producers). */
  close(): Promise<void>;
}

/** A sink failure with a short reason for the delivery log (`sent`: what the attempt read and put out, when known). */
export class SinkError extends Error {
  constructor(message: string, readonly sent?: { count: number; bytes: number }) { super(message); }
}
