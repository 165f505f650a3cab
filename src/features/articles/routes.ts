import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { parseLimit } from '../../kernel/http/pagination';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { ARTICLE_DOCS as D } from './doc';
import { ArtifactList, ArtifactQuery, ArtifactView, PatchArtifactBody, ProgrammeArticle, RejectBody, RequestAnswer, RequestArticleBody, TranscriptView } from './model';
import { programmeUrl } from '../sites/urls';
import type { SitePageFinder } from './page';
import { ArticleService } from './service';

const T = 'AI articles';
const Id = t.Object({ id: t.String() });

/** The `AI articles` group: drafts of programmes, the artifacts inbox, edit / approve / reject (issue 45; docs/articles.md). */
export function articleRoutes(ctx: AppContext, sitePage: SitePageFinder = (tenantId, programmeId) => programmeUrl(ctx, tenantId, programmeId)) {
  const svc = new ArticleService(ctx, sitePage);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/programmes/:id/article', ({ principal: p, params, body, set }) => {
      set.status = 202;
      return svc.request(p.tenantId, params.id, body ?? {});
    }, {
      auth: { scope: 'assets:write' }, params: Id, body: t.Optional(RequestArticleBody),
      detail: doc(T, 'Ask for an article draft of a programme', 'בקשת טיוטת כתבה לתוכנית', D.request, { 'x-problems': [404, 409, 422], ...answers({ 202: RequestAnswer }) }),
    })
    .get('/v1/programmes/:id/article', ({ principal: p, params }) => svc.ofProgramme(p.tenantId, params.id), {
      auth: { scope: 'ai:read' }, params: Id,
      detail: doc(T, "Get a programme's article job and draft", 'משימת הכתבה והטיוטה של תוכנית', D.ofProgramme, { 'x-problems': [404], ...answers({ 200: ProgrammeArticle }) }),
    })
    .get('/v1/ai/artifacts', ({ principal: p, query }) => svc.list(p.tenantId, { status: query.status, kind: query.kind }, parseLimit(query.limit, 50, 100), query.cursor), {
      auth: { scope: 'ai:read' }, query: ArtifactQuery,
      detail: doc(T, 'List AI artifacts', 'רשימת תוצרי בינה מלאכותית', D.list, answers({ 200: ArtifactList })),
    })
    .get('/v1/ai/artifacts/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth: { scope: 'ai:read' }, params: Id,
      detail: doc(T, 'Get an AI artifact', 'תוצר בינה מלאכותית', D.get, { 'x-problems': [404], ...answers({ 200: ArtifactView }) }),
    })
    .get('/v1/ai/artifacts/:id/transcript', ({ principal: p, params }) => svc.transcript(p.tenantId, params.id), {
      auth: { scope: 'ai:read' }, params: Id,
      detail: doc(T, "Get an AI artifact's transcript", 'התמליל של תוצר בינה מלאכותית', D.transcript, { 'x-problems': [404], ...answers({ 200: TranscriptView }) }),
    })
    .patch('/v1/ai/artifacts/:id', ({ principal: p, params, body }) => svc.patch(p, params.id, body.body), {
      auth: { scope: 'ai:write' }, params: Id, body: PatchArtifactBody,
      detail: doc(T, 'Edit an AI artifact draft', 'עריכת טיוטה של תוצר בינה מלאכותית', D.patch, { 'x-problems': [404, 409, 422], ...answers({ 200: ArtifactView }) }),
    })
    .post('/v1/ai/artifacts/:id/approve', ({ principal: p, params }) => svc.approve(p, params.id), {
      auth: { scope: 'ai:publish' }, params: Id,
      detail: doc(T, 'Approve and publish an AI artifact', 'אישור ופרסום של תוצר בינה מלאכותית', D.approve, { 'x-problems': [404, 409], ...answers({ 200: ArtifactView }) }),
    })
    .post('/v1/ai/artifacts/:id/reject', ({ principal: p, params, body }) => svc.reject(p, params.id, body.reason), {
      auth: { scope: 'ai:write' }, params: Id, body: RejectBody,
      detail: doc(T, 'Reject an AI artifact', 'דחיית תוצר בינה מלאכותית', D.reject, { 'x-problems': [404, 409, 422], ...answers({ 200: ArtifactView }) }),
    });
}
