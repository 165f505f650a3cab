import Ajv from 'ajv';
import type { TestServer } from '../helpers/server';
import { waitFor } from '../helpers/server';
import { ChannelTrackStore } from '../../src/features/subtitles/channel-store';
import { SubtitleStore } from '../../src/features/subtitles/store';
import { newId } from '../../src/kernel/ids';

/** A channel and a programme that ended `endedAgoMs` ago (or is on air / in the future with negative values). */
export async function channelWithProgramme(s: TestServer, o: { startMs: number; endMs: number; title?: string; images?: Record<string, string> }) {
  const ch = await (await s.api('POST', '/v1/channels', { name: `Articles ${newId().slice(-6)}`, timezone: 'UTC' })).json() as { id: string; slug: string };
  const r = await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: o.title ?? 'Evening News', start_at: new Date(o.startMs).toISOString(), end_at: new Date(o.endMs).toISOString(), description: 'The day\'s news', ...(o.images ? { images: o.images } : {}) });
  if (r.status !== 201 && r.status !== 200) throw new Error(`programme: ${r.status} ${await r.text()}`);
  const p = await r.json() as { id: string };
  return { channel: ch, programme: p.id };
}

/**
 * Stores a ready channel-recording subtitle track over the programme's range through the subtitles feature's own
 * stores (what recognition or an upload leaves behind), with cue times relative to the range start.
 */
export function seedChannelTrack(s: TestServer, tenantId: string, channelId: string, programmeId: string, rangeStart: number, rangeEnd: number, cues: { startMs: number; endMs: number; text: string }[], language = 'en'): string {
  const id = newId(), now = Date.now();
  new ChannelTrackStore(s.ctx.db).insert({ id, tenant_id: tenantId, channel_id: channelId, range_start_ms: rangeStart, range_end_ms: rangeEnd, programme_id: programmeId, language, kind: 'subtitles', label: null, source: 'upload', status: 'ready', job_id: null, now });
  const store = new SubtitleStore(s.ctx.db);
  store.replaceCues(id, cues, now);
  return id;
}

/** Two topics, one sentence per cue, 5.5 s apart. */
export const NEWS_LINES = [
  'The football match in the capital ended with a late goal.', 'The home team scored the goal in the final minute of the match.',
  'Their captain said the team played the best football of the season.', 'The goal came from a corner kick taken by the young player.',
  'Fans of the team celebrated the goal in the stadium until midnight.', 'The coach praised every player in the team after the match.',
  'A storm is expected to reach the coast tomorrow with heavy rain.', 'Forecasters warn that the rain and wind will last until the weekend.',
  'The storm brings strong wind gusts and flooding along the coast.', 'Schools near the coast will close because of the storm and the rain.',
  'The weather service says the wind will weaken by Sunday evening.', 'After the storm the forecast promises dry and sunny weather.',
];
/** NEWS_LINES as cues. */
export const newsCues = () => NEWS_LINES.map((text, i) => ({ startMs: 2000 + i * 5500, endMs: 2000 + i * 5500 + 4000, text }));

/** Asks for a draft and waits for the job's artifact. */
export async function draftOf(s: TestServer, programmeId: string, body: unknown = {}): Promise<Record<string, any>> {
  const r = await s.api('POST', `/v1/programmes/${programmeId}/article`, body);
  if (r.status !== 202) throw new Error(`article request: ${r.status} ${await r.text()}`);
  return (await waitFor('the draft', async () => {
    const g = await (await s.api('GET', `/v1/programmes/${programmeId}/article`)).json() as { job: { status: string; error: string | null }; artifact: Record<string, any> | null };
    if (g.job.status === 'failed') throw new Error(`article job failed: ${g.job.error}`);
    return g.job.status === 'succeeded' && g.artifact ? g.artifact : null;
  }, 60_000, 100))!;
}

/**
 * Google's required (and recommended key-moments) properties of the structured data, as a JSON schema: a NewsArticle
 * with headline, datePublished, an Organization author and a video VideoObject with name, thumbnailUrl, uploadDate
 * and contentUrl or embedUrl, whose hasPart Clips each have name, startOffset (seconds), endOffset and url on the
 * same page with a time parameter (ANCHORS "Articles and structured data").
 */
export const GOOGLE_ARTICLE_SCHEMA = {
  type: 'object',
  required: ['@context', '@type', 'headline', 'datePublished', 'author', 'video'],
  properties: {
    '@context': { const: 'https://schema.org' }, '@type': { const: 'NewsArticle' },
    headline: { type: 'string', minLength: 1, maxLength: 110 }, datePublished: { type: 'string', format: 'date-time' },
    author: { type: 'object', required: ['@type', 'name'], properties: { '@type': { const: 'Organization' }, name: { type: 'string', minLength: 1 }, url: { type: 'string', format: 'uri' } } },
    video: {
      type: 'object', required: ['@type', 'name', 'thumbnailUrl', 'uploadDate', 'hasPart'],
      anyOf: [{ required: ['contentUrl'] }, { required: ['embedUrl'] }],
      properties: {
        '@type': { const: 'VideoObject' }, name: { type: 'string', minLength: 1 },
        thumbnailUrl: { type: 'array', minItems: 1, items: { type: 'string', format: 'uri' } },
        uploadDate: { type: 'string', format: 'date-time' }, contentUrl: { type: 'string', format: 'uri' }, embedUrl: { type: 'string', format: 'uri' },
        hasPart: { type: 'array', minItems: 1, items: {
          type: 'object', required: ['@type', 'name', 'startOffset', 'endOffset', 'url'],
          properties: { '@type': { const: 'Clip' }, name: { type: 'string', minLength: 1 }, startOffset: { type: 'integer', minimum: 0 }, endOffset: { type: 'integer', minimum: 1 }, url: { type: 'string', format: 'uri', pattern: '[?&]t=\\d+' } },
        } },
      },
    },
  },
} as const;

/** Validates JSON-LD against GOOGLE_ARTICLE_SCHEMA; answers the Ajv errors (empty when valid). */
export function googleErrors(jsonld: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s) });
  ajv.addFormat('uri', { validate: (s: string) => { try { return /^https?:$/.test(new URL(s).protocol); } catch { return false; } } });
  const ok = ajv.validate(GOOGLE_ARTICLE_SCHEMA, jsonld);
  return ok ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
