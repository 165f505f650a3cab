import { invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { deliveryPath } from '../playback/delivery-table';
import { dayRange } from '../guide/days';
import { offersCatchup, offersStartOver } from './catalogue';
import { channelAllowed, entity, itemOf, programmeItem, publishedShows, showItem, videoItem, type Scope } from './items';
import type { Doc } from './pages';
import type { ItemType } from './model';

type Json = Record<string, unknown>;
type Section = Doc['sections'][number];

/** Items a rail lists by query, newest first (`limit` default 12), plus whether more exist. */
function queried(s: Scope, sec: Section): { items: Json[]; more: boolean } {
  const q = sec.query ?? {};
  const limit = q.limit ?? 12;
  let all: Json[] = [];
  switch (sec.item_type ?? 'video') {
    case 'video': {
      let vids = s.cat.videos;
      if (q.show) {
        const show = publishedShows(s).find((d) => d.slug === q.show);
        const ids = new Set((show?.episodes as { assets?: string[] } | undefined)?.assets ?? []);
        vids = vids.filter((v) => ids.has(v.id));
      }
      if (q.order === 'title') vids = [...vids].sort((a, b) => a.title.localeCompare(b.title));
      all = vids.slice(0, limit + 1).map((v) => videoItem(s, v));
      break;
    }
    case 'programme':
      all = s.cat.programmes.filter((p) => {
        const ch = s.cat.channelById.get(p.channel_id);
        return offersCatchup(p, ch, s.now) && (!q.channel || ch?.slug === q.channel) && (!q.series || p.series === q.series) && !!ch && channelAllowed(s, ch.slug);
      }).slice(0, limit + 1).map((p) => programmeItem(s, p));
      break;
    case 'channel': all = s.cat.channels.filter((c) => channelAllowed(s, c.slug)).slice(0, limit + 1).map((c) => itemOf(s, 'channel', c.slug)!); break;
    case 'clip': all = s.cat.clips.filter((c) => !q.channel || s.cat.channelById.get(c.channel_id)?.slug === q.channel).slice(0, limit + 1).map((c) => itemOf(s, 'clip', c.id)!); break;
    case 'show': all = publishedShows(s).slice(0, limit + 1).map((d) => showItem(s, d)); break;
    case 'person': all = s.store.items(s.site.id, 'person').map((r) => itemOf(s, 'person', r.slug)).filter((x): x is Json => !!x).slice(0, limit + 1); break;
  }
  return { items: all.slice(0, limit), more: all.length > limit };
}

/** One section with its items resolved (hand-picked items that are not public are left out). */
export function resolveSection(s: Scope, sec: Section): Json {
  const head = { id: sec.id, type: sec.type, title: sec.title ?? null };
  switch (sec.type) {
    case 'hero':
    case 'rail': {
      const r = sec.items?.length
        ? { items: sec.items.map((i) => itemOf(s, i.type as ItemType, i.slug)).filter((x): x is Json => !!x), more: false }
        : queried(s, sec);
      return { ...head, item_type: sec.item_type ?? null, items: sec.type === 'hero' ? r.items.slice(0, 5) : r.items, more: r.more };
    }
    case 'live_player': {
      const ch = sec.channel ? entity(s, 'channel', sec.channel) : null;
      return { ...head, channel: sec.channel ?? null, items: ch ? [ch] : [], more: false };
    }
    case 'epg': {
      const slug = sec.channel ?? s.cat.channels.find((c) => channelAllowed(s, c.slug))?.slug;
      const day = slug ? epgDay(s, slug, undefined) : null;
      return { ...head, channel: slug ?? null, day: day?.day ?? null, items: day?.items ?? [], more: false };
    }
    default:
      return { ...head, text: sec.text ?? null, link: sec.link ?? null, image: sec.image ?? null, items: [], more: false };
  }
}

/** Today's date (YYYY-MM-DD) in a time zone. */
export function today(now: number, tz: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
}

/** One guide day of a channel the site shows: catch-up and start-over per programme (day: today in the site's time zone). */
export function epgDay(s: Scope, slug: string, day: string | undefined): { channel: string; day: string; time_zone: string; items: Json[] } {
  const ch = s.cat.channelBySlug.get(slug);
  if (!ch || !channelAllowed(s, slug)) throw notFound('channel');
  const tz = s.site.time_zone;
  const d = day ?? today(s.now, tz);
  if (!/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`))) throw invalid('day', 'YYYY-MM-DD');
  const [from, to] = dayRange(d, tz);
  const progs = s.cat.programmes.filter((p) => p.channel_id === ch.id && p.end_ms > from && p.start_ms < to).reverse();
  const items = progs.map((p) => {
    const so = offersStartOver(s.ctx, p, ch, s.now);
    const cu = offersCatchup(p, ch, s.now);
    const ps = p.play_start_ms ?? p.start_ms, pe = p.play_end_ms ?? p.end_ms;
    return {
      id: p.id, title: p.title, description: p.description ?? '', series: p.series, episode: p.episode, start_at: iso(p.start_ms), end_at: iso(p.end_ms),
      airing: p.start_ms <= s.now && s.now < p.end_ms, catchup: cu, url: `/p/${p.id}`,
      catchup_src: cu ? s.ctx.config.cdnBaseUrl + deliveryPath('catchupMaster', { slug: ch.slug, s: ps, e: pe }, s.tenantSlug) : null,
      start_over: so, start_over_src: so ? s.ctx.config.cdnBaseUrl + deliveryPath('startoverMaster', { slug: ch.slug, pid: p.id }, s.tenantSlug) : null,
    };
  });
  return { channel: slug, day: d, time_zone: tz, items };
}
