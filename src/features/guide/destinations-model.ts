/** Schemas of guide publishing destinations (issue 48). */
import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

const At = t.String({ format: 'date-time' });
const Common = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  format: t.Optional(t.Union([t.Literal('xmltv'), t.Literal('json')], { description: 'what is pushed: XMLTV (default) or its JSON form' })),
  channels: t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: 50, description: 'channel ids whose guide the destination receives' }),
  days_behind: t.Optional(Int({ minimum: 0, maximum: 14, description: 'days before today included (default 1)' })),
  days_ahead: t.Optional(Int({ minimum: 0, maximum: 31, description: 'days after today included (default 7)' })),
  timezone: t.Optional(t.String({ maxLength: 64, description: 'IANA zone of the window and of the times written (default UTC)' })),
  retries: t.Optional(Int({ minimum: 0, maximum: 10, description: 'attempts after the first (default 3)' })),
  retry_delay_s: t.Optional(Int({ minimum: 1, maximum: 3600, description: 'delay before the first retry, doubling after each (default 60)' })),
  enabled: t.Optional(t.Boolean()),
};
const Https = t.Object({ url: t.String({ maxLength: 2000 }), method: t.Optional(t.Union([t.Literal('POST'), t.Literal('PUT')])) }, { additionalProperties: false });
const Sftp = t.Object({
  host: t.String({ minLength: 1, maxLength: 255 }), port: t.Optional(Int({ minimum: 1, maximum: 65535 })), username: t.String({ minLength: 1, maxLength: 100 }),
  path: t.String({ minLength: 1, maxLength: 1000, description: 'remote file path, e.g. `/upload/epg.xml` (written under a temporary name, then renamed)' }),
  private_key: t.Optional(t.String({ maxLength: 20000, description: 'OpenSSH private key (PEM)' })), password: t.Optional(t.String({ maxLength: 500 })),
  host_key_sha256: t.Optional(t.String({ maxLength: 100, description: 'the server key fingerprint as `ssh-keygen -l` prints it (`SHA256:...`); checked on every connection when given' })),
}, { additionalProperties: false });
const S3 = t.Object({
  endpoint: t.String({ maxLength: 2000 }), bucket: t.String({ minLength: 1, maxLength: 255 }), region: t.Optional(t.String({ maxLength: 64 })),
  key: t.String({ minLength: 1, maxLength: 1000, description: 'object key written (overwritten by every delivery)' }),
  access_key_id: t.String({ minLength: 1, maxLength: 200 }), secret_access_key: t.String({ minLength: 1, maxLength: 500 }),
}, { additionalProperties: false });

/** Body of POST /v1/guide/destinations. */
export const CreateDestinationBody = t.Object({
  ...Common,
  kind: t.Union([t.Literal('https'), t.Literal('sftp'), t.Literal('s3'), t.Literal('pull')], { description: '`pull`: nothing is pushed; the partner reads `pull_url`' }),
  https: t.Optional(Https), sftp: t.Optional(Sftp), s3: t.Optional(S3),
}, { additionalProperties: false });
/** Body of PATCH /v1/guide/destinations/{id}. */
export const PatchDestinationBody = t.Partial(t.Object({ ...Common, rotate_token: t.Boolean({ description: 'a new pull token (the old pull URL stops working)' }) }, { additionalProperties: false }));

/** Parsed create input. */
export type CreateDestination = typeof CreateDestinationBody.static;
/** Parsed patch input. */
export type PatchDestination = typeof PatchDestinationBody.static;

const Attempt = t.Object({
  id: t.String(), delivery: t.String({ description: 'stable across the retries of one delivery (also `X-VS-Delivery`)' }), attempt: Int(),
  trigger: t.String({ description: '`publish:<channel slug>:<version>`, `test`' }),
  status: t.String({ description: '`delivered`, `retrying` (another attempt at `next_at`), `failed` (the last attempt; `epg.delivery_failed`)' }),
  detail: t.Union([t.String(), t.Null()]), bytes: t.Union([Int(), t.Null()]), ms: t.Union([Int(), t.Null()]), next_at: t.Union([At, t.Null()]), at: At,
});
/** One delivery attempt. */
export const DeliveryView = Attempt;
/** A destination as answered (credentials never shown; the HTTPS signing secret once, at creation). */
export const DestinationView = t.Object({
  id: t.String(), name: t.String(), kind: t.String(), format: t.String(), channels: t.Array(t.String()),
  days_behind: Int(), days_ahead: Int(), timezone: t.String(), retries: Int(), retry_delay_s: Int(), enabled: t.Boolean(),
  https: t.Optional(t.Object({ url: t.String(), method: t.String() })),
  sftp: t.Optional(t.Object({ host: t.String(), port: Int(), username: t.String(), path: t.String(), auth: t.String({ description: '`key` or `password`' }), host_key_sha256: t.Union([t.String(), t.Null()]) })),
  s3: t.Optional(t.Object({ endpoint: t.String(), bucket: t.String(), region: t.String(), key: t.String(), access_key_id: t.String() })),
  pull_url: t.String({ description: 'GET it (no API key) for the guide as XMLTV, `&format=json` for JSON; answers an ETag and 304 to If-None-Match' }),
  secret: t.Optional(t.String({ description: 'HTTPS signing secret (`whsec_...`), answered once' })),
  last_delivery: t.Union([Attempt, t.Null()]),
  created_at: At, updated_at: At,
});
/** Answer of POST .../test. */
export const TestAnswer = t.Object({ ok: t.Boolean(), detail: t.Union([t.String(), t.Null()]), bytes: Int(), ms: Int() });
