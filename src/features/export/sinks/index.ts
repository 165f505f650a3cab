/** Builds the sink of a destination from its stored settings and opened credentials. */
import type { FileReader } from '../read-thread';
import type { DestinationKind, DestinationRow } from '../store';
import { ga4Sink } from './ga4';
import { httpsSink } from './https';
import { kafkaSink } from './kafka';
import { s3Sink } from './s3';
import type { Sink } from './types';

/** What a sink runs with besides its settings: the private-address allowlist, the clock and the export thread. */
export interface SinkEnv { allowlist: string[]; now: () => number; thread: () => FileReader }

/** The sink for a destination row (`creds`: its opened credentials). */
export function sinkFor(d: DestinationRow, creds: Record<string, string> | null, o: SinkEnv): Sink {
  return sinkOf(d.kind, JSON.parse(d.config) as Record<string, unknown>, creds, o);
}

/**
 * The sink of a kind from its settings (`config`, as stored) and opened credentials: the same code on the control
 * node and on a cluster worker that sends the batch (issue 49).
 */
export function sinkOf(kind: DestinationKind, c: Record<string, unknown>, creds: Record<string, string> | null, o: SinkEnv): Sink {
  const k = creds ?? {};
  switch (kind) {
    case 's3': return s3Sink({ endpoint: String(c.endpoint), bucket: String(c.bucket), region: String(c.region), prefix: String(c.prefix ?? ''), access_key_id: String(c.access_key_id), secret_access_key: k.secret_access_key ?? '' });
    case 'kafka': return kafkaSink({ brokers: c.brokers as string[], topic: String(c.topic), client_id: String(c.client_id), ssl: c.ssl === true, ...(c.sasl_username ? { sasl_username: String(c.sasl_username), sasl_password: k.sasl_password ?? '' } : {}) });
    case 'https': return httpsSink({ url: String(c.url), secret: k.secret ?? '', gzip: c.gzip === true, allowlist: o.allowlist, now: o.now, thread: o.thread });
    case 'ga4': return ga4Sink({ endpoint: String(c.endpoint), measurement_id: String(c.measurement_id), api_secret: k.api_secret ?? '' }, o);
  }
}
