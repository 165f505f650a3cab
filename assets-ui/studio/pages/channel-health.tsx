/** A channel's health per input (bitrate and frame-rate graphs of primary and backup) and its failover and recording-gap history. */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { Chart } from '../chart';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Badge, Empty, Loading, Problem, useLoad } from '../ui';
import type { ChannelView, InputNow } from './live';

/** Points kept per graph (2 s apart: five minutes). */
const KEEP = 150;
/** Hours of history shown. */
const HISTORY_H = 6;

/** Samples of one input: times (s), kb/s and frames/s (null where nothing arrived). */
export interface Series { times: number[]; kbps: (number | null)[]; fps: (number | null)[] }
/** Samples of both inputs. */
export type InputSeries = Record<'primary' | 'backup', Series>;

/** An empty pair of series. */
export const noSeries = (): InputSeries => ({ primary: { times: [], kbps: [], fps: [] }, backup: { times: [], kbps: [], fps: [] } });

/** Pure: the series with the channel's per-input figures at `now` (s) appended, the oldest dropped past KEEP. */
export function addSample(h: InputSeries, c: ChannelView, now: number): InputSeries {
  if (!c.inputs) return h;
  const add = (s: Series, i: InputNow): Series => ({
    times: [...s.times, now].slice(-KEEP),
    kbps: [...s.kbps, i.connected ? i.bitrate_kbps : null].slice(-KEEP),
    fps: [...s.fps, i.connected ? i.fps : null].slice(-KEEP),
  });
  return { primary: add(h.primary, c.inputs.primary), backup: add(h.backup, c.inputs.backup) };
}

const count = (v: (number | null)[]) => v.filter((x) => x !== null).length;

/** Both inputs side by side: state, figures and a graph of bitrate (left axis) and frame rate (right axis) each. */
export function InputsPanel({ c, series }: { c: ChannelView; series: InputSeries }) {
  const { t, f, lang } = useStudio();
  const locale = lang === 'he' ? 'he-IL' : 'en-GB';
  return (
    <section class="panel wide" id="inputs-panel">
      <h2>{t('lv_inputs')}</h2>
      <div class="grid2">
        {(['primary', 'backup'] as const).map((name) => {
          const i = c.inputs?.[name];
          const s = series[name];
          return (
            <div id={`input-${name}`} class="input-health" data-bitrate-samples={count(s.kbps)} data-fps-samples={count(s.fps)}>
              <h3>{t(name)} {c.feed === name && <span class="badge b-live">{t('lv_on_air')}</span>}</h3>
              <dl class="kv">
                <dt>{t('state')}</dt><dd class="input-state">{i?.connected ? t('lv_connected') : t('lv_not_connected')}</dd>
                <dt>{t('bitrate')}</dt><dd class="input-kbps"><bdi>{i?.bitrate_kbps != null ? `${f.num(i.bitrate_kbps)} kb/s` : '—'}</bdi></dd>
                <dt>{t('lv_fps')}</dt><dd class="input-fps"><bdi>{i?.fps != null ? `${f.num(i.fps)} ${t('lv_fps_unit')}` : '—'}</bdi></dd>
                <dt>{t('resolution')}</dt><dd><bdi dir="ltr">{i?.resolution ?? '—'}</bdi></dd>
                <dt>{t('lv_restarts')}</dt><dd>{f.num(i?.restarts ?? 0)}</dd>
              </dl>
              {count(s.kbps) + count(s.fps) > 1
                ? <Chart timeLabel={t('time')} locale={locale} label={t('lv_input_graph', { input: t(name) })} times={s.times} values={[s.kbps, s.fps]} height={150}
                  lines={[{ label: `${t('bitrate')} (kb/s)`, color: '#16a34a' }, { label: `${t('lv_fps')} (${t('lv_fps_unit')})`, color: '#2563eb', axis: 1 }]} />
                : <p class="muted">{i?.connected ? t('collecting') : t('lv_collecting_input')}</p>}
            </div>
          );
        })}
      </div>
    </section>
  );
}

