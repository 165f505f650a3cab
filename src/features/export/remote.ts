/**
 * Export batches sent elsewhere (issue 49): when the job cluster is linked it sets `send` at start, and each attempt
 * at a batch is handed to a worker machine, which sends it with the same sink code. This node still cuts the batches
 * (positions and batch rows: it alone writes them) and applies each outcome as it applies a local send (delivery log,
 * retry schedule, dead letter). Unset (one box), batches are sent here.
 */
import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import type { BatchBody, ExportEvent } from './events';
import type { SinkBatch } from './sinks/types';
import type { BatchRow, BatchSource, DestinationRow } from './store';

/**
 * A batch ready to send: its NDJSON bytes in hand, or — a statistics batch to a sink that reads files itself (https:
 * read, compress, sign and send in the export thread) — DuckDB's file, not yet read (removed by whoever uses it).
 */
export type PreparedBatch = BatchBody | { path: string };

/** One attempt at a batch handed elsewhere: the destination with its opened credentials, and the batch's bytes on demand. */
export interface RemoteBatch {
  destination: DestinationRow; credentials: Record<string, string> | null; batch: BatchRow;
  /** Reads the batch (not called when an attempt begun before a restart is still out, or already has its outcome). */
  prepare(): Promise<PreparedBatch>;
}

/** How an attempt ended: `error` null when the destination acknowledged it; lines and bytes put on the wire. */
export interface RemoteOutcome { count: number; bytes: number; error: string | null; worker: string | null }

/** Sends one attempt elsewhere and answers its outcome; null when `stop` ended the wait (the attempt stays out). */
export type RemoteSender = (b: RemoteBatch, stop: AbortSignal) => Promise<RemoteOutcome | null>;

const SENDER = slotKey<{ send: RemoteSender | null }>('export.remote-sender');

/** The app's remote sender holder: `send` is null (batches sent here) unless the job cluster set one. */
export function exportSenderOf(ctx: Pick<AppContext, 'slots'>): { send: RemoteSender | null } {
  return ctx.slots.get(SENDER, () => ({ send: null }));
}

/** A batch as the sinks take it: its bytes, with the text and the parsed events made on first use. */
export function sinkBatch(id: string, destinationId: string, source: BatchSource, body: Uint8Array, count: number): SinkBatch {
  let text: string | null = null;
  let parsed: ExportEvent[] | null = null;
  const batch: SinkBatch = {
    id, destinationId, source, body, count,
    text: () => text ??= new TextDecoder().decode(body),
    events: () => parsed ??= batch.text().trimEnd().split('\n').map((l) => JSON.parse(l) as ExportEvent),
  };
  return batch;
}
