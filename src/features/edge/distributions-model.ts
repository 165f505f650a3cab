import { t } from 'elysia';

const Hostname = t.String({ minLength: 1, maxLength: 253, description: 'a DNS host name served by the edge (lower case; no wildcard, no IP address)' });
const Methods = t.Array(t.Union(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => t.Literal(m))), {
  minItems: 1, maxItems: 7, description: 'methods the edge passes on (must include GET; others answer 405). Only GET and HEAD are ever cached. Default `["GET", "HEAD"]`.',
});

/** Where a distribution's answers come from. */
export const OriginSchema = t.Union([
  t.Object({ kind: t.Literal('delivery', { description: "the tenant's own delivery (not for CDN-only tenants): the hostname serves its playback paths" }) }, { additionalProperties: false }),
  t.Object({
    kind: t.Literal('url', { description: 'an external origin' }),
    url: t.String({ minLength: 8, maxLength: 2048, description: 'http(s) URL of the origin, optionally with a base path; private and loopback addresses are refused unless the operator allows them (VS_CDN_ORIGIN_ALLOW)' }),
  }, { additionalProperties: false }),
]);

/** Cache rules of a distribution with an external origin. */
export const CacheRulesSchema = t.Object({
  ttl_overrides: t.Optional(t.Array(t.Object({
    path: t.String({ minLength: 1, maxLength: 256, description: 'a path pattern: `*` matches any characters (`/videos/*`, `/*.m3u8`); without `*`, that exact path' }),
    ttl_s: t.Integer({ minimum: 0, maximum: 31_536_000, description: 'seconds an answer (200, 206, 301, 302, 404) stays cached whatever the origin says; 0 = never cached' }),
  }, { additionalProperties: false }), { maxItems: 50, description: 'the first matching pattern wins; paths no pattern matches follow the origin\'s Cache-Control' })),
  default_ttl_s: t.Optional(t.Integer({ minimum: 0, maximum: 31_536_000, description: 'seconds to keep answers the origin gives no Cache-Control or Expires for (default 0: not cached)' })),
  query_string: t.Optional(t.Union([t.Literal('include'), t.Literal('ignore'), t.Literal('allow_list')], { description: 'the query in the cache key: whole (default), none, or only the `query_allow` parameters. The origin always gets the request as sent.' })),
  query_allow: t.Optional(t.Array(t.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), { maxItems: 20, description: 'with `query_string: allow_list`: the parameters that make a different object' })),
}, { additionalProperties: false });

/** Paths of a TLS certificate chain and its key (PEM; read by the edge, never served or answered). */
export const TlsSchema = t.Object({
  certificate_file: t.String({ minLength: 2, maxLength: 1024, description: 'absolute path of the PEM certificate chain, readable by the service' }),
  key_file: t.String({ minLength: 2, maxLength: 1024, description: 'absolute path of its PEM private key, readable by the service' }),
}, { additionalProperties: false });

/** POST /v1/cdn/distributions. */
export const DistributionCreate = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  hostnames: t.Array(Hostname, { minItems: 1, maxItems: 20, description: 'unique across the whole edge (a hostname another distribution holds: 409)' }),
  origin: OriginSchema,
  cache_rules: t.Optional(CacheRulesSchema),
  allowed_methods: t.Optional(Methods),
  tls: t.Optional(t.Union([TlsSchema, t.Null()])),
  enabled: t.Optional(t.Boolean({ description: 'default true; a disabled distribution\'s hostnames answer 421' })),
}, { additionalProperties: false });

/** PATCH /v1/cdn/distributions/{id}: any of the create fields. */
export const DistributionPatch = t.Partial(DistributionCreate, { additionalProperties: false });

/** A distribution as the API answers it. */
export const DistributionView = t.Object({
  id: t.String(), name: t.String(), hostnames: t.Array(t.String()),
  origin: t.Object({ kind: t.String(), url: t.Optional(t.String()) }),
  cache_rules: t.Object({
    ttl_overrides: t.Array(t.Object({ path: t.String(), ttl_s: t.Integer() })), default_ttl_s: t.Integer(),
    query_string: t.String(), query_allow: t.Array(t.String()),
  }),
  allowed_methods: t.Array(t.String()),
  tls: t.Union([t.Object({ certificate_file: t.String(), key_file: t.String(), names: t.Array(t.String()), not_after: t.String() }), t.Null()]),
  enabled: t.Boolean(),
  edge: t.Object({ active: t.Boolean({ description: 'true once the running edge serves the hostnames as configured' }) }),
  created_at: t.String(), updated_at: t.String(),
});

/** A page of distributions. */
export const DistributionList = t.Object({ items: t.Array(DistributionView) });
