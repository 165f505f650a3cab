import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { assetView } from '../assets/view';
import { AssetView } from '../assets/model';
import { CompleteUploadBody, PartAnswer, StartUploadBody, UploadSession } from './model';
import { UploadService } from './service';
import { browserPut, preflight } from './browser';
import { rawBytesBody } from '../meta/model';

const PART_PATH = /^https?:\/\/[^/]+\/v1\/(uploads\/[^/?]+\/parts|upload-parts)\/[^/?]+(\?|$)/;

/** True for part uploads, whose raw bodies the global JSON parser must leave unread (any Content-Type). */
export function isPartUpload(request: Request): boolean {
  return request.method === 'PUT' && PART_PATH.test(request.url);
}

const UPLOADERS = { scope: null, anyOf: ['assets:write', 'uploads'] as ('assets:write' | 'uploads')[], platform: true };

/** /v1/uploads (API key) and /v1/upload-parts (browser token): multipart uploads of asset sources. */
export function uploadRoutes(ctx: AppContext) {
  const svc = new UploadService(ctx);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .post('/uploads', ({ principal: p, body, set }) => { set.status = 201; return svc.start(p.tenantId, p.keyId, body); }, {
      auth: UPLOADERS,
      body: StartUploadBody,
      response: { 201: UploadSession },
      detail: doc('Uploads', 'Start a multipart upload', 'התחלת העלאה מרובת חלקים', 'Answers `upload_id`, `key`, `part_size` (64 MiB) and one address per part; with `browser_origin` also `upload_token` and `first_part_url` for the browser flow. Files up to 200 GB; complete within one hour.'),
    })
    .put('/uploads/:upload_id/parts/:n', async ({ principal: p, params, query, request }) => {
      const u = svc.find(p.tenantId, params.upload_id, query.key);
      return svc.putPart(u, params.n, request.headers.get('content-length'), request.body);
    }, {
      auth: UPLOADERS,
      parse: () => ({ raw: true }), // leave request.body unread: the part is streamed to disk by the handler
      params: t.Object({ upload_id: t.String(), n: t.String() }),
      query: t.Object({ key: t.Optional(t.String({ description: 'the upload `key` from POST /v1/uploads' })) }),
      response: { 200: PartAnswer },
      detail: doc('Uploads', 'Upload a part', 'העלאת חלק', 'Raw bytes, exactly `Content-Length` (each part `part_size`, the last the rest). Answers `{part_number, etag}` (MD5 hex). Parts may go in parallel and in any order; a failed part answers 409 and is sent again.', { ...rawBytesBody, 'x-problems': [409, 410, 411] }),
    })
    .post('/uploads/:upload_id/complete', async ({ principal: p, params, body, set }) => {
      const a = await svc.complete(p.tenantId, params.upload_id, body, p.scopes.has('assets:publish'));
      set.status = 201;
      return assetView(ctx, a);
    }, {
      auth: UPLOADERS,
      params: t.Object({ upload_id: t.String() }),
      body: CompleteUploadBody,
      response: { 201: AssetView },
      detail: doc('Uploads', 'Complete an upload', 'סיום העלאה', 'Checks every part and etag, assembles the file and answers 201 with the asset in `probing`. Repeating it answers the same asset.', { 'x-problems': [409, 410] }),
    })
    .options('/upload-parts/:n', ({ query, request }) => preflight(svc, query.t, request.headers.get('origin')), {
      query: t.Object({ t: t.Optional(t.String()) }),
      detail: { hide: true },
    })
    .put('/upload-parts/:n', ({ params, query, request, set }) =>
      browserPut(svc, query.t, request.headers.get('origin'), params.n, request.headers.get('content-length'), request.body,
        (h) => Object.assign(set.headers, h)), {
      parse: () => ({ raw: true }), // leave request.body unread: the part is streamed to disk by the handler
      params: t.Object({ n: t.String() }),
      query: t.Object({ t: t.Optional(t.String()) }),
      response: { 200: PartAnswer },
      detail: doc('Uploads', 'Upload a part from a browser', 'העלאת חלק מדפדפן', 'No Authorization header: `t` is the `upload_token`. CORS only for the upload\'s `browser_origin`; valid for that upload\'s parts until it expires or the starting key is revoked.', { ...rawBytesBody, 'x-problems': [401, 403, 409, 410, 411] }),
    });
}

/** Starts the uploads worker: finishes completions a crash interrupted, then expires stale uploads every minute. */
export function startUploadWorker(ctx: AppContext): void {
  const svc = new UploadService(ctx);
  const n = svc.recover();
  if (n) ctx.log.info('finished interrupted upload completions', { uploads: n });
  const run = () => { try { svc.sweep(); } catch (e) { ctx.log.warn('upload sweep failed', { error: String(e) }); } };
  run();
  const timer = setInterval(run, 60_000);
  ctx.onStop(() => clearInterval(timer));
}
