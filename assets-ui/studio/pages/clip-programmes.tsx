/** The catch-up programme list of a channel: coverage, status, "cut on the timeline" and publish to the library with progress. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Badge, Empty, Loading, Problem } from '../ui';
import { VodProgress, type CatchupItem } from './clip-publish';

/** The list; `onFocus` puts a programme on the timeline. */
export function Programmes({ channelId, list, onFocus, focused }: {
  channelId: string; list: { data: { items: CatchupItem[] } | null; loading: boolean; error: string | null; reload: () => void }; onFocus: (p: CatchupItem) => void; focused: string | null;
}) {
  const { t, f, api, can } = useStudio();
  const [jobs, setJobs] = useState<Record<string, string | null>>({});
  const [err, setErr] = useState<string | null>(null);
  const publish = async (p: CatchupItem) => {
    setErr(null);
    try {
      // A publisher's "Publish to the library" publishes the new video as soon as it is ready; an editor adds a draft.
      const body = { ...(p.vod?.status === 'failed' ? { replace: true } : {}), ...(can('assets:publish') ? { publish: true } : {}) };
      const r = await api<{ job_id: string }>('POST', `/v1/channels/${channelId}/programmes/${p.id}/publish-vod`, body);
      setJobs((j) => ({ ...j, [p.id]: r.job_id }));
    } catch (x) { setErr(errorWords(x)); }
  };
  const items = list.data?.items ?? [];
  return (
    <section class="panel wide" aria-labelledby="progs-title">
      <div class="row-between"><h2 id="progs-title">{t('c_programmes')}</h2><button type="button" class="small" onClick={list.reload}>{t('refresh')}</button></div>
      <Problem error={err} />
      {list.loading && !list.data ? <Loading /> : list.error ? <Problem error={list.error} onRetry={list.reload} /> : !items.length ? <Empty>{t('c_no_programmes')}</Empty> : (
        <table class="table" id="programmes">
          <thead><tr><th>{t('title')}</th><th>{t('c_when')}</th><th>{t('c_coverage')}</th><th>{t('state')}</th><th /></tr></thead>
          <tbody>{items.map((p) => {
            const following = p.id in jobs || p.vod?.status === 'publishing';
            const canPublish = can('assets:write') && !p.airing && p.coverage > 0 && (!p.vod || p.vod.status === 'failed');
            return (
              <tr key={p.id} data-id={p.id} class={focused === p.id ? 'c-on' : ''}>
                <td>{p.title}</td>
                <td><bdi>{f.short(p.start_at)}</bdi> · {f.dur((Date.parse(p.end_at) - Date.parse(p.start_at)) / 1000)}</td>
                <td><span class="c-cov" title={f.pct(p.coverage)}><i style={{ inlineSize: `${Math.round(p.coverage * 100)}%` }} /></span> <bdi dir="ltr">{f.pct(p.coverage)}</bdi></td>
                <td>{p.airing ? <Badge status="live" /> : <Badge status={p.status} />}</td>
                <td class="c-acts">
                  <button type="button" class="small c-focus" onClick={() => onFocus(p)} disabled={p.coverage <= 0}>{t('c_cut_here')}</button>
                  {canPublish && !following && <button type="button" class="small primary c-publish" onClick={() => publish(p)}>{t(can('assets:publish') ? 'c_to_library_publish' : 'c_to_library_draft')}</button>}
                  {(following || p.vod?.status === 'published') && <VodProgress channelId={channelId} item={p} jobId={jobs[p.id] ?? null} onDone={list.reload} />}
                </td>
              </tr>
            );
          })}</tbody>
        </table>
      )}
    </section>
  );
}
