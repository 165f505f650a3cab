/**
 * The page editor (/studio/sites/:id/pages/:page): title, description and sections of the draft beside the live
 * preview of the saved draft; below, publishing with review and scheduling (sites-publish.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { errorWords } from '../api';
import { Field, Loading, Problem, useLoad } from '../ui';
import { cleanSection, siteApi, type Doc, type Site, type SitePage } from './sites-model';
import { SiteHead, SiteTabs } from './sites-site';
import { SectionsEditor } from './sites-sections';
import { PagePreview } from './sites-preview';
import { PublishPanel } from './sites-publish';

/** The document to send (empty optional strings dropped). */
const cleanDoc = (d: Doc): Doc => ({ ...d, description: d.description || undefined, sections: d.sections.map(cleanSection) });

/** The editor page. */
export function SitePageEditor({ id, pageId }: { id: string; pageId: string }) {
  const { t, get, api, can } = useStudio();
  const site = useLoad(() => get<Site>(siteApi(id)), [id], `site:${id}`);
  const page = useLoad(() => get<SitePage>(siteApi(id, `/pages/${pageId}`)), [id, pageId]);
  const [doc, setDoc] = useState<Doc | null>(null);
  const [path, setPath] = useState('');
  const [version, setVersion] = useState(0);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (page.data && !doc) { setDoc(structuredClone(page.data.draft)); setPath(page.data.path ?? ''); } }, [page.data]);
  const s = site.data, p = page.data;
  if ((site.error && !s) || (page.error && !p)) return <Problem error={site.error ?? page.error} onRetry={() => { site.reload(); page.reload(); }} />;
  if (!s || !p || !doc) return <Loading />;
  const dirty = JSON.stringify(cleanDoc(doc)) !== JSON.stringify(cleanDoc(p.draft)) || (p.path !== null && path !== p.path);
  const writer = can('sites:write');
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null); setNote(null);
    try {
      const d = cleanDoc(doc);
      const next = await api<SitePage>('PATCH', siteApi(id, `/pages/${pageId}`), { title: d.title, description: d.description ?? '', sections: d.sections, ...(p.path !== null && path !== p.path ? { path } : {}) });
      page.set(next);
      setDoc(structuredClone(next.draft));
      setVersion((v) => v + 1);
      setNote(t('ws_draft_saved'));
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const remove = async () => {
    if (!confirm(t('ws_confirm_delete_page'))) return;
    try { await api('DELETE', siteApi(id, `/pages/${pageId}`)); navigate(`/sites/${id}/pages`); } catch (x) { setErr(errorWords(x)); }
  };
  return (
    <section class="ws">
      <SiteHead site={s} title={t('ws_edit_page', { title: p.draft.title })} />
      <SiteTabs site={s} tab="/pages" />
      <div class="ws-editor">
        <form class="panel ws-draft" id="ws-draft" onSubmit={save}>
          <div class="row-between"><h2>{t('ws_draft')}</h2>{dirty && <span class="badge b-pending" id="ws-unsaved">{t('ws_unsaved')}</span>}</div>
          <fieldset class="ws-fs" disabled={!writer || busy}>
            <div class="row">
              <Field label={t('ws_page_title')}><input id="ws-ed-title" required maxLength={300} value={doc.title} onInput={(e) => setDoc({ ...doc, title: e.currentTarget.value })} /></Field>
              {p.path !== null && <Field label={t('ws_path')}><input id="ws-ed-path" dir="ltr" required value={path} onInput={(e) => setPath(e.currentTarget.value)} /></Field>}
            </div>
            <Field label={t('ws_page_description')}><textarea id="ws-ed-desc" rows={2} value={doc.description ?? ''} onInput={(e) => setDoc({ ...doc, description: e.currentTarget.value })} /></Field>
          </fieldset>
          <SectionsEditor sections={doc.sections} disabled={!writer || busy} onChange={(sections) => setDoc({ ...doc, sections })} />
          <div class="actions">
            {writer && <button type="submit" class="primary" id="ws-save-draft" disabled={busy || !dirty}>{t('ws_save_draft')}</button>}
            {writer && dirty && <button type="button" id="ws-discard" disabled={busy} onClick={() => { setDoc(structuredClone(p.draft)); setPath(p.path ?? ''); }}>{t('ws_discard')}</button>}
            {can('sites:publish') && <button type="button" class="danger" id="ws-delete-page" onClick={remove}>{t('ws_delete_page')}</button>}
          </div>
          {note && <p class="saved" role="status" id="ws-draft-note">{note}</p>}
          <Problem error={err} />
        </form>
        <PagePreview site={s} pageId={pageId} version={version} />
      </div>
      <PublishPanel site={s} page={p} dirty={dirty} onChanged={(n) => { page.set(n); setDoc(structuredClone(n.draft)); setVersion((v) => v + 1); }} />
    </section>
  );
}
