/** The menus of a site (a tab): pick or name a menu, edit its items (label, path, one level of children), save the draft, publish. */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Field, Problem, useLoad } from '../ui';
import { move, siteApi, type Menu, type MenuItem, type Site } from './sites-model';

/** The menus editor. */
export function SiteMenus({ site }: { site: Site }) {
  const { t, f, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: Menu[] }>(siteApi(site.id, '/menus')), [site.id]);
  const [name, setName] = useState('main');
  const [items, setItems] = useState<MenuItem[]>([]);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const menus = list.data?.items ?? [];
  const cur = menus.find((m) => m.name === name) ?? null;
  useEffect(() => { setItems(structuredClone(cur?.draft ?? [])); }, [name, list.data]);
  const names = [...new Set(['main', 'footer', ...menus.map((m) => m.name)])];
  const run = async (fn: () => Promise<unknown>, ok: string) => {
    setBusy(true); setErr(null); setNote(null);
    try { await fn(); list.reload(); setNote(ok); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const clean = (xs: MenuItem[]) => xs.map((x) => ({ label: x.label, ...(x.path ? { path: x.path } : {}), ...(x.children?.length ? { children: x.children } : {}) }));
  const save = (e: Event) => { e.preventDefault(); void run(() => api('PUT', siteApi(site.id, `/menus/${name}`), { items: clean(items) }), t('ws_menu_saved')); };
  const publish = () => run(() => api('POST', siteApi(site.id, `/menus/${name}/publish`)), t('ws_menu_published'));
  const setItem = (i: number, x: MenuItem) => setItems(items.map((y, j) => (j === i ? x : y)));
  const dirty = JSON.stringify(clean(items)) !== JSON.stringify(clean(cur?.draft ?? []));
  const live = !!cur?.live && JSON.stringify(cur.live) === JSON.stringify(cur.draft);
  return (
    <form class="panel ws-menus" id="ws-menus" onSubmit={save}>
      <h2>{t('ws_tab_menus')}</h2>
      <div class="inline-form">
        <Field label={t('ws_menu')}>
          <select id="ws-menu-name" value={name} onChange={(e) => setName(e.currentTarget.value)}>{names.map((n) => <option key={n} value={n}>{n}</option>)}</select>
        </Field>
        <span class="muted" id="ws-menu-state">{!cur ? t('ws_menu_new') : cur.live ? (live ? t('ws_menu_live') : t('ws_menu_changed')) : t('ws_menu_unpublished')}{cur && ` · ${f.short(cur.updated_at)}`}</span>
      </div>
      <fieldset class="ws-fs" disabled={!can('sites:write') || busy}>
        <ol class="ws-menu-items">
          {items.map((x, i) => (
            <li key={i} class="ws-menu-item" id={`ws-menu-${i}`}>
              <div class="row">
                <Field label={t('ws_label')}><input class="ws-menu-label" required maxLength={200} value={x.label} onInput={(e) => setItem(i, { ...x, label: e.currentTarget.value })} /></Field>
                <Field label={t('ws_path')}><input class="ws-menu-path" dir="ltr" value={x.path ?? ''} onInput={(e) => setItem(i, { ...x, path: e.currentTarget.value })} /></Field>
              </div>
              {(x.children ?? []).map((c, k) => (
                <div key={k} class="row ws-menu-child">
                  <Field label={t('ws_sub_label')}><input required value={c.label} onInput={(e) => setItem(i, { ...x, children: x.children!.map((y, j) => (j === k ? { ...y, label: e.currentTarget.value } : y)) })} /></Field>
                  <Field label={t('ws_path')}><input dir="ltr" required value={c.path} onInput={(e) => setItem(i, { ...x, children: x.children!.map((y, j) => (j === k ? { ...y, path: e.currentTarget.value } : y)) })} /></Field>
                  <button type="button" class="small danger" onClick={() => setItem(i, { ...x, children: x.children!.filter((_, j) => j !== k) })}>{t('ws_remove')}</button>
                </div>
              ))}
              <div class="actions">
                <button type="button" class="small" aria-label={t('ws_move_up')} title={t('ws_move_up')} disabled={i === 0} onClick={() => setItems(move(items, i, -1))}>▲</button>
                <button type="button" class="small" aria-label={t('ws_move_down')} title={t('ws_move_down')} disabled={i === items.length - 1} onClick={() => setItems(move(items, i, 1))}>▼</button>
                <button type="button" class="small" onClick={() => setItem(i, { ...x, children: [...(x.children ?? []), { label: '', path: '/' }] })}>{t('ws_add_sub')}</button>
                <button type="button" class="small danger" onClick={() => setItems(items.filter((_, j) => j !== i))}>{t('ws_remove')}</button>
              </div>
            </li>
          ))}
        </ol>
        <button type="button" id="ws-menu-add" onClick={() => setItems([...items, { label: '', path: '/' }])}>{t('ws_add_menu_item')}</button>
      </fieldset>
      <div class="actions ws-bar">
        {can('sites:write') && <button type="submit" class="primary" id="ws-menu-save" disabled={busy || !dirty}>{t('ws_save_draft')}</button>}
        {can('sites:publish') && <button type="button" id="ws-menu-publish" disabled={busy || dirty || !cur || live} onClick={() => void publish()}>{t('ws_publish_menu')}</button>}
      </div>
      {note && <p class="saved" role="status" id="ws-menu-note">{note}</p>}
      <Problem error={err ?? list.error} />
    </form>
  );
}