interface History {
  feed: string; recording: string; recorded_s: number;
  feed_changes: { at: string; feed: string; previous: string; reason: string }[];
  failovers: { at: string; from: string; to: string; reason: string }[];
  recording_changes: { at: string; recording: string; previous: string }[];
  gaps: { from: string; to: string; duration_s: number; open: boolean }[];
}

const REASONS: Record<string, Key> = { start: 'lv_r_start', 'primary silent': 'lv_r_primary_silent', 'backup silent': 'lv_r_backup_silent', 'primary returned': 'lv_r_primary_returned', 'no feed': 'lv_r_no_feed' };

/** Failovers (primary ⇄ backup with times), feed lost/back, recording changes and gaps over the last hours, newest first. */
export function HistoryPanel({ c }: { c: ChannelView }) {
  const { t, f, get } = useStudio();
  const h = useLoad(() => get<History>(`/v1/channels/${encodeURIComponent(c.id)}/history?from=${new Date(Date.now() - HISTORY_H * 3_600_000).toISOString()}`), [c.id, c.feed, c.recording], `hist:${c.id}`);
  useEffect(() => { const i = setInterval(() => h.reload(), 15_000); return () => clearInterval(i); }, [h.reload]);
  const feedWord = (x: string) => t(`feed_${x}` as Key);
  const reason = (r: string) => (r ? <small class="muted"> · {t('lv_reason', { r: REASONS[r] ? t(REASONS[r]) : r })}</small> : null);
  const d = h.data;
  const rows: { at: string; kind: string; node: ComponentChildren }[] = d ? [
    ...d.failovers.map((x) => ({ at: x.at, kind: 'failover', node: <><strong>{t('lv_ev_failover', { from: feedWord(x.from), to: feedWord(x.to) })}</strong>{reason(x.reason)}</> })),
    // A failover also changes the feed: only the feed lost or found again is listed separately.
    ...d.feed_changes.filter((x) => x.feed === 'none' || x.previous === 'none').map((x) => ({ at: x.at, kind: 'feed', node: <>{t('lv_ev_feed', { from: feedWord(x.previous), to: feedWord(x.feed) })}{reason(x.reason)}</> })),
    ...d.recording_changes.map((x) => ({ at: x.at, kind: 'recording', node: <>{t('lv_ev_rec', { to: t(`st_rec_${x.recording}` as Key) })}</> })),
    ...d.gaps.map((g) => ({ at: g.from, kind: 'gap', node: g.open ? <>{t('lv_gap_open', { t: f.time(g.from) })}</> : <>{t('lv_ev_gap', { d: f.dur(g.duration_s) })} <small class="muted"><bdi>{f.time(g.from)} – {f.time(g.to)}</bdi></small></> })),
  ].sort((a, b) => b.at.localeCompare(a.at)) : [];
  return (
    <section class="panel wide" id="history-panel">
      <h2>{t('lv_history')}</h2>
      <p class="muted">{t('lv_history_hint', { h: HISTORY_H })}</p>
      {h.loading && !d ? <Loading /> : h.error && !d ? <Problem error={h.error} onRetry={h.reload} /> : d && (
        <>
          <dl class="kv inline" id="history-summary">
            <dt>{t('recording')}</dt><dd><Badge status={`rec_${d.recording}`} /></dd>
            <dt>{t('lv_recorded')}</dt><dd><bdi>{f.dur(d.recorded_s)}</bdi></dd>
            <dt>{t('lv_failovers')}</dt><dd id="failover-count">{f.num(d.failovers.length)}</dd>
            <dt>{t('lv_gaps')}</dt><dd id="gap-count">{f.num(d.gaps.length)}</dd>
          </dl>
          {!rows.length ? <Empty>{t('lv_no_history')}</Empty> : (
            <ol class="health" id="history">
              {rows.map((r) => <li class={`hist-${r.kind}`} key={`${r.kind}${r.at}`}><time dateTime={r.at}>{f.time(r.at)}</time> {r.node}</li>)}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
