import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import { channelBySlug } from '../channels/service';
import { programmeOf } from '../guide/service';
import type { Gate, Guarded } from '../playback/gate';
import { deliveryPath } from '../playback/delivery-table';
import { fileResponse, masterResponse, type RangeSource } from './source';
import { rangeSubtitles } from './range-subs';
import { serveText } from '../media-delivery/serve-file';

/**
 * Unprotected catch-up delivery behind the gate: `/m/catchup/<slug>/<start_ms>/<end_ms|live>/...?c=<tenant>`,
 * start-over `/m/startover/<slug>/<programme>/...?c=<tenant>` and Flussonic-style
 * `/live/<tenant>/<slug>/archive-<from_s>-<duration_s>.m3u8` (register before liveRoutes). The tenant and range are
 * the ones the gate checked.
 */
export function catchupDeliveryRoutes(ctx: AppContext, gate: Gate) {
  const q = (slug: string) => `?c=${encodeURIComponent(slug)}`;
  const channel = (g: Guarded, slug: string) => {
    const ch = channelBySlug(ctx, g.tenant.id, slug);
    if (!ch) throw notFound('channel');
    return ch;
  };
  const catchup = (g: Guarded): RangeSource => ({ ch: channel(g, g.target.id), tenantSlug: g.tenant.slug, from: g.target.from!, to: g.target.to ?? null });
  const startover = (g: Guarded): RangeSource => {
    const ch = channel(g, g.target.id);
    const prog = programmeOf(ctx, g.tenant.id, ch.id, g.target.programme!);
    if (!prog) throw notFound('programme');
    const from = prog.play_start_ms ?? prog.start_ms, end = prog.play_end_ms ?? prog.end_ms;
    if (from > ctx.clock.now()) throw notFound('programme has not started');
    return { ch, tenantSlug: g.tenant.slug, from, to: end > ctx.clock.now() ? null : end };
  };
  // Subtitles (issue 43): published recording tracks over the range are subtitle renditions (range-subs.ts).
  const { master, variant, vtt } = rangeSubtitles(ctx);
  const app = new Elysia();
  gate.route(app, 'catchupMaster', (g) => master(g, catchup(g)));
  gate.route(app, 'catchupVariant', (g) => variant(g, catchup(g)));
  gate.route(app, 'catchupVtt', (g) => vtt(g, catchup(g)));
  gate.route(app, 'catchupInit', (g) => fileResponse(ctx, g.request, catchup(g), g.params.r, 'init', g.params.file));
  gate.route(app, 'catchupSeg', (g) => fileResponse(ctx, g.request, catchup(g), g.params.r, 'seg', g.params.file));
  gate.route(app, 'startoverMaster', (g) => master(g, startover(g)));
  gate.route(app, 'startoverVariant', (g) => variant(g, startover(g)));
  gate.route(app, 'startoverVtt', (g) => vtt(g, startover(g)));
  gate.route(app, 'startoverInit', (g) => fileResponse(ctx, g.request, startover(g), g.params.r, 'init', g.params.file));
  gate.route(app, 'startoverSeg', (g) => fileResponse(ctx, g.request, startover(g), g.params.r, 'seg', g.params.file));
  // The archive form plays the same range as /m/catchup/...; its variant URIs climb back there (and stay under a
  // /t/<token>/ prefix, whose catch-up claims cover them).
  gate.route(app, 'liveArchive', async (g) => {
    const src = catchup(g);
    const up = `../../..${deliveryPath('catchupMaster', { slug: src.ch.slug, s: src.from, e: src.to! }, src.tenantSlug).replace(/master\.m3u8\?.*$/, '')}`;
    const body = await masterResponse(ctx, src, q(src.tenantSlug)).text();
    return serveText(g.request, body.replace(/^([^#\n][^\n]*)$/gm, `${up}$1`), 'application/vnd.apple.mpegurl', `public, max-age=${src.to === null ? 2 : 60}`);
  });
  return app;
}
