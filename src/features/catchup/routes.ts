import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { CatchupService } from './service';
import { CatchupList, CatchupSearch } from './model';
import { answers } from '../meta/model';

const T = 'Catch-up';
const Id = t.Object({ id: t.String() });

/** /v1/channels/{id}/catchup and /catchup/search. */
export function catchupRoutes(ctx: AppContext) {
  const svc = new CatchupService(ctx);
  return new Elysia()
    .use(ctx.http)
    .get('/v1/channels/:id/catchup', ({ principal: p, params, query }) => svc.list(svc.guide.channel(p.tenantId, params.id), p.tenantSlug, query), {
      auth: { scope: 'channels:read', platform: true }, params: Id, query: t.Object({ from: t.Optional(t.String({ description: 'RFC 3339; default 24 hours before `to`' })), to: t.Optional(t.String({ description: 'RFC 3339; default now' })) }),
      detail: doc(T, 'Catch-up list', 'רשימת צפייה חוזרת', '`from`/`to` (RFC 3339; default the last 24 hours; at most 8 days apart) clipped to the recording retention and to now. Programmes newest first with `coverage` (recorded share from the segment index), `status`, `play_start`/`play_end` (guide times unless boundaries were confirmed), `vod`, and `playback.hls` (plus `playback.startover` while on air). `excluded_hidden` counts programmes dropped by the tenant\'s exclusion rules.', answers({ 200: CatchupList })),
    })
    .get('/v1/channels/:id/catchup/search', ({ principal: p, params, query }) => svc.search(svc.guide.channel(p.tenantId, params.id), p.tenantSlug, query.q, query.limit === undefined ? undefined : String(query.limit), query.transcript), {
      auth: { scope: 'channels:read', platform: true }, params: Id,
      query: t.Object({ q: t.String({ minLength: 2, maxLength: 100, description: 'search text, 2-100 characters' }), limit: t.Optional(t.Integer({ minimum: 1, maximum: 50, description: '1-50 (default 20)' })), transcript: t.Optional(t.String({ description: '`true` (default) also searches the published subtitles of the channel\'s recordings; `false` skips subtitle hits' })) }),
      detail: doc(T, 'Search catch-up', 'חיפוש בצפייה חוזרת', '`q` 2-100 characters, `limit` 1-50 (default 20). Hebrew-aware: niqqud and final letters fold, words match by prefix, and one-letter Hebrew prefixes (ו ה ב ל מ ש כ) are ignored. Items add `match {field, snippet}`; `truncated` is true when more than `limit` matched. With `transcript` (default true) programmes are also found by what was said: the published subtitle cues of the channel\'s recordings inside their playback range, matched with the same Hebrew normalisation (prefix letters stripped as alternatives, geresh and gershayim ignored); such items carry `moments` (`seconds` from the playback start, the cue `line`; up to 20, time order) and, when no guide text matched, `match.field` `subtitles` with the cue line as snippet. Programmes where every word is found exactly rank first.', answers({ 200: CatchupSearch })),
    });
}
