import type { TargetKind } from './token';

/**
 * The one table of delivery addresses. Each entry is the single definition of a playback URL shape: the route
 * pattern the router serves, the strict pattern of every path parameter, where the tenant is named (path or the
 * `c` query parameter), which protected target the request opens, and the builder that writes the URL. The routes,
 * the delivery guard and every URL the API returns are made from these entries, so they cannot disagree.
 */

/** Strict patterns of delivery path parameters (checked after the router decoded them). */
export const PARAM = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /** Tenant as named in a path or `c=`: its id or its slug. */
  tenant: /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[a-z0-9][a-z0-9-]{0,62})$/,
  slug: /^[a-z0-9][a-z0-9-]{0,62}$/,
  rendition: /^[A-Za-z0-9_-]{1,64}$/,
  version: /^(?:v[0-9]{1,6}|preview)$/,
  /** A VOD output file name: a plain name, never a dot segment. */
  vodFile: /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/,
  ms: /^[0-9]{10,14}$/,
  msOrLive: /^(?:[0-9]{10,14}|live)$/,
  initFile: /^[0-9]{1,14}\.mp4$/,
  segFile: /^[0-9]{1,14}\.m4s$/,
  /** A final clip's own files: init segments and numbered media segments. */
  clipFile: /^(?:init-e?[0-9]{1,14}\.mp4|[0-9]{1,14}\.m4s)$/,
  archive: /^archive-([0-9]{9,11})-([0-9]{1,6})\.m3u8$/,
  /** A recorded range's WebVTT subtitle segment: the media segment's wall-clock start and duration (ms). */
  vttFile: /^[0-9]{10,14}-[0-9]{1,7}\.vtt$/,
} as const;

/** What a delivery request opens, as the token binding and the policies see it. */
export interface DeliveryTarget {
  kind: TargetKind;
  /** Asset id, channel slug or clip id; for catch-up and start-over the channel slug. */
  id: string;
  /** Catch-up range in epoch ms; `to` undefined = growing to the live edge. */
  from?: number;
  to?: number;
  /** Start-over programme id. */
  programme?: string;
  /** VOD: the AES-128 view. */
  encrypted?: boolean;
  /** VOD: the file name asked for. */
  file?: string;
}

/** One delivery URL shape. */
export interface DeliveryRoute {
  /** Route pattern (Elysia syntax). */
  path: string;
  /** Where the tenant is named: the `:tenant` path parameter or exactly one `c` query parameter. */
  tenantIn: 'path' | 'query';
  /** Strict pattern per path parameter (all of them). */
  params: Record<string, RegExp>;
  /** The protected target of a request; null = not a target of this shape (404). */
  target(p: Record<string, string>): DeliveryTarget | null;
}

const live = (extra: Record<string, RegExp>): Record<string, RegExp> => ({ tenant: PARAM.tenant, channel: PARAM.slug, ...extra });
const range = (extra: Record<string, RegExp>): Record<string, RegExp> => ({ slug: PARAM.slug, s: PARAM.ms, e: PARAM.msOrLive, ...extra });
const so = (extra: Record<string, RegExp>): Record<string, RegExp> => ({ slug: PARAM.slug, pid: PARAM.uuid, ...extra });
const clip = (extra: Record<string, RegExp>): Record<string, RegExp> => ({ id: PARAM.uuid, ...extra });
const catchupTarget = (p: Record<string, string>): DeliveryTarget | null => {
  const from = Number(p.s), to = p.e === 'live' ? undefined : Number(p.e);
  if (to !== undefined && to <= from) return null;
  return { kind: 'catchup', id: p.slug, from, to };
};
const vod = (p: Record<string, string>, encrypted: boolean): DeliveryTarget => ({ kind: 'asset', id: p.asset, encrypted, file: p.file });

