/** The AI articles inbox: the tenant's drafted, published and rejected articles (GET /v1/ai/artifacts), filtered by status, older pages on demand. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { Empty, Loading, PageHead, Problem, useLoad } from '../ui';
import type { Artifact } from './article-model';
import { RequestDraft } from './article-request';

interface ListAnswer { items: Artifact[]; next_cursor: string | null }
const STATUSES = ['draft', 'published', 'rejected'] as const;

/** The inbox page (/studio/articles). */
export function Articles() {
  const { t, f, get, can } = useStudio();
  const [status, setStatus] = useState<string>(() => new URLSearchParams(location.search).get('status') ?? 'draft');
  const [older, setOlder] = useState<{ items: Artifact[]; next: string | null | undefined }>({ items: [], next: undefined });
  const page = useLoad(() => get<ListAnswer>(`/v1/ai/artifacts?limit=50&kind=article${status ? `&status=${status}` : ''}`).then((r) => { setOlder({ items: [], next: undefined }); return r; }), [status], `articles:${status}`);
  const items = [...(page.data?.items ?? []), ...older.items];
  const next = older.next === undefined ? page.data?.next_cursor ?? null : older.next;
  const more = async () => {
    if (!next) return;
    const r = await get<ListAnswer>(`/v1/ai/artifacts?limit=50&kind=article${status ? `&status=${status}` : ''}&cursor=${encodeURIComponent(next)}`);
    setOlder((o) => ({ items: [...o.items, ...r.items], next: r.next_cursor }));
  };
  return (
    <section>
      <PageHead title={t('ar_inbox')} />
      {can('assets:write') && <RequestDraft />}
      <div class="toolbar" role="group" aria-label={t('ar_filter_status')}>
        {[...STATUSES, ''].map((s) => (
          <button key={s || 'all'} type="button" class={status === s ? 'small primary' : 'small'} aria-pressed={status === s} id={`ar-filter-${s || 'all'}`}
            onClick={() => setStatus(s)}>{s ? t(`ar_st_${s}` as 'ar_st_draft') : t('ar_all')}</button>
        ))}
      </div>
      <Problem error={page.error} onRetry={page.reload} />
      {page.loading && !page.data ? <Loading /> : !items.length ? <Empty>{t('ar_none')}</Empty> : (
        <table class="table" id="articles">
          <thead><tr><th>{t('ar_headline')}</th><th>{t('ar_programme')}</th><th>{t('state')}</th><th>{t('ar_engine')}</th><th>{t('ar_created')}</th></tr></thead>
          <tbody>
            {items.map((a) => (
              <tr key={a.id}>
                <td><a href={`/studio/articles/${a.id}`}><bdi>{a.body.headline}</bdi></a></td>
                <td><bdi>{a.subject.title ?? '—'}</bdi></td>
                <td><span class={`badge b-${a.status}`}>{t(`ar_st_${a.status}` as 'ar_st_draft')}</span></td>
                <td>{t(a.engine === 'llm' ? 'ar_eng_llm' : 'ar_eng_extractive')}</td>
                <td>{f.short(a.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && <button type="button" class="small" onClick={more}>{t('ar_more')}</button>}
    </section>
  );
}
