import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { CreateTrackBody, TrackList, TrackView, trackView } from './model';
import { SubtitleService } from './service';
import { registerSubtitleSidecars } from './delivery-playback';
import { trackEtag } from './cues-service';

const Ids = t.Object({ id: t.String(), track: t.String() });
const FILE = /^(.+)\.(vtt|srt)$/;

/** The `subtitles` group: an asset's subtitle tracks (issue 43; docs/subtitles.md). */
export function subtitleRoutes(ctx: AppContext) {
  const svc = new SubtitleService(ctx);
  registerSubtitleSidecars(ctx); // playback.subtitles of the asset view (delivery: media-delivery/routes.ts)
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .post('/:id/subtitles', ({ principal: p, params, body, set }) => {
      if (body.content !== undefined && body.prompt !== undefined) throw invalid('prompt', 'only for recognition (without content)');
      const track = { language: body.language, kind: body.kind ?? 'subtitles' as const, label: body.label ?? null };
      const row = body.content !== undefined
        ? svc.createUpload(p.tenantId, params.id, track, body.content, body.format)
        : svc.createAsr(p.tenantId, params.id, track, body.prompt ?? null);
      set.status = 201;
      return trackView(row);
    }, {
      auth: { scope: 'assets:write' }, params: t.Object({ id: t.String() }), body: CreateTrackBody,
      detail: doc('Assets', 'Create a subtitle track', 'יצירת רצועת כתוביות',
        'With `content`: the WebVTT or SRT file is parsed and stored as a ready track (a malformed file answers 422 naming the line; markup and bidi controls are dropped). Without it: the asset\'s speech is recognised by the engine configured for `language` in a `subtitles.recognise` job; the track is `queued`, then `ready` or `failed` with the reason (no engine for the language is such a reason).',
        { 'x-problems': [404, 409, 422], ...answers({ 201: TrackView }) }),
    })
    .get('/:id/subtitles', ({ principal: p, params }) => ({ items: svc.list(p.tenantId, params.id).map(trackView) }), {
      auth: { scope: 'assets:read' }, params: t.Object({ id: t.String() }),
      detail: doc('Assets', "List an asset's subtitle tracks", 'רשימת רצועות הכתוביות של נכס', 'Every track of the asset, oldest first.', { 'x-problems': [404], ...answers({ 200: TrackList }) }),
    })
    .get('/:id/subtitles/:track', ({ principal: p, params, set }) => {
      const f = FILE.exec(params.track);
      if (!f) {
        const row = svc.get(p.tenantId, params.id, params.track);
        set.headers.etag = trackEtag(row.version ?? 1);
        return trackView(row);
      }
      const fmt = f[2] as 'vtt' | 'srt';
      const body = svc.export(p.tenantId, params.id, f[1]!, fmt);
      return new Response(body, { headers: {
        'content-type': fmt === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8',
        'content-disposition': `attachment; filename="${f[1]}.${fmt}"`, 'cache-control': 'no-store',
      } });
    }, {
      auth: { scope: 'assets:read' }, params: Ids,
      detail: doc('Assets', 'Get a subtitle track or its file', 'רצועת כתוביות או הקובץ שלה',
        '`{track}` is the track id (its JSON) or the id with `.vtt` / `.srt` (the file; lines of Hebrew and Arabic start with U+200F). A track that is not ready answers 409 for a file.',
        { 'x-problems': [404, 409], responses: { 200: { description: 'the track (JSON, with its `ETag`) or its file', content: {
          'application/json': { schema: TrackView }, 'text/vtt': { schema: t.String({ description: 'WebVTT (.vtt)' }) },
          'application/x-subrip': { schema: t.String({ description: 'SRT (.srt)' }) } } } } }),
    })
    .post('/:id/subtitles/:track/publish', ({ principal: p, params }) => trackView(svc.publish(p.tenantId, params.id, params.track, true)), {
      auth: { scope: 'assets:write' }, params: Ids,
      detail: doc('Assets', 'Publish a subtitle track', 'פרסום רצועת כתוביות', 'Marks a ready track published. A track that is not ready answers 409.', { 'x-problems': [404, 409], ...answers({ 200: TrackView }) }),
    })
    .post('/:id/subtitles/:track/unpublish', ({ principal: p, params }) => trackView(svc.publish(p.tenantId, params.id, params.track, false)), {
      auth: { scope: 'assets:write' }, params: Ids,
      detail: doc('Assets', 'Unpublish a subtitle track', 'ביטול פרסום של רצועת כתוביות', 'Marks the track unpublished; it stays editable and downloadable.', { 'x-problems': [404], ...answers({ 200: TrackView }) }),
    })
    .delete('/:id/subtitles/:track', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.id, params.track); set.status = 204; return null; }, {
      auth: { scope: 'assets:write' }, params: Ids,
      detail: doc('Assets', 'Delete a subtitle track', 'מחיקת רצועת כתוביות', 'Deletes the track and its cues.', { 'x-problems': [404], ...answers({ 204: null }) }),
    });
}
