import { t } from 'elysia';
import { iso } from '../../kernel/clock';
import type { GlossaryRow } from './glossary-store';

const Term = t.String({ minLength: 1, maxLength: 100, description: 'the word or phrase as it must be written (a name, place, programme)' });
const Variants = t.Array(t.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, description: 'misrecognitions and other spellings corrected into `term` (whole words)' });
const Language = t.Union([t.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$' }), t.Null()], { description: 'BCP 47 language it applies to; null = every language' });

/** POST /v1/glossary body. */
export const GlossaryCreate = t.Object({ term: Term, variants: t.Optional(Variants), language: t.Optional(Language) }, { additionalProperties: false });
/** PATCH /v1/glossary/{id} body: any subset. */
export const GlossaryPatch = t.Object({ term: t.Optional(Term), variants: t.Optional(Variants), language: t.Optional(Language) }, { additionalProperties: false, minProperties: 1 });

/** A glossary entry as the API shows it. */
export const GlossaryView = t.Object({
  id: t.String(), term: t.String(), variants: t.Array(t.String()), language: t.Union([t.String(), t.Null()]),
  created_at: t.String({ format: 'date-time' }), updated_at: t.String({ format: 'date-time' }),
});
/** A page of entries. */
export const GlossaryList = t.Object({ items: t.Array(GlossaryView), next_cursor: t.Union([t.String(), t.Null()]) });

/** The API view of an entry. */
export function glossaryView(r: GlossaryRow) {
  return { id: r.id, term: r.term, variants: JSON.parse(r.variants) as string[], language: r.language, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}
