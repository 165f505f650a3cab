import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';
import { Cursor, Limit } from '../meta/model';

const Ms = Int({ minimum: 0, maximum: 48 * 3_600_000, description: 'ms from the programme\'s playback start' });
const Role = t.Union([t.Literal('presenter'), t.Literal('guest'), t.Literal('report')], { description: 'who speaks; never a name' });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

/** A chapter of an article body. */
export const Chapter = t.Object({
  title: t.String({ minLength: 1, maxLength: 300 }), description: t.String({ maxLength: 2000 }),
  paragraphs: t.Array(t.String({ maxLength: 20_000 }), { maxItems: 200 }), start_ms: Ms, end_ms: Ms,
}, { additionalProperties: false });
/** A verbatim quote of an article body. */
export const Quote = t.Object({
  text: t.String({ minLength: 1, maxLength: 5000, description: 'the text of the transcript cues between start_ms and end_ms' }),
  role: Role, start_ms: Ms, end_ms: Ms,
}, { additionalProperties: false });
const Words = t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 });

/** An article body as answered. */
export const ArticleBodyView = t.Object({
  headline: t.String(), standfirst: t.String(), summary: t.String(), chapters: t.Array(Chapter), quotes: t.Array(Quote),
  entities: t.Array(t.String()), tags: t.Array(t.String()),
});

/** PATCH /v1/ai/artifacts/{id} body: any body fields of a draft (each change becomes a correction). */
export const PatchArtifactBody = t.Object({
  body: t.Object({
    headline: t.Optional(t.String({ minLength: 1, maxLength: 300 })),
    standfirst: t.Optional(t.String({ maxLength: 2000 })),
    summary: t.Optional(t.String({ minLength: 1, maxLength: 20_000 })),
    chapters: t.Optional(t.Array(Chapter, { minItems: 1, maxItems: 200, description: 'in order, not overlapping, inside the programme' })),
    quotes: t.Optional(t.Array(Quote, { maxItems: 100, description: 'each the verbatim text of transcript cues (a role change or a removal; no new words)' })),
    entities: t.Optional(Words), tags: t.Optional(Words),
  }, { additionalProperties: false }),
}, { additionalProperties: false });
/** Parsed PATCH body. */
export type ArticlePatch = typeof PatchArtifactBody.static['body'];

/** POST /v1/programmes/{id}/article body (optional). */
export const RequestArticleBody = t.Object({
  engine: t.Optional(t.Union([t.Literal('extractive'), t.Literal('llm')], { description: 'default: `llm` when a chat endpoint is configured (VS_LLM_URL), else `extractive`' })),
  language: t.Optional(t.String({ minLength: 2, maxLength: 35, description: 'the subtitle language to draft from (default: any ready track)' })),
}, { additionalProperties: false });

/** POST /v1/ai/artifacts/{id}/reject body. */
export const RejectBody = t.Object({ reason: t.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });

/** List filters. */
export const ArtifactQuery = t.Object({
  status: t.Optional(t.Union([t.Literal('draft'), t.Literal('published'), t.Literal('rejected')])),
  kind: t.Optional(t.Literal('article')),
  limit: Limit(100), cursor: Cursor,
}, { additionalProperties: false });

const At = t.String({ format: 'date-time' });
/** A correction of a draft. */
export const CorrectionView = t.Object({ field: t.String(), before: t.Unknown(), after: t.Unknown(), who: t.String(), at: At });
/** An artifact as answered. */
export const ArtifactView = t.Object({
  id: t.String(), kind: t.String({ description: '`article`' }), status: t.String({ description: '`draft`, `published` or `rejected`' }),
  subject: t.Object({ kind: t.String({ description: '`programme`' }), id: t.String(), channel_id: Nullable(t.String()), title: Nullable(t.String()) }),
  engine: t.String({ description: '`extractive` or `llm`' }), model: Nullable(t.String()), language: Nullable(t.String()),
  source: Nullable(t.Object({ kind: t.String({ description: '`channel_track` or `asset_track`' }), id: t.String() })),
  body: ArticleBodyView,
  warnings: t.Array(t.String(), { description: 'repairs made to the model\'s answer (dropped quotes, cut chapters, dropped entities)' }),
  job_id: Nullable(t.String()), reason: Nullable(t.String({ description: 'why it was rejected' })),
  decided_by: Nullable(t.String()), decided_at: Nullable(At),
  corrections: t.Optional(t.Array(CorrectionView)),
  created_at: At, updated_at: At,
});
/** The list answer. */
export const ArtifactList = t.Object({ items: t.Array(ArtifactView), next_cursor: Nullable(t.String()) });
/** Answer of POST /v1/programmes/{id}/article. */
export const RequestAnswer = t.Object({
  job_id: t.String(), status: t.String({ description: '`queued` (or the running job\'s status)' }), programme_id: t.String(), engine: t.String(),
});
/** Answer of GET /v1/programmes/{id}/article. */
export const ProgrammeArticle = t.Object({
  job: Nullable(t.Object({ id: t.String(), status: t.String(), progress: Nullable(t.Number()), error: Nullable(t.String()) })),
  artifact: Nullable(ArtifactView),
});
/** Answer of GET /v1/ai/artifacts/{id}/transcript. */
export const TranscriptView = t.Object({
  source: Nullable(t.Object({ kind: t.String(), id: t.String(), language: t.String() })),
  video: t.Object({ hls: Nullable(t.String()), url: t.String() }),
  cues: t.Array(t.Object({ id: Int(), start_ms: Int(), end_ms: Int(), text: t.String() })),
});
