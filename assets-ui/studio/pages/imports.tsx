/**
 * Library imports: read a website's video sitemap into an import (the reading runs in the background: the list shows
 * its progress), and the list of the tenant's imports; each opens to its review page (import.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { navigate } from '../router';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';

/** An import as the API answers it. */
export interface ImportView {
  id: string; url: string; format: string | null; status: 'fetching' | 'review' | 'running' | 'done' | 'failed'; truncated: boolean;
  counts: { items: number; new: number; skipped: number; selected: number; pending: number; registered: number; failed: number };
  progress: { documents_read: number; documents_total: number; videos: number } | null;
  error: { status: number; code: string; detail: string; errors?: { field: string; detail: string }[] } | null;
  sources: { url: string; kind: string; videos: number; pages_without_video: number; error?: string }[];
  created_at: string; started_at: string | null; finished_at: string | null;
}

const BADGE: Record<ImportView['status'], string> = { fetching: 'b-pending', review: 'b-ready', running: 'b-pending', done: 'b-ready', failed: 'b-failed' };

/** An import's status, in words and colour. */
export function ImportStatus({ status }: { status: ImportView['status'] }) {
  const { t } = useStudio();
  return <span class={`badge ${BADGE[status]}`} data-status={status}>{t(`im_st_${status}` as Key)}</span>;
}

/** What an import found or how far its reading got, in one line. */
export function ImportLine({ v }: { v: ImportView }) {
  const { t } = useStudio();
  if (v.status === 'fetching') {
    const p = v.progress ?? { documents_read: 0, documents_total: 1, videos: 0 };
    return <span class="muted">{t('im_reading', { read: p.documents_read, total: p.documents_total, videos: p.videos })}</span>;
  }
  if (v.status === 'failed') return <span class="warn"><bdi dir="ltr">{v.error?.detail ?? ''}</bdi></span>;
  return <span>{t('im_found', { items: v.counts.items, new: v.counts.new, skipped: v.counts.skipped })}</span>;
}

/** Re-runs `reload` every `ms` while `on`. */
export function usePoll(on: boolean, reload: () => void, ms = 1000): void {
  useEffect(() => {
    if (!on) return;
    const h = setInterval(reload, ms);
    return () => clearInterval(h);
  }, [on, reload]);
}

/** The imports page: a new import from a sitemap URL, and the list. */
export function Imports() {
  const { t, f, api, get, can } = useStudio();
  const list = useLoad(() => get<{ items: ImportView[] }>('/v1/library/imports?limit=50'), [], 'imports');
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  usePoll(!!list.data?.items.some((v) => v.status === 'fetching' || v.status === 'running'), list.reload);
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null);
    try {
      const v = await api<ImportView>('POST', '/v1/library/imports', { url: url.trim() });
      navigate(`/imports/${v.id}`);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <>
      <PageHead title={t('im_title')} />
      <p class="muted">{t('im_intro')}</p>
      <Problem error={err ?? list.error} />
      {can('assets:write') && (
        <section class="panel" aria-labelledby="new-import-h">
          <h2 id="new-import-h">{t('im_new')}</h2>
          <form class="inline-form" id="import-form" onSubmit={create}>
            <Field label={t('im_url')}><input id="import-url" type="url" dir="ltr" required maxLength={2048} value={url} placeholder="https://example.com/sitemap.xml" onInput={(e) => setUrl(e.currentTarget.value)} /></Field>
            <button type="submit" class="primary" id="import-create" disabled={busy}>{t('im_read')}</button>
          </form>
        </section>
      )}
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('im_none')}</Empty> : (
        <table class="table" id="imports">
          <thead><tr><th>{t('im_col_source')}</th><th>{t('im_col_status')}</th><th>{t('im_col_found')}</th><th>{t('im_col_created')}</th></tr></thead>
          <tbody>{list.data.items.map((v) => (
            <tr key={v.id} data-id={v.id}>
              <td><a href={`/studio/imports/${v.id}`}><bdi dir="ltr">{v.url}</bdi></a></td>
              <td><ImportStatus status={v.status} /></td>
              <td><ImportLine v={v} /></td>
              <td>{f.short(v.created_at)}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
    </>
  );
}
