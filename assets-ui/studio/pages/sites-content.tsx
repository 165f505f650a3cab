/** Shows and people of a site (two tabs): a list, and one form that creates a new one or edits the one picked. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Empty, Field, Problem, useLoad } from '../ui';
import { siteApi, type Person, type Show, type Site } from './sites-model';

type Kind = 'shows' | 'people';
type Row = Show & Person;
/** The editable fields of each kind: [field, words key, input kind]. */
const FIELDS: Record<Kind, [keyof Row | 'series', 'ws_title' | 'ws_name' | 'ws_role' | 'ws_description' | 'ws_bio' | 'ws_series', 'text' | 'area'][]> = {
  shows: [['title', 'ws_title', 'text'], ['series', 'ws_series', 'text'], ['description', 'ws_description', 'area']],
  people: [['name', 'ws_name', 'text'], ['role', 'ws_role', 'text'], ['bio', 'ws_bio', 'area']],
};

function ItemsTab({ site, kind }: { site: Site; kind: Kind }) {
  const { t, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: Row[] }>(siteApi(site.id, `/${kind}`)), [site.id, kind]);
  const [editing, setEditing] = useState<Row | null>(null);
  const [form, setForm] = useState<Record<string, string | boolean>>({});
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pick = (r: Row | null) => {
    setEditing(r); setErr(null); setNote(null);
    setForm(r ? { slug: r.slug, title: r.title ?? '', name: r.name ?? '', role: r.role ?? '', bio: r.bio ?? '', description: r.description ?? '', series: r.episodes?.series ?? '', published: !!r.published } : {});
  };
  const str = (k: string) => String(form[k] ?? '');
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null); setNote(null);
    const body: Record<string, unknown> = { slug: str('slug').trim() };
    for (const [k] of FIELDS[kind]) {
      if (k === 'series') { if (str('series') || editing?.episodes?.series) body.episodes = { ...editing?.episodes, series: str('series') || undefined }; continue; }
      if (str(k as string) || (editing && (editing as unknown as Record<string, unknown>)[k])) body[k] = str(k as string);
    }
    if (can('sites:publish') && (!!form.published !== !!editing?.published)) body.published = !!form.published;
    try {
      if (editing) await api('PATCH', siteApi(site.id, `/${kind}/${encodeURIComponent(editing.id)}`), body);
      else await api('POST', siteApi(site.id, `/${kind}`), body);
      setNote(t('saved')); list.reload(); if (!editing) pick(null);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const remove = async (r: Row) => {
    if (!confirm(t('confirm_delete'))) return;
    try { await api('DELETE', siteApi(site.id, `/${kind}/${encodeURIComponent(r.id)}`)); if (editing?.id === r.id) pick(null); list.reload(); } catch (x) { setErr(errorWords(x)); }
  };
  const items = list.data?.items ?? [];
  const main = kind === 'shows' ? 'title' : 'name';
  return (
    <div class="grid2 ws-items">
      <div class="panel" id={`ws-${kind}-list`}>
        <h2>{t(kind === 'shows' ? 'ws_tab_shows' : 'ws_tab_people')}</h2>
        <Problem error={list.error} onRetry={list.reload} />
        {!items.length ? <Empty>{t(kind === 'shows' ? 'ws_no_shows' : 'ws_no_people')}</Empty> : (
          <ul class="plain">
            {items.map((r) => (
              <li key={r.id} class={editing?.id === r.id ? 'ws-picked' : undefined}>
                <button type="button" class="link" onClick={() => pick(r)}><bdi>{r[main] as string}</bdi></button>
                <code dir="ltr" class="muted">{r.slug}</code>
                <span class={`badge b-${r.published ? 'published' : 'draft'}`}>{t(r.published ? 'st_published' : 'st_draft')}</span>
                {can('sites:publish') && <button type="button" class="small danger" onClick={() => void remove(r)}>{t('delete')}</button>}
              </li>
            ))}
          </ul>
        )}
      </div>
      <form class="panel" id={`ws-${kind}-form`} onSubmit={save}>
        <div class="row-between">
          <h2>{editing ? t('ws_edit_item', { name: String(editing[main]) }) : t(kind === 'shows' ? 'ws_new_show' : 'ws_new_person')}</h2>
          {editing && <button type="button" class="small" onClick={() => pick(null)}>{t('ws_new')}</button>}
        </div>
        <fieldset class="ws-fs" disabled={!can('sites:write') || busy}>
          <Field label={t('slug')}><input id={`ws-${kind}-slug`} dir="ltr" required pattern="[a-z0-9]([a-z0-9\-]*[a-z0-9])?" value={str('slug')} onInput={(e) => setForm({ ...form, slug: e.currentTarget.value })} /></Field>
          {FIELDS[kind].map(([k, label, input]) => (
            <Field key={k} label={t(label)}>
              {input === 'area'
                ? <textarea id={`ws-${kind}-${k}`} rows={3} value={str(k)} onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })} />
                : <input id={`ws-${kind}-${k}`} required={k === main} value={str(k)} onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })} />}
            </Field>
          ))}
          {can('sites:publish') && <label class="check"><input type="checkbox" id={`ws-${kind}-published`} checked={!!form.published} onChange={(e) => setForm({ ...form, published: e.currentTarget.checked })} />{t('ws_published_on_site')}</label>}
        </fieldset>
        {can('sites:write') && <button type="submit" class="primary" id={`ws-${kind}-save`} disabled={busy}>{editing ? t('save') : t('create')}</button>}
        {note && <span class="saved" role="status"> {note}</span>}
        <Problem error={err} />
      </form>
    </div>
  );
}

/** The shows tab. */
export const SiteShows = ({ site }: { site: Site }) => <ItemsTab site={site} kind="shows" />;
/** The people tab. */
export const SitePeople = ({ site }: { site: Site }) => <ItemsTab site={site} kind="people" />;
