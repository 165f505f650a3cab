import { t } from 'elysia';

/** Body of POST /v1/session (studio sign-in). */
export const SignInBody = t.Object({
  email: t.String({ minLength: 1, maxLength: 254 }),
  password: t.String({ maxLength: 1024 }),
}, { additionalProperties: false });

/** Body of PUT /v1/me/tenant. */
export const ChooseTenantBody = t.Object({ tenant: t.String({ minLength: 1, maxLength: 64, description: 'tenant slug or id' }) }, { additionalProperties: false });

/** Body of POST /v1/password-reset. */
export const ResetRequestBody = t.Object({ email: t.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });

/** Body of POST /v1/password-reset/confirm. */
export const ResetConfirmBody = t.Object({
  token: t.String({ minLength: 1, maxLength: 200 }),
  password: t.String({ maxLength: 1024 }),
}, { additionalProperties: false });

/** A person. */
export const UserView = t.Object({ id: t.String(), email: t.String(), name: t.String() });

/** Body of PUT /v1/me/password. */
export const ChangePasswordBody = t.Object({
  current_password: t.String({ maxLength: 1024 }),
  new_password: t.String({ maxLength: 1024 }),
}, { additionalProperties: false });
