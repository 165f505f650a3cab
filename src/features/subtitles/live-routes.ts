import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { LiveSubtitlesBody, LiveSubtitlesView, liveSubtitlesView } from './live-model';
import { LiveSubtitleService } from './live-service';

const T = 'Live channels';

/** Live subtitles of a channel: `/v1/channels/{id}/live-subtitles` (issue 43; docs/subtitles.md "Live subtitles"). */
export function liveSubtitleRoutes(ctx: AppContext) {
  const svc = new LiveSubtitleService(ctx);
  return new Elysia({ prefix: '/v1/channels' })
    .use(ctx.http)
    .get('/:id/live-subtitles', ({ principal: p, params }) => liveSubtitlesView(svc.get(p.tenantId, params.id)), {
      auth: { scope: 'channels:read' }, params: t.Object({ id: t.String() }),
      detail: doc(T, 'Get live subtitles', 'קריאת הכתוביות החיות של ערוץ',
        'The languages whose live audio is recognised as it is recorded, each with its state (`starting`, `running`, `behind`, `waiting`, `failed`), its lag (`lag_ms`: median wall time from the start of a cue\'s speech to the cue being available), how far recognition trails the live edge and the hourly recording track its cues go to.',
        { 'x-problems': [404], ...answers({ 200: LiveSubtitlesView }) }),
    })
    .put('/:id/live-subtitles', ({ principal: p, params, body }) => liveSubtitlesView(svc.set(p.tenantId, params.id, body)), {
      auth: { scope: 'channels:write' }, params: t.Object({ id: t.String() }), body: LiveSubtitlesBody,
      detail: doc(T, 'Set live subtitles', 'הגדרת הכתוביות החיות של ערוץ',
        'Turns live subtitles on for the listed languages (the list replaces the old one; `[]` turns them off). The live master playlist then names a `subs-<language>` subtitle rendition whose segments follow the video\'s as their audio is recognised; the cues also land in published hourly recording tracks (catch-up, start-over, search). A language no speech engine takes: 422.',
        { 'x-problems': [404, 422], ...answers({ 200: LiveSubtitlesView }) }),
    });
}
