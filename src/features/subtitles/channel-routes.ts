import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers, mediaAnswer } from '../meta/model';
import { ChannelTrackList, ChannelTrackQuery, ChannelTrackView, CreateChannelTrackBody, channelTrackView } from './channel-model';
import { ChannelSubtitleService } from './channel-service';
import { TranslationBody } from './translate-routes';

const Ids = t.Object({ id: t.String(), track: t.String() });
const FILE = /^(.+)\.(vtt|srt)$/;
const T = 'Live channels';

/** Subtitle tracks of channel recordings: `/v1/channels/{id}/subtitles` (issue 43; docs/subtitles.md). */
export function channelSubtitleRoutes(ctx: AppContext) {
  const svc = new ChannelSubtitleService(ctx);
  return new Elysia({ prefix: '/v1/channels' })
    .use(ctx.http)
    .post('/:id/subtitles', ({ principal: p, params, body, set }) => {
      set.status = 201;
      return channelTrackView(svc.create(p.tenantId, params.id, body));
    }, {
      auth: { scope: 'channels:write' }, params: t.Object({ id: t.String() }), body: CreateChannelTrackBody,
      detail: doc(T, 'Create a channel subtitle track', 'יצירת רצועת כתוביות להקלטת ערוץ',
        'For a guide programme (`programme_id`: its played range, else its slot) or a range (`start_at`, `end_at`, at most 12 h). With `content`: the WebVTT or SRT file, times from the range start, stored as a ready track. Without it: the recorded speech of the range is recognised in a `subtitles.recognise_channel` job (the track is `queued`, then `ready` or `failed` with the reason); a range that has not ended answers 409, one with nothing recorded 422.',
        { 'x-problems': [404, 409, 422], ...answers({ 201: ChannelTrackView }) }),
    })
    .get('/:id/subtitles', ({ principal: p, params, query }) => ({ items: svc.list(p.tenantId, params.id, query).map(channelTrackView) }), {
      auth: { scope: 'channels:read' }, params: t.Object({ id: t.String() }), query: ChannelTrackQuery,
      detail: doc(T, "List a channel's subtitle tracks", 'רשימת רצועות הכתוביות של ערוץ', 'Newest range first; `programme_id`, `from`/`to` narrow the list.', { 'x-problems': [404, 422], ...answers({ 200: ChannelTrackList }) }),
    })
    .get('/:id/subtitles/:track', ({ principal: p, params }) => {
      const f = FILE.exec(params.track);
      if (!f) return channelTrackView(svc.get(p.tenantId, params.id, params.track));
      const fmt = f[2] as 'vtt' | 'srt';
      return new Response(svc.export(p.tenantId, params.id, f[1]!, fmt), { headers: {
        'content-type': fmt === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8',
        'content-disposition': `attachment; filename="${f[1]}.${fmt}"`, 'cache-control': 'no-store',
      } });
    }, {
      auth: { scope: 'channels:read' }, params: Ids,
      detail: doc(T, 'Get a channel subtitle track or its file', 'רצועת כתוביות של ערוץ או הקובץ שלה',
        '`{track}` is the track id (its JSON) or the id with `.vtt` / `.srt` (the file, times from the range start). A track that is not ready answers 409 for a file.',
        { 'x-problems': [404, 409], ...mediaAnswer(200, 'text/vtt', t.String({ description: 'WebVTT (.vtt), SRT (.srt), or the track as JSON' }), 'the track or its file') }),
    })
    .post('/:id/subtitles/:track/publish', ({ principal: p, params }) => channelTrackView(svc.publish(p.tenantId, params.id, params.track, true)), {
      auth: { scope: 'channels:write' }, params: Ids,
      detail: doc(T, 'Publish a channel subtitle track', 'פרסום רצועת כתוביות של ערוץ', 'Marks a ready track published: catch-up, start-over and clip playlists over its range offer it. Not ready: 409.', { 'x-problems': [404, 409], ...answers({ 200: ChannelTrackView }) }),
    })
    .post('/:id/subtitles/:track/unpublish', ({ principal: p, params }) => channelTrackView(svc.publish(p.tenantId, params.id, params.track, false)), {
      auth: { scope: 'channels:write' }, params: Ids,
      detail: doc(T, 'Unpublish a channel subtitle track', 'ביטול פרסום של רצועת כתוביות של ערוץ', 'Marks the track unpublished; it stays editable and downloadable.', { 'x-problems': [404], ...answers({ 200: ChannelTrackView }) }),
    })
    .post('/:id/subtitles/:track/translations', ({ principal: p, params, body, set }) => {
      set.status = 202;
      return channelTrackView(svc.translate(p.tenantId, params.id, params.track, body));
    }, {
      auth: { scope: 'channels:write' }, params: Ids, body: TranslationBody,
      detail: doc(T, 'Translate a channel subtitle track', 'תרגום רצועת כתוביות של ערוץ',
        '202: a new track of the same range in `language`, `queued`, translated as asset tracks are (`subtitles.translate`: whole sentences, the glossary in the prompt, the source times). Not ready: 409; the same language: 422.',
        { 'x-problems': [404, 409, 422], ...answers({ 202: ChannelTrackView }) }),
    })
    .delete('/:id/subtitles/:track', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.id, params.track); set.status = 204; return null; }, {
      auth: { scope: 'channels:write' }, params: Ids,
      detail: doc(T, 'Delete a channel subtitle track', 'מחיקת רצועת כתוביות של ערוץ', 'Deletes the track and its cues.', { 'x-problems': [404], ...answers({ 204: null }) }),
    });
}
