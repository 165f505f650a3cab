import { t } from 'elysia';

/** One audit log entry. */
export const AuditEntryView = t.Object({
  id: t.String({ format: 'uuid' }),
  at: t.String({ format: 'date-time' }),
  action: t.String({ description: 'what happened (open set)' }),
  actor: t.Object({
    kind: t.Union([t.Literal('user'), t.Literal('key'), t.Literal('anonymous')]),
    id: t.Union([t.String(), t.Null()], { description: 'user id or API key id' }),
    label: t.String({ description: 'e-mail of the person (or the address tried, for failed sign-ins)' }),
  }),
  ip: t.Union([t.String(), t.Null()]),
  target: t.Union([t.String(), t.Null()], { description: 'the object acted on (key id, user id, ...)' }),
  details: t.Record(t.String(), t.Unknown()),
});
