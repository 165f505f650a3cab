import { t } from 'elysia';
import { ALL_SCOPES, ROLES } from '../../kernel/http/scopes';

/** Body of POST /v1/api-keys. */
export const CreateKeyBody = t.Object({
  name: t.Optional(t.String({ maxLength: 200, description: 'label shown in lists' })),
  role: t.Optional(t.Union(ROLES.map((r) => t.Literal(r)), { description: 'grant the scopes of this studio role' })),
  scopes: t.Optional(t.Array(t.Union(ALL_SCOPES.map((s) => t.Literal(s))), { minItems: 1, maxItems: ALL_SCOPES.length, description: 'explicit scope list (instead of role)' })),
}, { additionalProperties: false });

/** An API key as listed (never the secret). */
export const KeyView = t.Object({
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  role: t.Union([t.String(), t.Null()]),
  prefix: t.String({ description: 'first characters of the key, to recognise it' }),
  scopes: t.Array(t.String()),
  created_at: t.String({ format: 'date-time' }),
  revoked_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
});

/** Answer of POST /v1/api-keys: the key view plus the full secret, shown once. */
export const CreatedKey = t.Composite([KeyView, t.Object({ key: t.String({ description: 'the full API key; shown only in this answer' }) })]);

/** Answer of GET /v1/me. */
export const MeView = t.Object({
  auth: t.Union([t.Literal('api_key'), t.Literal('session')]),
  user: t.Union([t.Null(), t.Object({ id: t.String(), email: t.String(), name: t.String() })], { description: 'null with an API key; the signed-in person with a session' }),
  tenants: t.Array(t.Object({ id: t.String(), slug: t.String(), name: t.String(), role: t.String(), cdn_only: t.Boolean() })),
  current_tenant: t.Union([t.Object({ id: t.String(), slug: t.String(), name: t.String(), role: t.String(), cdn_only: t.Boolean(), cdn_hostname: t.String() }), t.Null()], { description: 'null for a session until a tenant is chosen' }),
  scopes: t.Array(t.String()),
  key: t.Optional(t.Object({ id: t.String(), name: t.String() }, { description: 'API keys only' })),
});
