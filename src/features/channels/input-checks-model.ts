/** Schemas of a channel's input checks (issue 48): settings with thresholds, and the conditions now. */
import { t } from 'elysia';
import type { TProperties } from '@sinclair/typebox';

const Dur = (d: string) => t.Number({ minimum: 0.5, maximum: 3600, description: d });
const Db = (d: string) => t.Number({ minimum: -90, maximum: 0, description: d });

/** Settings of each check as answered (defaults filled in). */
export const InputCheckSettingsView = t.Object({
  black: t.Object({
    enabled: t.Boolean(),
    min_duration_s: Dur('seconds of black picture before it is reported (0.5-3600; default 5)'),
    pixel_threshold: t.Integer({ minimum: 0, maximum: 255, description: 'luma level (0-255) at or under which a pixel counts as dark; a frame is black when 98 % of its pixels are (default 32)' }),
  }),
  freeze: t.Object({
    enabled: t.Boolean(),
    min_duration_s: Dur('seconds of unchanged picture before it is reported (default 10)'),
    noise_db: Db('difference (dB) under which two frames count as the same (freezedetect `n`, default -60)'),
  }),
  silence: t.Object({
    enabled: t.Boolean(),
    min_duration_s: Dur('seconds under `noise_db` before silence is reported (default 10)'),
    noise_db: Db('level (dBFS) under which audio is silent (default -60)'),
  }),
  loudness: t.Object({
    enabled: t.Boolean(),
    target_lufs: t.Number({ minimum: -40, maximum: -5, description: 'EBU R128 target (LUFS, default -23)' }),
    tolerance_lu: t.Number({ minimum: 0.5, maximum: 20, description: 'allowed deviation of the short-term loudness from the target (LU, default 2)' }),
    min_duration_s: Dur('seconds the short-term loudness stays outside target ± tolerance before it is reported (default 10)'),
  }),
});

const Cond = t.Object({
  enabled: t.Boolean(),
  active: t.Boolean({ description: 'the condition holds now' }),
  since: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'when the condition began (the signal time, not when it was reported)' }),
});

/** The input checks' state now, as in the channel object (`input_checks`). */
export const InputChecksStateView = t.Object({
  running: t.Boolean({ description: 'an analyser is reading the on-air signal (false: no check enabled, channel not on air)' }),
  input: t.Union([t.Literal('primary'), t.Literal('backup'), t.Null()], { description: 'the input whose signal is analysed (the one on air)' }),
  black: Cond, freeze: Cond, silence: Cond,
  loudness: t.Object({
    enabled: t.Boolean(), active: t.Boolean({ description: 'short-term loudness outside target ± tolerance for `min_duration_s`' }),
    since: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    momentary: t.Union([t.Number(), t.Null()], { description: 'LUFS over the last 400 ms' }),
    short_term: t.Union([t.Number(), t.Null()], { description: 'LUFS over the last 3 s' }),
    integrated: t.Union([t.Number(), t.Null()], { description: 'LUFS since the analyser started (gated, EBU R128)' }),
  }),
});

/** GET/PATCH answer: settings, when they changed, and the state now. */
export const InputChecksView = t.Object({
  ...InputCheckSettingsView.properties,
  updated_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  state: InputChecksStateView,
});

const opt = <T extends TProperties>(o: T) => t.Optional(t.Partial(t.Object(o), { additionalProperties: false, minProperties: 1 }));

/** PATCH body: any subset of any check's fields. */
export const InputChecksPatchBody = t.Object({
  black: opt({ enabled: t.Boolean(), min_duration_s: Dur('seconds'), pixel_threshold: t.Integer({ minimum: 0, maximum: 255 }) }),
  freeze: opt({ enabled: t.Boolean(), min_duration_s: Dur('seconds'), noise_db: Db('dB') }),
  silence: opt({ enabled: t.Boolean(), min_duration_s: Dur('seconds'), noise_db: Db('dBFS') }),
  loudness: opt({ enabled: t.Boolean(), target_lufs: t.Number({ minimum: -40, maximum: -5 }), tolerance_lu: t.Number({ minimum: 0.5, maximum: 20 }), min_duration_s: Dur('seconds') }),
}, { additionalProperties: false, minProperties: 1 });
