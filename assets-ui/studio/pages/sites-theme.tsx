/** The theme of a site (a tab): design tokens (name and value rows, colour pickers for colours) and extra CSS; save the draft, publish. */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Problem } from '../ui';
import { siteApi, type Site, type Theme } from './sites-model';

/** Tokens a new theme starts with. */
const STARTER: [string, string][] = [['color.primary', '#1d4ed8'], ['color.background', '#ffffff'], ['color.text', '#111827'], ['font.family', 'system-ui']];
const isColour = (v: string) => /^#[0-9a-f]{6}$/i.test(v);

/** The theme editor; `onSaved` after a save or publish (the site holds the theme). */
export function SiteTheme({ site, onSaved }: { site: Site; onSaved: () => void }) {
  const { t, api, can } = useStudio();
  const fromSite = (): [string, string][] => { const e = Object.entries(site.theme.draft.tokens ?? {}).map(([k, v]) => [k, String(v)] as [string, string]); return e.length ? e : STARTER; };
  const [rows, setRows] = useState<[string, string][]>(fromSite);
  const [css, setCss] = useState(site.theme.draft.css ?? '');
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { setRows(fromSite()); setCss(site.theme.draft.css ?? ''); }, [site.id]);
  const admin = can('sites:admin');
  const tokens = Object.fromEntries(rows.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v]));
  const draftSame = JSON.stringify(site.theme.draft) === JSON.stringify(site.theme.live);
  const run = async (fn: () => Promise<unknown>, ok: string) => {
    setBusy(true); setErr(null); setNote(null);
    try { await fn(); onSaved(); setNote(ok); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const save = (e: Event) => {
    e.preventDefault();
    const body: Theme = { tokens, ...(admin && css !== (site.theme.draft.css ?? '') ? { css } : {}) };
    void run(() => api<unknown>('PUT', siteApi(site.id, '/theme'), body), t('ws_theme_saved'));
  };
  const set = (i: number, k: string, v: string) => setRows(rows.map((r, j) => (j === i ? [k, v] : r)));
  return (
    <form class="panel ws-theme" id="ws-theme" onSubmit={save}>
      <h2>{t('ws_tab_theme')}</h2>
      <p class="muted" id="ws-theme-state">{draftSame ? t('ws_theme_live') : t('ws_theme_unpublished')}</p>
      <fieldset class="ws-fs" disabled={!can('sites:write') || busy}>
        <h3>{t('ws_tokens')}</h3>
        <table class="table ws-tokens" id="ws-tokens">
          <thead><tr><th>{t('ws_token')}</th><th>{t('ws_value')}</th><th><span class="sr-only">{t('ws_remove')}</span></th></tr></thead>
          <tbody>
            {rows.map(([k, v], i) => (
              <tr key={i}>
                <td><input class="ws-token-name" dir="ltr" aria-label={t('ws_token')} value={k} onInput={(e) => set(i, e.currentTarget.value, v)} /></td>
                <td class="ws-token-value">
                  {isColour(v) && <input type="color" aria-label={t('ws_colour', { name: k })} value={v} onInput={(e) => set(i, k, e.currentTarget.value)} />}
                  <input class="ws-token-val" dir="ltr" aria-label={t('ws_value')} value={v} onInput={(e) => set(i, k, e.currentTarget.value)} />
                </td>
                <td><button type="button" class="small danger" onClick={() => setRows(rows.filter((_, j) => j !== i))}>{t('ws_remove')}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" class="small" id="ws-token-add" onClick={() => setRows([...rows, ['', '']])}>{t('ws_add_token')}</button>
        <h3>{t('ws_css')}</h3>
        <textarea id="ws-css" class="ws-code" dir="ltr" rows={8} spellcheck={false} disabled={!admin} value={css} onInput={(e) => setCss(e.currentTarget.value)} />
        {!admin && <p class="muted">{t('ws_css_admin')}</p>}
      </fieldset>
      <div class="actions ws-bar">
        {can('sites:write') && <button type="submit" class="primary" id="ws-theme-save" disabled={busy}>{t('ws_save_draft')}</button>}
        {can('sites:publish') && <button type="button" id="ws-theme-publish" disabled={busy || draftSame} onClick={() => void run(() => api('POST', siteApi(site.id, '/theme/publish')), t('ws_theme_published'))}>{t('ws_publish_theme')}</button>}
      </div>
      {note && <p class="saved" role="status" id="ws-theme-note">{note}</p>}
      <Problem error={err} />
    </form>
  );
}
