/** The pages of a site (a tab): each page's path, draft/live state, review request and scheduled change; a new page. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { errorWords } from '../api';
import { Badge, Empty, Field, Loading, Problem, useLoad } from '../ui';
import { siteApi, siteHref, type Site, type SitePage } from './sites-model';

/** What a template page can stand for (the API's `template_for`). */
const TEMPLATES = ['show', 'video', 'programme', 'clip', 'channel', 'person', 'search', 'epg', 'podcast', 'category'] as const;
type Template = (typeof TEMPLATES)[number];

/** The pages list with a create form. */
export function SitePages({ site }: { site: Site }) {
  const { t, f, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: SitePage[] }>(siteApi(site.id, '/pages')), [site.id], `site-pages:${site.id}`);
  const [title, setTitle] = useState('');
  const [path, setPath] = useState('/');
  const [template, setTemplate] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null);
    try {
      const p = await api<SitePage>('POST', siteApi(site.id, '/pages'), { title: title.trim(), ...(template ? { template_for: template } : { path: path.trim() }), sections: [] });
      navigate(`/sites/${site.id}/pages/${p.id}`);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const items = list.data?.items ?? [];
  return (
    <div class="ws-pages">
      {can('sites:write') && (
        <form class="panel inline-form" id="ws-page-create" onSubmit={create}>
          <Field label={t('ws_page_title')}><input id="ws-page-title" required maxLength={300} value={title} onInput={(e) => setTitle(e.currentTarget.value)} /></Field>
          <Field label={t('ws_page_kind')}>
            <select id="ws-page-kind" value={template} onChange={(e) => setTemplate(e.currentTarget.value)}>
              <option value="">{t('ws_page_at_path')}</option>
              {TEMPLATES.map((x) => <option key={x} value={x}>{t('ws_template_for', { type: t(`ws_tpl_${x}`) })}</option>)}
            </select>
          </Field>
          {!template && <Field label={t('ws_path')}><input id="ws-page-path" dir="ltr" required pattern="/[^?#\s\\]*" value={path} onInput={(e) => setPath(e.currentTarget.value)} /></Field>}
          <button class="primary" type="submit" disabled={busy || !title.trim()}>{t('ws_new_page')}</button>
          <Problem error={err} />
        </form>
      )}
      <Problem error={list.error} onRetry={list.reload} />
      {list.loading && !list.data ? <Loading /> : !items.length ? <Empty>{t('ws_no_pages')}</Empty> : (
        <table class="table" id="ws-page-list">
          <thead><tr><th>{t('ws_page_title')}</th><th>{t('ws_path')}</th><th>{t('state')}</th><th>{t('ws_pending_change')}</th><th>{t('ws_updated')}</th></tr></thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id}>
                <td><a href={siteHref(site.id, `/pages/${p.id}`)}><bdi>{p.draft.title}</bdi></a></td>
                <td><code dir="ltr">{p.path ?? t('ws_template_for', { type: p.template_for ? t(`ws_tpl_${p.template_for as Template}`) : '' })}</code></td>
                <td><Badge status={p.status} />{p.live && JSON.stringify(p.live) !== JSON.stringify(p.draft) && <span class="badge b-pending">{t('ws_unpublished_changes')}</span>}</td>
                <td>
                  {p.review && <span class="badge b-waiting">{t('ws_in_review')}</span>}{' '}
                  {p.schedule ? t(p.schedule.action === 'publish' ? 'ws_sched_publish_at' : 'ws_sched_unpublish_at', { when: f.short(p.schedule.at) }) : !p.review && '—'}
                </td>
                <td>{f.short(p.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
