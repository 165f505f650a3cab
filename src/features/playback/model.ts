import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';
import { APPLIES_TO_DOC } from '../watermark/applies';

const Ms = Int({ minimum: 0, description: 'epoch milliseconds' });
/** Target fields shared by tokens and sessions (exactly one). */
const targetFields = {
  channel: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'channel slug (live)' })),
  asset: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'asset id (VOD)' })),
  clip: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'clip id' })),
  catchup: t.Optional(t.Object({ channel: t.String({ minLength: 1 }), start: Ms, end: t.Union([Ms, t.Literal('live')]) }, { additionalProperties: false })),
  startover: t.Optional(t.Object({ channel: t.String({ minLength: 1 }), programme: t.String({ minLength: 1 }) }, { additionalProperties: false })),
};

/** Body of POST /v1/playback/tokens. */
export const TokenBody = t.Object({
  ...targetFields,
  ttl_s: t.Optional(Int({ minimum: 0, maximum: 604800, description: '0 = the policy default' })),
  viewer_ip: t.Optional(t.String({ maxLength: 64, description: 'bind the token to this viewer address' })),
  viewer_asn: t.Optional(Int({ minimum: 0, maximum: 4294967295 })),
  viewer_id: t.Optional(t.String({ maxLength: 200 })),
}, { additionalProperties: false });

/** Body of POST /v1/playback/session (public). */
export const SessionBody = t.Object({
  tenant: t.String({ minLength: 1, maxLength: 100, description: 'tenant slug' }),
  ...targetFields,
  page_origin: t.String({ minLength: 1, maxLength: 2000, description: 'origin of the page embedding the player' }),
}, { additionalProperties: false });

/** Playback token answer. */
export const TokenAnswer = t.Object({
  src: t.String(), url: t.String(), token: t.String(), sid: t.String(), expires_at: t.String({ format: 'date-time' }),
  protected: t.Boolean(), thumbs: t.Union([t.String(), t.Null()]),
});

const Rules = {
  require_token: t.Optional(t.Boolean()),
  require_encryption: t.Optional(t.Boolean({ description: 'VOD only as AES-128 HLS' })),
  default_ttl_s: t.Optional(Int({ minimum: 1, maximum: 604800 })),
  bind_viewer_ip: t.Optional(t.Boolean()),
  referrers: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 253 }), { maxItems: 100 })),
  countries: t.Optional(t.Object({ allow: t.Optional(t.Array(t.String({ pattern: '^[A-Za-z]{2}$' }), { maxItems: 250 })), deny: t.Optional(t.Array(t.String({ pattern: '^[A-Za-z]{2}$' }), { maxItems: 250 })) }, { additionalProperties: false })),
  asn_deny: t.Optional(t.Array(Int({ minimum: 0 }), { maxItems: 1000 })),
  block_datacenters: t.Optional(t.Boolean()),
  sessions_per_ip_per_min: t.Optional(Int({ minimum: 0, maximum: 100000, description: 'player sessions one client address (an IPv6 one by its /64) may open per minute; 0 = the default, 120' })),
  leaks: t.Optional(t.Object({
    max_addresses: t.Optional(Int({ minimum: 0, maximum: 1000, description: 'distinct viewer addresses (an IPv6 one by its /64) one session may use within the window; 0 = no limit' })),
    max_networks: t.Optional(Int({ minimum: 0, maximum: 1000, description: 'distinct networks (ASNs); 0 = no limit' })),
    max_countries: t.Optional(Int({ minimum: 0, maximum: 250, description: 'distinct countries; 0 = no limit' })),
    window_s: t.Optional(Int({ minimum: 10, maximum: 86400, description: 'sliding window in seconds (default 300)' })),
    auto_revoke: t.Optional(t.Boolean({ description: 'revoke the session as soon as a leak is suspected (`security.revoked`)' })),
  }, { additionalProperties: false })),
  watermark: t.Optional(t.Object({
    mode: t.Optional(t.Union([t.Literal('off'), t.Literal('ab')], { description: '`ab`: assets under this policy are encoded in two invisibly marked variants and each playback session is served its own A/B sequence of segments, so a leaked copy can be traced to its session (POST /v1/watermark/traces); needs the scope security:manage to set. Applies to encodes made after it is set. Default off' })),
  }, { additionalProperties: false })),
};

/** Body of POST /v1/playback/policies. */
export const PolicyBody = t.Object({ name: t.String({ minLength: 1, maxLength: 200 }), ...Rules }, { additionalProperties: false });
/** Body of PATCH /v1/playback/policies/{id}. */
export const PolicyPatch = t.Object({ name: t.Optional(t.String({ minLength: 1, maxLength: 200 })), ...Rules }, { additionalProperties: false });
/** Body of POST /v1/playback/policies/{id}/attach. */
export const AttachBody = t.Object({
  target_kind: t.Union([t.Literal('tenant'), t.Literal('channel'), t.Literal('asset')]),
  target_id: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'channel slug or asset id; omitted for tenant' })),
}, { additionalProperties: false });
/** Body of POST /v1/security/revocations. */
export const RevokeBody = t.Object({ sid: t.String({ minLength: 1, maxLength: 64 }), reason: t.Optional(t.String({ maxLength: 500 })) }, { additionalProperties: false });

const At = t.String({ format: 'date-time' });
/** Answer of POST /v1/security/revocations. */
export const RevokedView = t.Object({ sid: t.String(), revoked_at: At });
/** One entry of GET /v1/security/revocations. */
export const RevocationView = t.Object({ sid: t.String(), reason: t.Union([t.String(), t.Null()]), revoked_at: At });
/** One signing key (with its secret) of GET /v1/playback/signing-keys. */
export const SigningKeyView = t.Object({
  id: t.String({ description: 'the `kid` in token claims' }),
  alg: t.Literal('HS256'),
  secret: t.String({ description: 'base64url HMAC-SHA256 key' }),
  active: t.Boolean({ description: 'new tokens are signed with the active key' }),
  created_at: At,
  retired_at: t.Union([At, t.Null()]),
});
/** Answer of POST /v1/playback/signing-keys/rotate. */
export const RotatedKeyView = t.Object({ id: t.String(), created_at: At });
/** A playback policy with its rules (defaults filled in) and attach points. */
export const PolicyView = t.Object({
  id: t.String(), name: t.String(),
  require_token: t.Boolean(), require_encryption: t.Boolean(), default_ttl_s: Int(), bind_viewer_ip: t.Boolean(),
  referrers: t.Array(t.String()),
  countries: t.Object({ allow: t.Array(t.String()), deny: t.Array(t.String()) }),
  asn_deny: t.Array(Int()), block_datacenters: t.Boolean(), sessions_per_ip_per_min: Int(),
  leaks: t.Object({ max_addresses: Int(), max_networks: Int(), max_countries: Int(), window_s: Int(), auto_revoke: t.Boolean() }),
  watermark: t.Object({ mode: t.Union([t.Literal('off'), t.Literal('ab')]), applies_to: t.Array(t.Literal('assets'), { description: APPLIES_TO_DOC }) }),
  attached_to: t.Array(t.Object({ target_kind: t.String(), target_id: t.Union([t.String(), t.Null()]) })),
  created_at: At, updated_at: At,
});
