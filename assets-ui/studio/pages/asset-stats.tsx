/** Statistics of one video on its page: plays, watch time and viewers over a period, a chart, and its sessions as CSV. */
import { useState } from 'preact/hooks';
import { Chart } from '../chart';
import { useStudio } from '../ctx';
import { Empty, Loading, Problem, useLoad } from '../ui';

type Overview = { current: Record<string, number | null> };
type Series = { points: { t: string; value: number | null }[] };

const RANGES = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': 30 * 24 * 3600_000 } as const;
const BUCKET = { '24h': '1h', '7d': '1h', '30d': '1d' } as const;

/** The `from`/`to` query of a period ending now. */
export function periodQuery(ms: number, now = Date.now()): string {
  return `from=${new Date(now - ms).toISOString()}&to=${new Date(now).toISOString()}`;
}

/** The statistics panel of an asset (GET /v1/stats/overview and /timeseries filtered by `asset`). */
export function AssetStats({ id }: { id: string }) {
  const { t, f, lang, get } = useStudio();
  const [range, setRange] = useState<keyof typeof RANGES>('7d');
  const q = () => `asset=${encodeURIComponent(id)}&${periodQuery(RANGES[range])}`;
  const ov = useLoad(() => get<Overview>(`/v1/stats/overview?${q()}`), [id, range]);
  const ts = useLoad(async () => {
    const [plays, watch] = await Promise.all(['plays', 'watch_time'].map((m) => get<Series>(`/v1/stats/timeseries?metric=${m}&interval=${BUCKET[range]}&${q()}`)));
    return { times: plays.points.map((p) => Date.parse(p.t) / 1000), plays: plays.points.map((p) => p.value), watch: watch.points.map((p) => (p.value === null ? null : p.value / 60)) };
  }, [id, range]);
  const cur = ov.data?.current ?? {};
  return (
    <>
      <div class="panel-head">
        <h2>{t('as_title')}</h2>
        <div class="seg" role="group" aria-label={t('period')}>
          {(Object.keys(RANGES) as (keyof typeof RANGES)[]).map((r) => <button type="button" aria-pressed={r === range} onClick={() => setRange(r)}>{t(`range_${r}`)}</button>)}
        </div>
      </div>
      {ov.loading && !ov.data ? <Loading /> : ov.error ? <Problem error={ov.error} onRetry={ov.reload} /> : (
        <dl class="kv" id="asset-stats">
          <dt>{t('plays')}</dt><dd id="asset-plays">{f.int(cur.plays ?? 0)}</dd>
          <dt>{t('watch_time')}</dt><dd id="asset-watch">{f.dur(cur.watch_time ?? 0)}</dd>
          <dt>{t('viewers')}</dt><dd id="asset-viewers">{f.int(cur.viewers ?? 0)}</dd>
        </dl>
      )}
      {ts.loading && !ts.data ? <Loading /> : ts.error ? <Problem error={ts.error} onRetry={ts.reload} />
        : ts.data && ts.data.plays.some((v) => v) ? <Chart timeLabel={t('time')} locale={lang === 'he' ? 'he-IL' : 'en-GB'} label={t('plays_watch')} times={ts.data.times} values={[ts.data.plays, ts.data.watch]}
          lines={[{ label: t('plays'), color: '#2563eb' }, { label: t('watch_minutes'), color: '#d97706', axis: 1 }]} height={180} />
        : <Empty>{t('no_data')}</Empty>}
      <p><a id="asset-stats-csv" href={`/v1/stats/export?report=sessions&format=csv&${q()}`} download>{t('as_export_csv')}</a></p>
    </>
  );
}
