/**
 * The events inbox: the tenant's events newest first (GET /v1/events), filtered by type, older pages on demand, and
 * new ones arriving live from the event stream. Unread = newer than the last "mark all read" (kept in this browser).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { useEventStream, type Frame } from '../events';
import { eventLine, eventName } from '../names';
import { Empty, Loading, Problem, useLoad } from '../ui';

interface Ev { seq: number; id: string; type: string; at: string; data: unknown }
interface PageAnswer { items: Ev[]; next_before: number | null; last_seq: number; event_types: string[] }

const seenKey = (tenant: string) => `vs_inbox_seen_${tenant}`;
function readSeen(tenant: string): number { try { return Number(localStorage.getItem(seenKey(tenant)) ?? 0) || 0; } catch { return 0; } }

/**
 * Titles of the videos, clips and channels the shown events name (ids in their data), read once each: an inbox line
 * says "Video: Evening news", not an id.
 */
function useTitles(items: Ev[]): Map<string, string> {
  const { get } = useStudio();
  const [titles, setTitles] = useState(() => new Map<string, string>());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const want: [string, string][] = [];
    let channels = false;
    for (const e of items) {
      const d = (e.data ?? {}) as Record<string, unknown>;
      for (const [k, path] of [['asset', '/v1/assets/'], ['clip', '/v1/clips/']] as const) {
        const id = d[k];
        if (typeof id === 'string' && !asked.current.has(id) && want.length < 30) { asked.current.add(id); want.push([id, path]); }
      }
      if (typeof d.channel_id === 'string' || typeof d.channel === 'string') channels = true;
    }
    if (channels && !asked.current.has('#channels')) {
      asked.current.add('#channels');
      get<{ items: { id: string; name: string }[] }>('/v1/channels?limit=200').then((r) => setTitles((m) => { const n = new Map(m); for (const c of r.items) n.set(c.id, c.name); return n; }), () => {});
    }
    for (const [id, path] of want) {
      get<{ title?: string | null }>(`${path}${encodeURIComponent(id)}`).then((x) => { if (x.title) setTitles((m) => new Map(m).set(id, x.title!)); }, () => {});
    }
  }, [items.length, items[0]?.seq]);
  return titles;
}

/** The live part: the event stream from the loaded page's `last_seq` on (nothing between the two is missed). */
function Live({ after, onFrame }: { after: number; onFrame: (f: Frame) => void }) {
  const cb = useRef(onFrame);
  cb.current = onFrame;
  useEventStream((f) => cb.current(f), `stats_s=60&last_event_id=${after}`);
  return null;
}

/** The inbox panel. */
export function Inbox() {
  const { t, f, get, me } = useStudio();
  const tenant = me?.current_tenant?.id ?? '';
  const [type, setType] = useState('');
  const typeNow = useRef(type);
  typeNow.current = type;
  const [seen, setSeen] = useState(() => readSeen(tenant));
  const [extra, setExtra] = useState<{ live: Ev[]; older: Ev[]; next: number | null | undefined }>({ live: [], older: [], next: undefined });
  const [openId, setOpenId] = useState<number | null>(null);
  const page = useLoad(() => get<PageAnswer>(`/v1/events?limit=50${type ? `&type=${encodeURIComponent(type)}` : ''}`).then((r) => { setExtra({ live: [], older: [], next: undefined }); return r; }), [type]);
  const onFrame = (fr: Frame) => {
    if (!fr.id || fr.event === 'stats.realtime') return;
    const env = fr.data as { id: string; type: string; at: string; data: unknown };
    const want = typeNow.current;
    if (want && !(want.endsWith('.*') ? env.type.startsWith(want.slice(0, -1)) : env.type === want)) return;
    const ev: Ev = { seq: Number(fr.id), id: env.id, type: env.type, at: env.at, data: env.data };
    setExtra((x) => (x.live.some((e) => e.seq === ev.seq) ? x : { ...x, live: [ev, ...x.live].slice(0, 200) }));
  };
  const base = page.data?.items ?? [];
  const top = base[0]?.seq ?? 0;
  const items = [...extra.live.filter((e) => e.seq > top), ...base, ...extra.older];
  const next = extra.next === undefined ? page.data?.next_before ?? null : extra.next;
  const unread = items.filter((e) => e.seq > seen).length;
  const more = async () => {
    if (!next) return;
    const r = await get<PageAnswer>(`/v1/events?limit=50&before=${next}${type ? `&type=${encodeURIComponent(type)}` : ''}`);
    setExtra((x) => ({ ...x, older: [...x.older, ...r.items], next: r.next_before }));
  };
  const markRead = () => {
    const max = items.reduce((m, e) => Math.max(m, e.seq), seen);
    try { localStorage.setItem(seenKey(tenant), String(max)); } catch { /* storage off */ }
    setSeen(max);
  };
  const titles = useTitles(items);
  const families = [...new Set((page.data?.event_types ?? []).filter((x) => x.includes('.')).map((x) => `${x.split('.')[0]}.*`))];
  return (
    <section class="panel wide" aria-labelledby="inbox-title">
      <div class="row-between">
        <h2 id="inbox-title">{t('i_title')} <span class="badge b-live" aria-hidden="true">{t('i_live')}</span>{unread > 0 && <span class="badge i-unread" id="inbox-unread">{t('i_unread', { n: unread })}</span>}</h2>
        <div class="c-tools">
          <label class="pick"><span>{t('i_type')}</span>
            <select id="inbox-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
              <option value="">{t('i_all')}</option>
              {families.map((x) => <option value={x}>{eventName(t, x)}</option>)}
              {(page.data?.event_types ?? []).map((x) => <option value={x}>{eventName(t, x)}</option>)}
            </select>
          </label>
          <button type="button" class="small" id="inbox-read" onClick={markRead} disabled={!unread}>{t('i_mark_read')}</button>
        </div>
      </div>
      {page.data && <Live after={page.data.last_seq} onFrame={onFrame} />}
      {page.loading && !page.data ? <Loading /> : page.error ? <Problem error={page.error} onRetry={page.reload} /> : !items.length ? <Empty>{t('i_none')}</Empty> : (
        <ul class="i-list" id="inbox" aria-live="polite">{items.map((e) => (
          <li key={e.seq} class={e.seq > seen ? 'i-new' : ''} data-type={e.type}>
            <button type="button" class="link i-row" aria-expanded={openId === e.seq} onClick={() => setOpenId(openId === e.seq ? null : e.seq)}>
              <strong class="i-type" title={e.type}>{eventName(t, e.type)}</strong>
              <span class="i-sum" dir="auto">{eventLine(t, e.data, titles)}</span>
              <time dateTime={e.at}>{f.short(e.at)}</time>
              {e.seq > seen && <span class="badge b-pending">{t('i_new')}</span>}
            </button>
            {openId === e.seq && <pre dir="ltr" class="i-data" aria-label={t('i_details')}>{JSON.stringify(e.data, null, 2)}</pre>}
          </li>
        ))}</ul>
      )}
      {next && <button type="button" class="small" id="inbox-more" onClick={more}>{t('i_more')}</button>}
    </section>
  );
}
