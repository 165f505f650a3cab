import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { assetWaveform } from './waveform';

/** The waveform answer's schema (audiowaveform JSON, version 2). */
const WaveformView = t.Object({
  version: t.Literal(2), channels: t.Literal(1),
  sample_rate: t.Integer({ description: 'samples a second of the audio the peaks were taken from (8000)' }),
  samples_per_pixel: t.Integer({ description: 'samples each min/max pair covers (80: 10 ms; coarser for long media)' }),
  bits: t.Literal(8), length: t.Integer({ description: 'pixels (min/max pairs); 0 when the asset has no audio' }),
  data: t.Array(t.Integer({ minimum: -128, maximum: 127 }), { description: 'min, max, min, max, … per pixel' }),
});

/** `GET /v1/assets/{id}/waveform`: peaks for the studio's cue editor (issue 43; docs/subtitles.md). */
export function waveformRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .get('/:id/waveform', async ({ principal: p, params }) => new Response(await assetWaveform(ctx, p.tenantId, params.id), {
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, max-age=3600' },
    }), {
      auth: { scope: 'assets:read' }, params: t.Object({ id: t.String() }),
      detail: doc('Assets', "Get an asset's audio waveform", 'צורת הגל של השמע בנכס',
        "Peaks of the asset's first audio stream (mixed to mono, 8 kHz) as BBC audiowaveform JSON (version 2, 8 bits): a min and a max per 10 ms, coarser past 180,000 pixels. Computed once by ffmpeg on the first ask (which waits for it) and kept beside the asset; an asset without audio answers `length` 0. 409 while the asset has no uploaded source.",
        { operationId: 'getAssetWaveform', 'x-problems': [404, 409], ...answers({ 200: WaveformView }) }),
    });
}
