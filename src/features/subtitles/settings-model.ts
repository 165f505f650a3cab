import { t } from 'elysia';

const Lang = t.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$', description: 'BCP 47 language tag, e.g. `he`, `en`' });
const Engine = t.Union([t.Literal('auto'), t.Literal('openai'), t.Literal('pocketsphinx')], {
  description: '`auto`: the speech service when configured, else the built-in engine; `openai`: the OpenAI-compatible service only; `pocketsphinx`: the built-in English engine only',
});

/** A tenant's subtitle settings as read. */
export const SubtitleSettingsView = t.Object({
  auto_subtitles: t.Object({
    assets: t.Array(t.String(), { description: 'languages recognised automatically when an asset turns ready (one track each)' }),
    recordings: t.Array(t.String(), { description: 'languages recognised automatically for channel recordings' }),
  }),
  reading_speed: t.Integer({ description: 'reading speed limit, characters per second (cue builder and the `reading_speed` flag)' }),
  default_engine: t.String({ description: '`auto`, `openai` or `pocketsphinx`' }),
  updated_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
});

/** Body of PATCH /v1/settings/subtitles: any subset. */
export const SubtitleSettingsPatch = t.Object({
  auto_subtitles: t.Optional(t.Object({
    assets: t.Optional(t.Array(Lang, { maxItems: 10 })),
    recordings: t.Optional(t.Array(Lang, { maxItems: 10 })),
  }, { additionalProperties: false })),
  reading_speed: t.Optional(t.Integer({ minimum: 5, maximum: 40 })),
  default_engine: t.Optional(Engine),
}, { additionalProperties: false, minProperties: 1 });
