import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { Cursor, Limit, answers } from '../meta/model';
import { GlossaryCreate, GlossaryList, GlossaryPatch, GlossaryView, glossaryView } from './glossary-model';
import { GlossaryService } from './glossary-service';

const G = 'Assets';

/** /v1/glossary: the tenant glossary of names, places and programme names (issue 43; docs/subtitles.md). */
export function glossaryRoutes(ctx: AppContext) {
  const svc = new GlossaryService(ctx);
  return new Elysia({ prefix: '/v1/glossary' })
    .use(ctx.http)
    .get('', ({ principal: p, query }) => {
      const page = svc.list(p.tenantId, query.language ?? null, query.cursor, parseLimit(query.limit, 100, 500));
      return { items: page.items.map(glossaryView), next_cursor: page.next_cursor };
    }, {
      auth: { scope: 'assets:read' },
      query: t.Object({ language: t.Optional(t.String({ maxLength: 35, description: 'that language\'s entries and those for every language' })), limit: Limit(500, 100), cursor: Cursor }),
      detail: doc(G, 'List glossary entries', 'רשימת ערכי המילון', 'Oldest first; `language` keeps that language\'s entries and those for every language; `limit` 1-500 (default 100).', answers({ 200: GlossaryList })),
    })
    .post('', ({ principal: p, body, set }) => { set.status = 201; return glossaryView(svc.create(p.tenantId, body)); }, {
      auth: { scope: 'assets:write' }, body: GlossaryCreate,
      detail: doc(G, 'Add a glossary entry', 'הוספת ערך למילון',
        'A term as it must be written, with the misrecognitions and spellings to correct into it and its language (none: every language). Terms are the speech engine\'s prompt; variants are corrected after recognition. The same term for the same language twice answers 409.',
        { 'x-problems': [409], ...answers({ 201: GlossaryView }) }),
    })
    .get('/:entry', ({ principal: p, params }) => glossaryView(svc.get(p.tenantId, params.entry)), {
      auth: { scope: 'assets:read' }, params: t.Object({ entry: t.String() }),
      detail: doc(G, 'Get a glossary entry', 'ערך במילון', 'One entry of the tenant glossary.', answers({ 200: GlossaryView })),
    })
    .patch('/:entry', ({ principal: p, params, body }) => glossaryView(svc.update(p.tenantId, params.entry, body)), {
      auth: { scope: 'assets:write' }, params: t.Object({ entry: t.String() }), body: GlossaryPatch,
      detail: doc(G, 'Change a glossary entry', 'שינוי ערך במילון', 'Any subset of `term`, `variants` (replaces the list) and `language`; a term that another entry has for the same language answers 409.', { 'x-problems': [409], ...answers({ 200: GlossaryView }) }),
    })
    .delete('/:entry', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.entry); set.status = 204; return null; }, {
      auth: { scope: 'assets:write' }, params: t.Object({ entry: t.String() }),
      detail: doc(G, 'Delete a glossary entry', 'מחיקת ערך מהמילון', 'Removes the entry; tracks corrected before keep their text.', answers({ 204: null })),
    });
}
