/** Dashboard: viewers now, plays and watch time, QoE, top content, live channels at a glance, events as they happen. */
import { useState } from 'preact/hooks';

import { Chart } from '../chart';
import { useStudio } from '../ctx';
import { useEventStream } from '../events';
import { Badge, Empty, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';
import { eventName } from '../names';

type Overview = { current: Record<string, number | null>; change: Record<string, number | null> };
type Series = { points: { t: string; value: number | null }[] };
type EventRow = { id: string; type: string; at: string; summary: string };

const RANGES = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': 30 * 24 * 3600_000 } as const;
/** Chart buckets per period: hourly up to a week, daily beyond (minute buckets make a day unreadable). */
const BUCKET = { '24h': '1h', '7d': '1h', '30d': '1d' } as const;
/** The reports GET /v1/stats/export streams. */
const REPORTS = ['sessions', 'player_events', 'edge_requests', 'site_events', 'programmes'] as const;

/** The dashboard page. */
export function Dashboard() {
  const { t, f, lang, get } = useStudio();
  const [range, setRange] = useState<keyof typeof RANGES>('24h');
  const [now, setNow] = useState<number | null>(null);
  const [events, setEvents] = useState<EventRow[]>([]);
  const [report, setReport] = useState<(typeof REPORTS)[number]>('sessions');
  const q = () => { const to = Date.now(); return `from=${new Date(to - RANGES[range]).toISOString()}&to=${new Date(to).toISOString()}`; };
  const rt = useLoad(() => get<{ concurrent: number }>('/v1/stats/realtime'), [], 'dash:rt');
  const ov = useLoad(() => get<Overview>(`/v1/stats/overview?${q()}`), [range], `dash:ov:${range}`);
  const ts = useLoad(async () => {
    const [plays, watch] = await Promise.all([get<Series>(`/v1/stats/timeseries?metric=plays&interval=${BUCKET[range]}&${q()}`), get<Series>(`/v1/stats/timeseries?metric=watch_time&interval=${BUCKET[range]}&${q()}`)]);
    return { times: plays.points.map((p) => Date.parse(p.t) / 1000), plays: plays.points.map((p) => p.value), watch: watch.points.map((p) => (p.value === null ? null : p.value / 60)) };
  }, [range], `dash:ts:${range}`);
  const qoe = useLoad(() => get<{ items?: Record<string, unknown>[] } & Record<string, unknown>>(`/v1/stats/qoe?${q()}`), [range], `dash:qoe:${range}`);
  const ch = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=50'), [], 'dash:ch');
  // Top content over every kind the totals count (videos, channels, clips), so the list agrees with the plays above.
  const top = useLoad(async () => {
    type Item = { id: string; value: number | null };
    const [assets, channels, clips] = await Promise.all((['assets', 'channels', 'clips'] as const).map((entity) => get<{ items: Item[] }>(`/v1/stats/top?entity=${entity}&metric=plays&limit=5&${q()}`).then((r) => r.items)));
    const all = [...assets.map((i) => ({ ...i, kind: 'asset' as const })), ...channels.map((i) => ({ ...i, kind: 'channel' as const })), ...clips.map((i) => ({ ...i, kind: 'clip' as const }))]
      .sort((a, b) => (b.value ?? 0) - (a.value ?? 0)).slice(0, 5);
    return Promise.all(all.map(async (i) => {
      if (i.kind === 'asset') return { ...i, title: await get<{ title: string }>(`/v1/assets/${encodeURIComponent(i.id)}`).then((a) => a.title, () => i.id), href: `/studio/library/${encodeURIComponent(i.id)}` };
      if (i.kind === 'clip') return { ...i, title: await get<{ title?: string }>(`/v1/clips/${encodeURIComponent(i.id)}`).then((c) => c.title || i.id, () => i.id), href: null };
      const c = (await get<{ items: ChannelView[] }>('/v1/channels?limit=50').catch(() => ({ items: [] as ChannelView[] }))).items.find((x) => x.slug === i.id);
      return { ...i, title: c?.name ?? i.id, href: c ? `/studio/live/${c.id}` : null };
    }));
  }, [range], `dash:top:${range}`);
  // Studio previews are never audience; shown apart so an editor sees why the figures did not move.
  const studioNow = useLoad(() => get<{ studio_concurrent: number }>('/v1/stats/beacons').then((r) => r.studio_concurrent, () => 0), [], 'dash:studio');
  // Alerts come from the monitors feature; a studio without it (or without the scope) leaves the panel out.
  const alerts = useLoad(() => get<{ items: { id: string; summary: string; severity: string; state: string; started_at: string }[] }>('/v1/alerts?limit=5').then((r) => r.items, () => null), [], 'dash:alerts');
  useEventStream((fr) => {
    if (fr.event === 'stats.realtime') { setNow((fr.data as { concurrent: number }).concurrent); return; }
    const d = fr.data as { id: string; type: string; at: string; data?: Record<string, unknown> };
    if (!d?.type) return;
    const subj = d.data ? String(d.data.title ?? d.data.name ?? d.data.id ?? d.data.asset_id ?? d.data.channel_id ?? '') : '';
    setEvents((list) => [{ id: d.id, type: d.type, at: d.at, summary: subj }, ...list].slice(0, 30));
  });
  const viewers = now ?? rt.data?.concurrent ?? null;
  const cur = ov.data?.current ?? {};
  const chg = ov.data?.change ?? {};
  const card = (key: Parameters<typeof t>[0], v: string, c?: number | null) => (
    <div class="stat"><span class="stat-label">{t(key)}</span><strong>{v}</strong>
      {c !== undefined && c !== null && <small class={c >= 0 ? 'up' : 'down'}>{c >= 0 ? '▲' : '▼'} {f.pct(Math.abs(c))}</small>}</div>
  );
  const qo = qoe.data as Record<string, number | null> | null;
  return (
    <>
      <PageHead title={t('nav_dashboard')}>
        <div class="seg" role="group" aria-label={t('period')}>
          {(Object.keys(RANGES) as (keyof typeof RANGES)[]).map((r) => <button type="button" aria-pressed={r === range} onClick={() => setRange(r)}>{t(`range_${r}`)}</button>)}
        </div>
      </PageHead>
      <section class="stats" aria-label={t('headline')}>
        <div class="stat live-now"><span class="stat-label">{t('viewers_now')}</span><strong id="viewers-now">{f.num(viewers)}</strong><small class="pulse">{t('live_updating')}</small>
          {!!studioNow.data && <small class="muted" id="studio-now">{t('dash_studio_now', { n: f.num(studioNow.data) })}</small>}</div>
        {ov.loading && !ov.data ? <Loading /> : ov.error ? <Problem error={ov.error} onRetry={ov.reload} /> : <>
          {card('plays', f.num(cur.plays), chg.plays)}
          {card('watch_time', f.dur(cur.watch_time), chg.watch_time)}
          {card('viewers', f.num(cur.viewers), chg.viewers)}
        </>}
      </section>
      <div class="grid2">
        <section class="panel wide">
          <h2>{t('plays_watch')}</h2>
          {ts.loading && !ts.data ? <Loading /> : ts.error ? <Problem error={ts.error} onRetry={ts.reload} />
            : ts.data && ts.data.times.length ? <Chart timeLabel={t('time')} locale={lang === 'he' ? 'he-IL' : 'en-GB'} label={t('plays_watch')} times={ts.data.times} values={[ts.data.plays, ts.data.watch]}
              lines={[{ label: t('plays'), color: '#2563eb' }, { label: t('watch_minutes'), color: '#d97706', axis: 1 }]} />
            : <Empty>{t('no_data')}</Empty>}
        </section>
        <section class="panel">
          <h2>{t('qoe')}</h2>
          {qoe.loading && !qoe.data ? <Loading /> : qoe.error ? <Problem error={qoe.error} onRetry={qoe.reload} /> : (
            <dl class="kv">
              <dt>{t('startup')}</dt><dd><bdi>{qo?.startup_avg === null || qo?.startup_avg === undefined ? '—' : `${f.num(Number(qo.startup_avg))} ms`}</bdi></dd>
              <dt>{t('rebuffer')}</dt><dd>{f.pct(qo?.rebuffer_ratio as number | null)}</dd>
              <dt>{t('errors')}</dt><dd>{f.pct(qo?.error_rate as number | null)}</dd>
            </dl>
          )}
        </section>
        <section class="panel">
          <h2>{t('top_content')}</h2>
          {top.loading && !top.data ? <Loading /> : top.error ? <Problem error={top.error} onRetry={top.reload} />
            : !top.data?.length ? <Empty>{t('no_data')}</Empty> : (
              <ol class="toplist" id="top-content">{top.data.map((i) => <li key={`${i.kind}:${i.id}`}>{i.href ? <a href={i.href}>{i.title}</a> : <span>{i.title}</span>}<span>{f.num(i.value)}</span></li>)}</ol>
            )}
        </section>
        <section class="panel">
          <h2>{t('channel_health')}</h2>
          {ch.loading && !ch.data ? <Loading /> : ch.error ? <Problem error={ch.error} onRetry={ch.reload} />
            : !ch.data?.items.length ? <Empty>{t('no_channels')} <a href="/studio/live">{t('create_channel')}</a></Empty> : (
              <ul class="health">{ch.data.items.map((c) => (
                <li key={c.id}><a href={`/studio/live/${c.id}`}>{c.name}</a><Badge status={c.status} />
                  <span class="muted">{c.input.bitrate_kbps ? `${f.num(c.input.bitrate_kbps)} kb/s` : ''}</span>
                  {c.recording === 'gap' && <Badge status="gap" />}</li>
              ))}</ul>
            )}
        </section>
        {alerts.data && (
          <section class="panel">
            <h2>{t('recent_alerts')}</h2>
            {!alerts.data.length ? <Empty>{t('no_alerts')}</Empty> : (
              <ul class="health" id="alerts">{alerts.data.map((a) => <li key={a.id}><Badge status={a.state} /> {a.summary} <small class="muted">{f.short(a.started_at)}</small></li>)}</ul>
            )}
          </section>
        )}
        <section class="panel" id="export-panel">
          <h2>{t('dash_export')}</h2>
          <div class="export-row">
            <select id="export-report" aria-label={t('dash_export_report')} value={report} onChange={(e) => setReport(e.currentTarget.value as typeof report)}>
              {REPORTS.map((r) => <option value={r}>{t(`rep_${r}`)}</option>)}
            </select>
            {/* Built when clicked, so the period ends at the moment of the click. */}
            <a class="button" id="export-csv" href={`/v1/stats/export?report=${report}&format=csv`} download
              onClick={(e) => { e.currentTarget.href = `/v1/stats/export?report=${report}&format=csv&${q()}`; }}>{t('dash_export_csv')}</a>
            <span class="muted">{t(`range_${range}`)}</span>
          </div>
        </section>
        <section class="panel">
          <h2>{t('recent_events')}</h2>
          {!events.length ? <Empty>{t('waiting_events')}</Empty> : (
            <ul class="events" id="events" aria-live="polite">{events.map((e) => (
              <li key={e.id}><time>{f.time(e.at)}</time> <strong title={e.type}>{eventName(t, e.type)}</strong> <span class="muted">{e.summary}</span></li>
            ))}</ul>
          )}
        </section>
      </div>
    </>
  );
}