/** Every delivery route the origin serves, by name. */
export const DELIVERY = {
  vodFile: { path: '/m/:tenant/assets/:asset/:ver/:file', tenantIn: 'path', params: { tenant: PARAM.uuid, asset: PARAM.uuid, ver: PARAM.version, file: PARAM.vodFile }, target: (p) => vod(p, false) },
  vodAesFile: { path: '/m/:tenant/assets/:asset/:ver/aes/:file', tenantIn: 'path', params: { tenant: PARAM.uuid, asset: PARAM.uuid, ver: PARAM.version, file: PARAM.vodFile }, target: (p) => vod(p, true) },
  liveMaster: { path: '/live/:tenant/:channel/master.m3u8', tenantIn: 'path', params: live({}), target: (p) => ({ kind: 'channel', id: p.channel }) },
  // Flussonic-style archive: /live/<tenant>/<slug>/archive-<from_s>-<duration_s>.m3u8 (a catch-up window).
  liveArchive: {
    path: '/live/:tenant/:channel/:rendition', tenantIn: 'path', params: live({ rendition: PARAM.archive }),
    target: (p) => {
      const m = PARAM.archive.exec(p.rendition)!;
      const from = Number(m[1]) * 1000, dur = Number(m[2]) * 1000;
      return dur > 0 ? { kind: 'catchup', id: p.channel, from, to: from + dur } : null;
    },
  },
  liveVariant: { path: '/live/:tenant/:channel/:rendition/index.m3u8', tenantIn: 'path', params: live({ rendition: PARAM.rendition }), target: (p) => ({ kind: 'channel', id: p.channel }) },
  liveInit: { path: '/live/:tenant/:channel/:rendition/init/:file', tenantIn: 'path', params: live({ rendition: PARAM.rendition, file: PARAM.initFile }), target: (p) => ({ kind: 'channel', id: p.channel }) },
  liveSeg: { path: '/live/:tenant/:channel/:rendition/seg/:file', tenantIn: 'path', params: live({ rendition: PARAM.rendition, file: PARAM.segFile }), target: (p) => ({ kind: 'channel', id: p.channel }) },
  // The live subtitle rendition's WebVTT segments (`subs-<language>`): the media segment's wall-clock start and duration.
  liveVtt: { path: '/live/:tenant/:channel/:rendition/vtt/:file', tenantIn: 'path', params: live({ rendition: PARAM.rendition, file: PARAM.vttFile }), target: (p) => ({ kind: 'channel', id: p.channel }) },
  catchupMaster: { path: '/m/catchup/:slug/:s/:e/master.m3u8', tenantIn: 'query', params: range({}), target: catchupTarget },
  catchupVariant: { path: '/m/catchup/:slug/:s/:e/:r/index.m3u8', tenantIn: 'query', params: range({ r: PARAM.rendition }), target: catchupTarget },
  catchupInit: { path: '/m/catchup/:slug/:s/:e/:r/init/:file', tenantIn: 'query', params: range({ r: PARAM.rendition, file: PARAM.initFile }), target: catchupTarget },
  catchupSeg: { path: '/m/catchup/:slug/:s/:e/:r/seg/:file', tenantIn: 'query', params: range({ r: PARAM.rendition, file: PARAM.segFile }), target: catchupTarget },
  catchupVtt: { path: '/m/catchup/:slug/:s/:e/:r/vtt/:file', tenantIn: 'query', params: range({ r: PARAM.rendition, file: PARAM.vttFile }), target: catchupTarget },
  startoverMaster: { path: '/m/startover/:slug/:pid/master.m3u8', tenantIn: 'query', params: so({}), target: (p) => ({ kind: 'startover', id: p.slug, programme: p.pid }) },
  startoverVariant: { path: '/m/startover/:slug/:pid/:r/index.m3u8', tenantIn: 'query', params: so({ r: PARAM.rendition }), target: (p) => ({ kind: 'startover', id: p.slug, programme: p.pid }) },
  startoverInit: { path: '/m/startover/:slug/:pid/:r/init/:file', tenantIn: 'query', params: so({ r: PARAM.rendition, file: PARAM.initFile }), target: (p) => ({ kind: 'startover', id: p.slug, programme: p.pid }) },
  startoverSeg: { path: '/m/startover/:slug/:pid/:r/seg/:file', tenantIn: 'query', params: so({ r: PARAM.rendition, file: PARAM.segFile }), target: (p) => ({ kind: 'startover', id: p.slug, programme: p.pid }) },
  startoverVtt: { path: '/m/startover/:slug/:pid/:r/vtt/:file', tenantIn: 'query', params: so({ r: PARAM.rendition, file: PARAM.vttFile }), target: (p) => ({ kind: 'startover', id: p.slug, programme: p.pid }) },
  clipMaster: { path: '/m/clips/:id/master.m3u8', tenantIn: 'query', params: clip({}), target: (p) => ({ kind: 'clip', id: p.id }) },
  clipVariant: { path: '/m/clips/:id/:r/index.m3u8', tenantIn: 'query', params: clip({ r: PARAM.rendition }), target: (p) => ({ kind: 'clip', id: p.id }) },
  clipFile: { path: '/m/clips/:id/:r/:file', tenantIn: 'query', params: clip({ r: PARAM.rendition, file: PARAM.clipFile }), target: (p) => ({ kind: 'clip', id: p.id }) },
  clipInit: { path: '/m/clips/:id/:r/init/:file', tenantIn: 'query', params: clip({ r: PARAM.rendition, file: PARAM.initFile }), target: (p) => ({ kind: 'clip', id: p.id }) },
  clipVtt: { path: '/m/clips/:id/:r/vtt/:file', tenantIn: 'query', params: clip({ r: PARAM.rendition, file: PARAM.vttFile }), target: (p) => ({ kind: 'clip', id: p.id }) },
  clipSeg: { path: '/m/clips/:id/:r/seg/:file', tenantIn: 'query', params: clip({ r: PARAM.rendition, file: PARAM.segFile }), target: (p) => ({ kind: 'clip', id: p.id }) },
} satisfies Record<string, DeliveryRoute>;

/** Name of a delivery route. */
export type DeliveryName = keyof typeof DELIVERY;

/**
 * Writes the path of a delivery route (percent-encoding every parameter), with `?c=<tenant>` for routes that name
 * their tenant in the query. Relative to the delivery base (`{cdn_hostname}`).
 */
export function deliveryPath(name: DeliveryName, params: Record<string, string | number>, tenantSlug?: string): string {
  const def: DeliveryRoute = DELIVERY[name];
  const path = def.path.replace(/:([A-Za-z]+)/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`deliveryPath(${name}): missing ${k}`);
    return encodeURIComponent(String(v));
  });
  if (def.tenantIn === 'query') {
    if (!tenantSlug) throw new Error(`deliveryPath(${name}): needs the tenant`);
    return `${path}?c=${encodeURIComponent(tenantSlug)}`;
  }
  return path;
}
