/**
 * One library import: its reading progress (or the problem that failed it), then the videos it found for review —
 * title, page, video, duration, new or already in the library — with a checkbox per new video, start, and each
 * video's result while the import runs.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Empty, Loading, PageHead, Problem, useLoad } from '../ui';
import { ImportLine, ImportStatus, usePoll, type ImportView } from './imports';

/** An item as the API answers it. */
interface ItemView {
  id: string; title: string; page_url: string; video_url: string; video_kind: 'content' | 'player'; duration_s: number | null;
  thumbnail_url: string | null; status: 'new' | 'skipped'; selected: boolean; external_id: string;
  result: 'pending' | 'registered' | 'failed' | 'skipped' | null; asset_id: string | null; error: string | null;
}

/** How many items a page of the list holds. */
const PAGE = 200;

function Result({ i }: { i: ItemView }) {
  const { t } = useStudio();
  if (!i.result) return <span class="muted">—</span>;
  const cls = i.result === 'registered' ? 'b-ready' : i.result === 'failed' ? 'b-failed' : 'b-pending';
  return (
    <span class="im-result">
      <span class={`badge ${cls}`} data-result={i.result}>{t(`im_res_${i.result}` as Key)}</span>
      {i.asset_id && <> <a href={`/studio/library/${i.asset_id}`}>{t('im_open_asset')}</a></>}
      {i.error && <small class="warn"> <bdi dir="ltr">{i.error}</bdi></small>}
    </span>
  );
}

/** The review page of one import. */
export function ImportPage({ id }: { id: string }) {
  const { t, f, api, get, can } = useStudio();
  const [limit, setLimit] = useState(PAGE);
  const imp = useLoad(() => get<ImportView>(`/v1/library/imports/${id}`), [id]);
  const items = useLoad(() => get<{ items: ItemView[]; next_cursor: string | null }>(`/v1/library/imports/${id}/items?limit=${Math.min(limit, 500)}`), [id, limit]);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const v = imp.data;
  const live = v?.status === 'fetching' || v?.status === 'running';
  const reload = () => { imp.reload(); items.reload(); };
  usePoll(live, reload);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true); setErr(null);
    try { await fn(); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); reload(); }
  };
  const select = (selected: boolean, ids: string[] | 'all') => run(() => api('PATCH', `/v1/library/imports/${id}/items`, ids === 'all' ? { selected, all: true } : { selected, item_ids: ids }));
  const editable = v?.status === 'review' && can('assets:write');
  // The box shows the choice at once; the answer (and the counts) follow.
  const toggle = (i: ItemView, selected: boolean) => {
    if (items.data) items.set({ ...items.data, items: items.data.items.map((x) => (x.id === i.id ? { ...x, selected } : x)) });
    void select(selected, [i.id]);
  };
  return (
    <>
      <PageHead title={t('im_title')}><a class="button small" href="/studio/imports">{t('im_back')}</a></PageHead>
      <Problem error={err ?? imp.error ?? items.error} />
      {!v ? <Loading /> : (
        <>
          <section class="panel" aria-labelledby="import-h" id="import-summary">
            <h2 id="import-h"><bdi dir="ltr">{v.url}</bdi></h2>
            <p><ImportStatus status={v.status} /> {v.format && <span class="muted">{t(`im_fmt_${v.format}` as Key)}</span>} · <small class="muted">{f.short(v.created_at)}</small></p>
            <p id="import-line" role="status" aria-live="polite"><ImportLine v={v} /></p>
            {v.status === 'fetching' && v.progress && <progress id="import-reading" style={{ width: "100%" }} max={Math.max(1, v.progress.documents_total)} value={v.progress.documents_read} />}
            {v.status === 'failed' && v.error && (
              <div class="problem" role="alert" id="import-error"><strong>{t('im_failed')}</strong> <bdi dir="ltr">{v.error.errors?.[0]?.detail ?? v.error.detail}</bdi></div>
            )}
            {(v.status === 'running' || v.status === 'done') && (
              <>
                <progress id="import-progress" style={{ width: "100%" }} max={Math.max(1, v.counts.selected)} value={v.counts.registered + v.counts.failed} />
                <p id="import-counts">{t('im_progress', { done: v.counts.registered + v.counts.failed, n: v.counts.selected, registered: v.counts.registered, failed: v.counts.failed })}</p>
              </>
            )}
            {v.truncated && <p class="warn">{t('im_truncated')}</p>}
            {v.sources.length > 1 && (
              <details><summary>{t('im_documents')} ({v.sources.length})</summary>
                <ul class="im-sources">{v.sources.map((s) => (
                  <li><bdi dir="ltr">{s.url}</bdi> · {t('im_doc_videos', { n: s.videos })}{s.error && <small class="warn"> <bdi dir="ltr">{s.error}</bdi></small>}</li>
                ))}</ul>
              </details>
            )}
          </section>
          {v.status !== 'fetching' && v.status !== 'failed' && (
            <section aria-labelledby="items-h">
              <div class="row-between">
                <h2 id="items-h">{t('im_items')}</h2>
                {editable && (
                  <span class="actions">
                    <span class="muted" id="import-selected">{t('im_counts', { selected: v.counts.selected, new: v.counts.new })}</span>
                    <button type="button" class="small" disabled={busy} onClick={() => void select(true, 'all')}>{t('im_select_all')}</button>
                    <button type="button" class="small" disabled={busy} onClick={() => void select(false, 'all')}>{t('im_select_none')}</button>
                    <button type="button" class="primary" id="import-start" disabled={busy || !v.counts.selected} title={t('im_start_hint')}
                      onClick={() => void run(() => api('POST', `/v1/library/imports/${id}/start`))}>{t('im_start', { n: v.counts.selected })}</button>
                  </span>
                )}
              </div>
              {items.loading && !items.data ? <Loading /> : !items.data?.items.length ? <Empty>{t('im_none')}</Empty> : (
                <table class="table im-items" id="import-items">
                  <thead><tr><th><span class="sr-only">{t('im_select')}</span></th><th>{t('im_col_title')}</th><th>{t('im_col_page')}</th><th>{t('im_col_video')}</th>
                    <th>{t('im_col_duration')}</th><th>{t('im_col_state')}</th><th>{t('im_col_result')}</th></tr></thead>
                  <tbody>{items.data.items.map((i) => (
                    <tr key={i.id} data-id={i.id} data-status={i.status}>
                      <td>{i.status === 'new' && <input type="checkbox" aria-label={`${t('im_select')}: ${i.title || i.page_url}`} checked={i.selected} disabled={!editable}
                        onChange={(e) => toggle(i, e.currentTarget.checked)} />}</td>
                      <td>{i.title || <span class="muted">{t('im_untitled')}</span>}</td>
                      <td><a href={i.page_url} target="_blank" rel="noopener noreferrer"><bdi dir="ltr">{i.page_url}</bdi></a></td>
                      <td><bdi dir="ltr">{i.video_url}</bdi>{i.video_kind === 'player' && <small class="muted"> ({t('im_player_only')})</small>}</td>
                      <td>{f.dur(i.duration_s)}</td>
                      <td><span class={`badge ${i.status === 'new' ? 'b-ready' : 'b-pending'}`}>{t(i.status === 'new' ? 'im_item_new' : 'im_item_skipped')}</span></td>
                      <td><Result i={i} /></td>
                    </tr>
                  ))}</tbody>
                </table>
              )}
              {items.data?.next_cursor && limit < 500 && <button type="button" class="small" onClick={() => setLimit(500)}>{t('im_more')}</button>}
            </section>
          )}
        </>
      )}
    </>
  );
}
