import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { TraceService } from './service';

const T = 'Playback';
const At = t.String({ format: 'date-time' });
const Candidate = t.Object({
  sid: t.String({ description: 'the playback session (`sid` of its token answer)' }),
  viewer_id: t.Union([t.String(), t.Null()]), issued_at: At,
  matched: t.Integer({ description: 'segments whose variant matches this session\'s sequence' }),
  of: t.Integer({ description: 'segments read from the copy' }),
  confidence: t.Number({ description: '1 − (sessions scored × the chance that an unrelated session matches as many)' }),
  false_match_log10: t.Number({ description: 'log10 of that chance (e.g. -5.5)' }),
});
/** A trace as the API shows it. */
const TraceView = t.Object({
  id: t.String(), asset_id: t.String(),
  status: t.Union([t.Literal('queued'), t.Literal('running'), t.Literal('done'), t.Literal('failed')]),
  progress: t.Number({ description: 'percent' }), source: t.Union([t.Literal('upload'), t.Literal('url')]), url: t.Union([t.String(), t.Null()]),
  files: t.Integer(), offset_s: t.Union([t.Number(), t.Null()], { description: 'as given; null: not given, searched by the job (the offset found is in result.alignment)' }),
  result: t.Union([t.Object({
    segments: t.Integer(), bits_read: t.Integer(), bits: t.String({ description: 'per segment: 0 (A), 1 (B) or ? (not read)' }), sessions_scored: t.Integer(),
    alignment: t.Optional(t.Object({
      offset_s: t.Number({ description: 'where in the asset the copy starts (as given, or found; 0.1 s steps)' }),
      searched: t.Boolean({ description: 'true when offset_s was not given and the job found it' }),
      error: t.Union([t.Number(), t.Null()], { description: 'mean absolute difference (luma levels) of the copy\'s frame signatures and the asset\'s at that offset' }),
      next_error: t.Union([t.Number(), t.Null()], { description: 'the smallest such difference at any offset at least 1 s away (searched only; the larger against error, the clearer the placement)' }),
    }, { description: 'how the copy was placed in the asset (traces made before this field existed have none)' })),
    named: t.Union([Candidate, t.Null()], { description: 'the session the copy was made from, when the confidence is at least 0.99 and it is ahead of every other' }),
    candidates: t.Array(Candidate, { description: 'the five best matches, best first' }),
  }), t.Null()]),
  error: t.Union([t.String(), t.Null()]), created_at: At, updated_at: At, finished_at: t.Union([At, t.Null()]),
});

const CREATE = `Traces a leaked copy of a watermarked asset (its policy had \`watermark.mode\` ab when it was encoded) back
to the playback session it was recorded from. The copy is either uploaded (multipart/form-data: \`asset_id\`, one or
more \`file\` parts joined in order, e.g. an init segment then media segments, or one whole file; 512 MB at most) or
named by \`url\` (JSON or form; fetched by the job through the safe fetcher: private addresses refused, 512 MB, 10
minutes). \`offset_s\`: where in the asset the copy starts; leave it out for a copy cut at an unknown point (a clip
of the middle): the job then slides the copy's first 30 s along the asset and takes the best-matching offset
(\`result.alignment\`). The copy may have been re-encoded, scaled down or cut. Answers 202 with the trace; GET it for progress and the result: per segment the variant read, the five
best-matching sessions issued for the asset with their confidence, and the named session (confidence ≥ 0.99 and ahead
of the rest), or null when the copy does not name one. 409 when the asset has no watermarked output.`;

/** A/B watermark traces (security:manage). */
export function watermarkRoutes(ctx: AppContext) {
  const svc = new TraceService(ctx);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/watermark/traces', async ({ principal: p, body, set }) => { set.status = 202; return svc.create(p.tenantId, body); }, {
      auth: { scope: 'security:manage', platform: true, multipart: true },
      body: t.Object({
        asset_id: t.String({ minLength: 1, maxLength: 64, description: 'the watermarked asset the copy is of' }),
        url: t.Optional(t.String({ minLength: 1, maxLength: 2000, description: 'where to fetch the copy (instead of file)' })),
        offset_s: t.Optional(t.Numeric({ minimum: 0, maximum: 604800, description: 'where in the asset the copy starts (seconds); absent: searched by the job' })),
        file: t.Optional(t.Files({ description: 'the copy: one file, or its segments in order (instead of url)' })),
      }, { additionalProperties: false }),
      detail: doc(T, 'Trace a leaked copy', 'איתור מקור של עותק שדלף', CREATE, { 'x-problems': [404, 409, 413, 422], ...answers({ 202: TraceView }) }),
    })
    .get('/v1/watermark/traces/:id', ({ principal: p, params }) => svc.one(p.tenantId, params.id), {
      auth: { scope: 'security:manage', platform: true }, params: t.Object({ id: t.String() }),
      detail: doc(T, 'Get a trace', 'איתור עותק שדלף', 'One trace with its progress and, once done, its result (404 for another tenant\'s).', answers({ 200: TraceView })),
    });
}
