/**
 * Kafka sink (kafkajs, which runs under Bun): each event is one message on the destination's topic, keyed by the
 * tenant (so a tenant's events land on one partition, in order: Kafka orders only within a partition) with the
 * event's `id` in the `vs-event-id` header (a consumer dedupes a repeat by it), gzip-compressed, acknowledged by all
 * in-sync replicas (`acks: -1`).
 * One producer per destination, connected on first use and kept. Idempotent production is off: the batch may be
 * sent again after a crash or a timeout (at-least-once), and librdkafka's mock cluster used in tests has no
 * idempotence either.
 */
import { CompressionTypes, Kafka, logLevel, type Producer } from 'kafkajs';
import { SinkError, type Sink } from './types';

/** Kafka destination settings (`sasl_*` sealed at rest when given). */
export interface KafkaSettings { brokers: string[]; topic: string; client_id: string; ssl: boolean; sasl_username?: string; sasl_password?: string }

/** A Kafka sink for one destination. */
export function kafkaSink(s: KafkaSettings): Sink {
  const kafka = new Kafka({
    clientId: s.client_id, brokers: s.brokers, ssl: s.ssl, logLevel: logLevel.NOTHING, connectionTimeout: 5_000, requestTimeout: 15_000,
    retry: { retries: 0 }, // our worker retries with its own schedule (and dead-letters)
    ...(s.sasl_username ? { sasl: { mechanism: 'plain' as const, username: s.sasl_username, password: s.sasl_password ?? '' } } : {}),
  });
  let producer: Producer | null = null;
  let connecting: Promise<Producer> | null = null;
  const connected = () => connecting ??= (async () => {
    const p = kafka.producer({ allowAutoTopicCreation: true, idempotent: false });
    await p.connect();
    producer = p;
    return p;
  })().catch((e) => { connecting = null; throw e; });
  return {
    async send(b) {
      let bytes = 0;
      const messages = b.events().map((e) => {
        const value = JSON.stringify(e);
        bytes += value.length + e.id.length;
        return { key: e.tenant_id, value, headers: { 'vs-event-id': e.id, 'vs-event-type': e.type }, timestamp: String(Date.parse(e.at)) };
      });
      try {
        const p = await connected();
        await p.send({ topic: s.topic, acks: -1, compression: CompressionTypes.GZIP, messages });
      } catch (e) {
        // A broken connection is rebuilt on the next attempt.
        const p = producer;
        producer = null; connecting = null;
        if (p) void p.disconnect().catch(() => {});
        throw new SinkError(`Kafka: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
      }
      return { bytes };
    },
    async close() { const p = producer; producer = null; connecting = null; if (p) await p.disconnect().catch(() => {}); },
  };
}
