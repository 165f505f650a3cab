import { t } from 'elysia';

/** Body of POST /v1/connect/authorize. */
export const AuthorizeBody = t.Object({
  redirect_uri: t.String({ minLength: 1, maxLength: 2000, description: 'where the site receives `code` and `state`: https on the site\'s own origin (plain http only for localhost), no user info or fragment' }),
  state: t.String({ maxLength: 500, description: 'opaque value from the site, returned unchanged; mandatory' }),
  code_challenge: t.String({ maxLength: 128, description: 'PKCE challenge: base64url(SHA-256(code_verifier))' }),
  code_challenge_method: t.String({ maxLength: 10, description: 'only `S256`' }),
  scopes: t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: 64, description: 'a subset of the approving person\'s scopes' }),
  site_name: t.Optional(t.String({ maxLength: 200, description: 'display name of the site' })),
}, { additionalProperties: false });

/** Answer of POST /v1/connect/authorize. */
export const AuthorizeAnswer = t.Object({
  code: t.String({ description: 'one-time code, valid 60 seconds' }),
  state: t.String(),
  redirect_to: t.String({ description: 'redirect_uri with `code` and `state` added' }),
  expires_in: t.Integer(),
});

/** Body of POST /v1/connect/token. */
export const TokenBody = t.Object({
  code: t.String({ minLength: 1, maxLength: 200 }),
  code_verifier: t.String({ minLength: 1, maxLength: 200 }),
  redirect_uri: t.String({ minLength: 1, maxLength: 2000, description: 'identical to the one approved' }),
}, { additionalProperties: false });

/** Answer of POST /v1/connect/token. */
export const TokenAnswer = t.Object({
  key: t.String({ description: 'the site\'s API key (shown once)' }),
  key_id: t.String({ format: 'uuid' }),
  scopes: t.Array(t.String()),
  tenant: t.String({ description: 'tenant slug' }),
});
