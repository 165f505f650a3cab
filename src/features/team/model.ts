import { t } from 'elysia';
import { ROLES } from '../../kernel/http/scopes';

const Role = t.Union(ROLES.map((r) => t.Literal(r)), { description: 'studio role; its scopes follow the scope table' });

/** A team member. */
export const MemberView = t.Object({
  user_id: t.String({ format: 'uuid' }), email: t.String(), name: t.String(), role: t.String(),
  joined_at: t.String({ format: 'date-time' }),
});

/** Body of PATCH /v1/team/members/{user_id}. */
export const RoleBody = t.Object({ role: Role }, { additionalProperties: false });

/** Body of POST /v1/team/invitations. */
export const InviteBody = t.Object({ email: t.String({ minLength: 3, maxLength: 254 }), role: Role }, { additionalProperties: false });

/** A pending invitation. */
export const InvitationView = t.Object({
  id: t.String({ format: 'uuid' }), email: t.Union([t.String(), t.Null()]), role: t.String(),
  created_at: t.String({ format: 'date-time' }), expires_at: t.String({ format: 'date-time' }),
});

/** Answer of POST /v1/team/invitations. */
export const CreatedInvitation = t.Composite([InvitationView, t.Object({
  mailed: t.Boolean({ description: 'true when the link was e-mailed' }),
  accept_url: t.Optional(t.String({ description: 'the single-use link, only when it could not be e-mailed (no SMTP configured)' })),
})]);

/** Body of POST /v1/invitations/accept (studio). */
export const AcceptBody = t.Object({
  token: t.String({ minLength: 1, maxLength: 200 }),
  email: t.Optional(t.String({ maxLength: 254 })),
  name: t.Optional(t.String({ maxLength: 200 })),
  password: t.String({ maxLength: 1024 }),
}, { additionalProperties: false });
