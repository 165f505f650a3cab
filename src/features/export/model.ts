import { t } from 'elysia';

const Str = (o: Record<string, unknown> = {}) => t.String({ minLength: 1, maxLength: 2048, ...o });

/** Settings of an `s3` destination. */
export const S3Body = t.Object({
  endpoint: Str({ description: 'S3 endpoint URL (https; http only for allowlisted private addresses)' }),
  bucket: t.String({ minLength: 3, maxLength: 63 }), region: t.Optional(t.String({ maxLength: 64, description: 'default us-east-1' })),
  prefix: t.Optional(t.String({ maxLength: 512, description: 'key prefix (default `viewstream/`)' })),
  access_key_id: Str(), secret_access_key: Str({ description: 'sealed at rest, never shown again' }),
}, { additionalProperties: false });

/** Settings of a `kafka` destination. */
export const KafkaBody = t.Object({
  brokers: t.Array(t.String({ minLength: 3, maxLength: 255, description: 'host:port' }), { minItems: 1, maxItems: 16 }),
  topic: t.String({ minLength: 1, maxLength: 249, pattern: '^[A-Za-z0-9._-]+$' }),
  client_id: t.Optional(t.String({ maxLength: 100, description: 'default `viewstream`' })),
  ssl: t.Optional(t.Boolean()), sasl_username: t.Optional(Str()), sasl_password: t.Optional(Str({ description: 'SASL/PLAIN; sealed at rest' })),
}, { additionalProperties: false });

/** Settings of an `https` destination (the signing secret is made by us and shown once). */
export const HttpsBody = t.Object({
  url: Str({ description: 'receiver URL (https; http only for allowlisted private addresses)' }),
  gzip: t.Optional(t.Boolean({ description: 'send each batch gzip-compressed (`Content-Encoding: gzip`, ~6x fewer bytes); the signature covers the compressed body as sent. Default false' })),
}, { additionalProperties: false });

/** Settings of a `ga4` destination. */
export const Ga4Body = t.Object({
  measurement_id: t.String({ minLength: 2, maxLength: 64, pattern: '^G-[A-Z0-9]+$' }),
  api_secret: Str({ description: 'Measurement Protocol API secret; sealed at rest' }),
  endpoint: t.Optional(Str({ description: 'default https://www.google-analytics.com (a local server in tests)' })),
}, { additionalProperties: false });

/** What flows to a destination. */
export const EventsBody = t.Object({
  platform: t.Optional(t.Array(t.String({ maxLength: 64 }), { maxItems: 64, description: 'webhook event types, `["*"]` for all, `[]` for none (default all)' })),
  statistics: t.Optional(t.Array(t.Union([t.Literal('player_events'), t.Literal('edge_requests')]), { maxItems: 2, description: 'statistics events (default none)' })),
  statistics_pii: t.Optional(t.Boolean({ description: 'include viewer-level columns (viewer id, hashed IP, page URL, user agent, referrer); needs stats:pii' })),
}, { additionalProperties: false });

/** Batching of a destination. */
export const BatchBody = t.Object({
  max_events: t.Optional(t.Integer({ minimum: 1, maximum: 10_000, description: 'default 500' })),
  max_age_s: t.Optional(t.Number({ minimum: 0.1, maximum: 300, description: 'default 5' })),
}, { additionalProperties: false });

/** POST /v1/event-destinations body. */
export const CreateDestinationBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100 }),
  kind: t.Union([t.Literal('s3'), t.Literal('kafka'), t.Literal('https'), t.Literal('ga4')]),
  s3: t.Optional(S3Body), kafka: t.Optional(KafkaBody), https: t.Optional(HttpsBody), ga4: t.Optional(Ga4Body),
  events: t.Optional(EventsBody), batch: t.Optional(BatchBody), enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false });

/** PATCH body: name, selection, batching, enabled (a disabled destination keeps its position). */
export const PatchDestinationBody = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 100 })), events: t.Optional(EventsBody), batch: t.Optional(BatchBody), enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false });

/** A destination as the API shows it (credentials never). */
export const DestinationView = t.Object({
  id: t.String(), name: t.String(), kind: t.String(), enabled: t.Boolean(),
  settings: t.Record(t.String(), t.Unknown(), { description: 'the kind\'s settings without secrets' }),
  events: t.Object({ platform: t.Array(t.String()), statistics: t.Array(t.String()), statistics_pii: t.Boolean() }),
  batch: t.Object({ max_events: t.Integer(), max_age_s: t.Number() }),
  position: t.Object({ platform_seq: t.Integer(), player_events_at: t.String(), edge_requests_at: t.String() }),
  queue: t.Object({ pending: t.Integer(), dead: t.Integer() }),
  secret: t.Optional(t.String({ description: 'https only, in the creation answer only: the signing secret' })),
  created_at: t.String(), updated_at: t.String(),
});

/** A batch in the delivery log / dead-letter queue. */
export const BatchView = t.Object({
  id: t.String(), source: t.String(), replay: t.Boolean(), status: t.String({ description: 'pending, delivered or dead' }),
  range: t.Object({ from: t.Number(), to: t.Number(), unit: t.String({ description: 'seq (platform: after from, up to to) or ms (statistics: from, before to)' }) }),
  events: t.Union([t.Integer(), t.Null()]), bytes: t.Union([t.Integer(), t.Null()]), attempts: t.Integer(),
  latency_ms: t.Union([t.Integer(), t.Null()]), last_error: t.Union([t.String(), t.Null()]),
  next_attempt_at: t.Union([t.String(), t.Null()]), created_at: t.String(), delivered_at: t.Union([t.String(), t.Null()]),
});

/** A page of batches. */
export const BatchList = t.Object({ items: t.Array(BatchView), next_cursor: t.Union([t.String(), t.Null()]) });

/** POST .../replay body: a time range of events to send again. */
export const ReplayBody = t.Object({
  from: t.String({ description: 'RFC 3339' }), to: t.String({ description: 'RFC 3339; at most 31 days after from' }),
}, { additionalProperties: false });
