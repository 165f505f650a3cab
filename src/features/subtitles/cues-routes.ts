import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/auth';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import type { Scope } from '../../kernel/http/scopes';
import { Cursor, Limit, answers } from '../meta/model';
import {
  CueList, EditBody, InsertBody, MergeBody, ReplaceBody, RevisionList, RevisionView, ShiftBody, SplitBody, WriteResult,
} from './cues-model';
import { CueService, authorOf, trackEtag, type WriteOutcome } from './cues-service';
import { SubtitleService } from './service';

/** Where cue routes hang and how they find their track (asset tracks here; channel tracks can mount the same). */
export interface CueMount {
  /** Elysia prefix (`/v1/assets`). */
  prefix: string;
  /** Path of a track under the prefix, with `:track` (`/:id/subtitles/:track`). */
  base: string;
  read: Scope; write: Scope; tag: string;
  /** Words naming the track in summaries (`subtitle track` / `רצועת כתוביות`): distinct per mount (operation ids). */
  noun: { en: string; he: string };
  /** A sentence appended to every operation's description (English). */
  note?: string;
  /** The track id of the request's path (404 when it is not the caller's). */
  resolve(p: Principal, params: Record<string, string>): string;
}

const PATCH_IF = 'Needs `If-Match` with the track\'s ETag (428 without; 412 when stale). The answer is the revision made, the new `etag` (also the `ETag` header) and the cue count.';

const cueId = (s: string): number => {
  if (!/^\d{1,9}$/.test(s)) throw notFound('cue');
  return Number(s);
};

/** The cue-editing routes of one kind of track (docs/subtitles.md, "Editing cues"). */
export function cueRoutes(ctx: AppContext, m: CueMount) {
  const svc = new CueService(ctx);
  const Params = t.Object({ id: t.Optional(t.String()), track: t.String() }, { additionalProperties: true });
  const CueParams = t.Object({ id: t.Optional(t.String()), track: t.String(), cue: t.String() }, { additionalProperties: true });
  const RevParams = t.Object({ id: t.Optional(t.String()), track: t.String(), rev: t.String() }, { additionalProperties: true });
  const d = (en: string, he: string, text: string, extra: Record<string, unknown>) => doc(m.tag, `${en} ${m.noun.en}`, he.replace('%', m.noun.he), m.note ? `${text} ${m.note}` : text, extra);
  const done = (set: { headers: Record<string, string | number>; status?: number | string }, r: WriteOutcome, status = 200) => {
    set.headers.etag = r.etag;
    set.status = r.revision || status !== 201 ? status : 200;
    return { revision: r.revision, etag: r.etag, cue_count: r.cue_count };
  };
  const w = { auth: { scope: m.write } } as const;
  const write = (extra: Record<string, unknown> = {}) => ({ 'x-problems': [404, 409, 412, 422, 428], ...answers({ 200: WriteResult }), ...extra });
  return new Elysia({ prefix: m.prefix })
    .use(ctx.http)
    .get(`${m.base}/cues`, ({ principal: p, params, query, set }) => {
      const r = svc.list(p.tenantId, m.resolve(p, params), { cursor: query.cursor, limit: parseLimit(query.limit, 200, 1000), fromMs: query.from_ms });
      set.headers.etag = r.etag;
      return r;
    }, {
      auth: { scope: m.read }, params: Params,
      query: t.Object({ limit: Limit(1000, 200), cursor: Cursor, from_ms: t.Optional(t.Integer({ minimum: 0, maximum: 1e9, description: 'only cues ending after this time (ms)' })) }),
      detail: d('List cues of a', 'רשימת הכתוביות של %', 'Cues in time order with their reading speed (`chars_per_second`) and the rules each breaks (`over_limit`: reading_speed against the tenant\'s reading speed, duration_min, duration_max, gap, line_length, lines); `from_ms` keeps cues ending after it; `limit` 1-1000 (default 200). `ETag` header and `etag`: the track version for `If-Match`.', answers({ 200: CueList })),
    })
    .post(`${m.base}/cues`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.insert(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), { startMs: body.start_ms, endMs: body.end_ms, text: body.text }), 201), {
      ...w, params: Params, body: InsertBody,
      detail: d('Insert a cue into a', 'הוספת כתובית ל%', `A new cue: text at most 2 lines of 42 characters (one longer line is broken onto two when it fits), 1-7 s, at least 80 ms (2 frames) from its neighbours (closer or overlapping: 409). ${PATCH_IF}`, write(answers({ 201: WriteResult }))),
    })
    .patch(`${m.base}/cues/:cue`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.edit(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), cueId(params.cue), { text: body.text, startMs: body.start_ms, endMs: body.end_ms })), {
      ...w, params: CueParams, body: EditBody,
      detail: d('Edit a cue of a', 'עריכת כתובית ב%', `Text and/or times of one cue, under the cue rules (422 naming the field; 409 against a neighbour). Nothing changed: \`revision\` null. ${PATCH_IF}`, write()),
    })
    .delete(`${m.base}/cues/:cue`, ({ principal: p, params, request, set }) =>
      done(set, svc.remove(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), cueId(params.cue))), {
      ...w, params: CueParams,
      detail: d('Delete a cue of a', 'מחיקת כתובית מ%', `Removes one cue (undo brings it back). ${PATCH_IF}`, write()),
    })
    .post(`${m.base}/cues/:cue/split`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.split(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), cueId(params.cue), { atMs: body.at_ms, offset: body.offset })), {
      ...w, params: CueParams, body: SplitBody,
      detail: d('Split a cue of a', 'פיצול כתובית ב%', `Two cues: \`start..at_ms\` with the text before \`offset\`, \`at_ms + 80..end\` with the rest (defaults: the line break or the blank nearest the middle; the time shared by characters). Each part at least 1 s. ${PATCH_IF}`, write()),
    })
    .post(`${m.base}/cues/:cue/merge`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.merge(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), cueId(params.cue), body.with ?? 'next')), {
      ...w, params: CueParams, body: MergeBody,
      detail: d('Merge cues of a', 'מיזוג כתוביות ב%', `The cue and its next (or previous) one become one: the first's start and id, the second's end, the texts on at most 2 lines (422 when they do not fit, or longer than 7 s). ${PATCH_IF}`, write()),
    })
    .post(`${m.base}/cues/shift`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.shift(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), { byMs: body.by_ms, scope: body.scope, fromId: body.from_id, fromMs: body.from_ms, toMs: body.to_ms })), {
      ...w, params: Params, body: ShiftBody,
      detail: d('Shift cues of a', 'הזזת כתוביות ב%', `Moves cues by \`by_ms\`: \`all\`, \`following\` (cue \`from_id\` and later) or \`range\` (starting in [\`from_ms\`, \`to_ms\`)); 409 when moved cues would overlap or come within 80 ms of others, 422 before 0. ${PATCH_IF}`, write()),
    })
    .post(`${m.base}/replace`, ({ principal: p, params, body, request, set }) =>
      done(set, svc.replace(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), { find: body.find, replace: body.replace, wholeWord: body.whole_word ?? true, matchCase: body.match_case ?? false })), {
      ...w, params: Params, body: ReplaceBody,
      detail: d('Find and replace in a', 'חיפוש והחלפה ב%', `Every cue: whole words by default (Hebrew-aware: niqqud and final letters ignored, prefix letters ו ה ב כ ל מ ש kept), case-insensitive unless \`match_case\`. \`revision.counts\` says how many; nothing found: \`revision\` null. A cue that would break the line rules: 422. ${PATCH_IF}`, write()),
    })
    .post(`${m.base}/apply-glossary`, ({ principal: p, params, request, set }) =>
      done(set, svc.applyGlossary(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p))), {
      ...w, params: Params,
      detail: d('Apply the glossary to a', 'החלת המילון על %', `Corrects every variant of the tenant glossary's terms for the track's language into the term (whole words, prefix letters kept); \`revision.counts\` per term; nothing to correct: \`revision\` null. ${PATCH_IF}`, write()),
    })
    .get(`${m.base}/revisions`, ({ principal: p, params, query }) =>
      svc.revisions(p.tenantId, m.resolve(p, params), query.cursor, parseLimit(query.limit, 50, 200)), {
      auth: { scope: m.read }, params: Params, query: t.Object({ limit: Limit(200, 50), cursor: Cursor }),
      detail: d('List revisions of a', 'רשימת הגרסאות של %', 'Every change of the cues, newest first: who, when, the operation and the cues it touched before and after; `undone_by` when undone. `limit` 1-200 (default 50).', answers({ 200: RevisionList })),
    })
    .get(`${m.base}/revisions/:rev`, ({ principal: p, params }) => svc.revision(p.tenantId, m.resolve(p, params), params.rev), {
      auth: { scope: m.read }, params: RevParams,
      detail: d('Get a revision of a', 'גרסה של %', 'One revision with the cues it touched.', answers({ 200: RevisionView })),
    })
    .post(`${m.base}/revisions/:rev/undo`, ({ principal: p, params, request, set }) =>
      done(set, svc.undo(p.tenantId, m.resolve(p, params), request.headers.get('if-match'), authorOf(p), params.rev)), {
      ...w, params: RevParams,
      detail: d('Undo a revision of a', 'ביטול גרסה של %', `A new revision (\`op\` undo, \`undo_of\`) that removes what the revision made and restores what it replaced; 409 when its cues changed since (undo the later revisions first) or it was undone already. ${PATCH_IF}`, write()),
    });
}

