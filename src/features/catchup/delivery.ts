import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { notFound } from '../../kernel/errors';
import { IdentityService } from '../identity/service';
import { channelBySlug } from '../channels/service';
import { programmeOf } from '../guide/service';
import { fileResponse, masterResponse, mediaResponse, parseRange, type RangeSource } from './source';

const ARCHIVE = /^archive-(\d{9,11})-(\d{1,6})\.m3u8$/;

/**
 * Unprotected catch-up delivery (the gate checks tokens and policies first):
 * `/m/catchup/<slug>/<start_ms>/<end_ms|live>/...?c=<tenant>`, start-over `/m/startover/<slug>/<programme>/...`
 * and Flussonic-style `/live/<tenant>/<slug>/archive-<from_s>-<duration_s>.m3u8` (register before liveRoutes).
 */
export function catchupDeliveryRoutes(ctx: AppContext) {
  const identity = new IdentityService(ctx.db, null);
  const channel = (tenant: string | undefined, slug: string) => {
    if (!tenant) throw notFound('tenant (add ?c=<tenant>)');
    let tn;
    try { tn = identity.tenant(tenant); } catch { throw notFound('channel'); }
    const ch = channelBySlug(ctx, tn.id, slug);
    if (!ch) throw notFound('channel');
    return { ch, tenantSlug: tn.slug as string, tenantId: tn.id as string };
  };
  const q = (slug: string) => `?c=${encodeURIComponent(slug)}`;
  const catchup = (p: { slug: string; s: string; e: string }, c: string | undefined): RangeSource => {
    const { ch, tenantSlug } = channel(c, p.slug);
    return { ch, tenantSlug, ...parseRange(p.s, p.e) };
  };
  const startover = (p: { slug: string; pid: string }, c: string | undefined): RangeSource => {
    const { ch, tenantSlug, tenantId } = channel(c, p.slug);
    const prog = programmeOf(ctx, tenantId, ch.id, p.pid);
    if (!prog) throw notFound('programme');
    const from = prog.play_start_ms ?? prog.start_ms, end = prog.play_end_ms ?? prog.end_ms;
    if (from > ctx.clock.now()) throw notFound('programme has not started');
    return { ch, tenantSlug, from, to: end > ctx.clock.now() ? null : end };
  };
  const C = t.Object({ c: t.Optional(t.String()) });
  const CP = t.Object({ slug: t.String(), s: t.String(), e: t.String() });
  const CPR = t.Object({ slug: t.String(), s: t.String(), e: t.String(), r: t.String(), file: t.String() });
  const SP = t.Object({ slug: t.String(), pid: t.String() });
  const SPR = t.Object({ slug: t.String(), pid: t.String(), r: t.String(), file: t.String() });
  return new Elysia()
    .get('/m/catchup/:slug/:s/:e/master.m3u8', ({ params, query }) => { const src = catchup(params, query.c); return masterResponse(ctx, src, q(src.tenantSlug)); }, { params: CP, query: C, detail: hidden })
    .get('/m/catchup/:slug/:s/:e/:r/index.m3u8', ({ params, query }) => { const src = catchup(params, query.c); return mediaResponse(ctx, src, params.r, q(src.tenantSlug)); }, { params: t.Object({ slug: t.String(), s: t.String(), e: t.String(), r: t.String() }), query: C, detail: hidden })
    .get('/m/catchup/:slug/:s/:e/:r/init/:file', ({ params, query, request }) => fileResponse(ctx, request, catchup(params, query.c), params.r, 'init', params.file), { params: CPR, query: C, detail: hidden })
    .get('/m/catchup/:slug/:s/:e/:r/seg/:file', ({ params, query, request }) => fileResponse(ctx, request, catchup(params, query.c), params.r, 'seg', params.file), { params: CPR, query: C, detail: hidden })
    .get('/m/startover/:slug/:pid/master.m3u8', ({ params, query }) => { const src = startover(params, query.c); return masterResponse(ctx, src, q(src.tenantSlug)); }, { params: SP, query: C, detail: hidden })
    .get('/m/startover/:slug/:pid/:r/index.m3u8', ({ params, query }) => { const src = startover(params, query.c); return mediaResponse(ctx, src, params.r, q(src.tenantSlug)); }, { params: t.Object({ slug: t.String(), pid: t.String(), r: t.String() }), query: C, detail: hidden })
    .get('/m/startover/:slug/:pid/:r/init/:file', ({ params, query, request }) => fileResponse(ctx, request, startover(params, query.c), params.r, 'init', params.file), { params: SPR, query: C, detail: hidden })
    .get('/m/startover/:slug/:pid/:r/seg/:file', ({ params, query, request }) => fileResponse(ctx, request, startover(params, query.c), params.r, 'seg', params.file), { params: SPR, query: C, detail: hidden })
    // The param is named like liveRoutes' `:rendition` at this position (the router needs one name per place).
    .get('/live/:tenant/:channel/:rendition', ({ params }) => {
      const m = ARCHIVE.exec(params.rendition);
      if (!m) throw notFound('file');
      const { ch, tenantSlug } = channel(params.tenant, params.channel);
      const from = Number(m[1]) * 1000, to = from + Number(m[2]) * 1000;
      if (to <= from) throw notFound('archive range');
      const up = `../../../m/catchup/${encodeURIComponent(ch.slug)}/${from}/${to}/`;
      // Variant URIs climb back to /m/catchup/... (and stay under a /t/<token>/ prefix).
      const res = masterResponse(ctx, { ch, tenantSlug, from, to }, q(tenantSlug));
      return res.text().then((body) => new Response(body.replace(/^([^#\n][^\n]*)$/gm, `${up}$1`), { headers: res.headers }));
    }, { params: t.Object({ tenant: t.String(), channel: t.String(), rendition: t.String() }), detail: hidden });
}
