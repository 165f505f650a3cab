import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { TrackView, trackView } from './model';
import { SubtitleService } from './service';
import { queueTranslation } from './translate';

/** POST .../translations body. */
export const TranslationBody = t.Object({
  language: t.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language to translate into (`en`, `ar`, `ru`)' }),
  kind: t.Optional(t.Union([t.Literal('subtitles'), t.Literal('captions')], { description: 'default: the source track\'s kind' })),
  label: t.Optional(t.String({ maxLength: 100, description: 'name shown in players (default: the language)' })),
}, { additionalProperties: false });

/** Translations of an asset's subtitle track (issue 43; docs/subtitles.md "Translations"). */
export function translateRoutes(ctx: AppContext) {
  const svc = new SubtitleService(ctx);
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .post('/:id/subtitles/:track/translations', ({ principal: p, params, body, set }) => {
      const source = svc.get(p.tenantId, params.id, params.track);
      set.status = 202;
      return trackView(queueTranslation(ctx, source, body));
    }, {
      auth: { scope: 'assets:write' }, params: t.Object({ id: t.String(), track: t.String() }), body: TranslationBody,
      detail: doc('Assets', 'Translate a subtitle track', 'תרגום רצועת כתוביות',
        '202: a new track (`source: translation`, `source_track_id`) in `language`, `queued`, translated by the configured engine (OpenAI-compatible chat or LibreTranslate) in a `subtitles.translate` job: the cues are merged into whole sentences, translated with the tenant glossary in the prompt, and laid back onto the source times within the cue rules. No engine configured: the track turns `failed` with the reason. A source track that is not ready answers 409; the same language, 422.',
        { 'x-problems': [404, 409, 422], ...answers({ 202: TrackView }) }),
    });
}