/** Cue editing of asset tracks under /v1/assets/{id}/subtitles/{track}. */
export function assetCueRoutes(ctx: AppContext) {
  const tracks = new SubtitleService(ctx);
  return cueRoutes(ctx, {
    prefix: '/v1/assets', base: '/:id/subtitles/:track', read: 'assets:read', write: 'assets:write', tag: 'Assets',
    noun: { en: 'subtitle track', he: 'רצועת כתוביות' },
    resolve: (p, params) => tracks.get(p.tenantId, params.id!, params.track!).id,
  });
}

/**
 * Cue editing of channel-recording tracks under /v1/channels/{id}/subtitles/{track} (cue times relative to the
 * track's range start). Editing subtitles is `assets:write` whatever they belong to (the seed's scope table: editors
 * edit cues); another channel's or tenant's track is 404.
 */
export function channelCueRoutes(ctx: AppContext) {
  const cues = new CueService(ctx);
  return cueRoutes(ctx, {
    prefix: '/v1/channels', base: '/:id/subtitles/:track', read: 'assets:read', write: 'assets:write', tag: 'Live channels',
    noun: { en: 'channel subtitle track', he: 'רצועת כתוביות של ערוץ' },
    note: 'Cue times are relative to the start of the track\'s recording range.',
    resolve: (p, params) => {
      const t = cues.track(p.tenantId, params.track!);
      if (!t.channel_id || t.channel_id !== params.id) throw notFound('subtitle track');
      return t.id;
    },
  });
}

/** The ETag header of a track JSON answer. */
export const trackEtagOf = (version: number | undefined) => trackEtag(version ?? 1);
