/** The route table of a site (on its settings tab): paths answered by a page (`:param` segments allowed) and redirects. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Empty, Field, Problem, useLoad } from '../ui';
import { siteApi, type Site, type SitePage } from './sites-model';

interface Route { id: string; kind: 'route' | 'redirect'; path: string; page_id?: string; location?: string; status?: number }
const STATUSES = [301, 302, 307, 308] as const;

/** The routes panel; adding and removing needs sites:admin. */
export function SiteRoutes({ site }: { site: Site }) {
  const { t, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: Route[] }>(siteApi(site.id, '/routes')), [site.id]);
  const pages = useLoad(() => get<{ items: SitePage[] }>(siteApi(site.id, '/pages')), [site.id]);
  const [kind, setKind] = useState<Route['kind']>('redirect');
  const [path, setPath] = useState('');
  const [page, setPage] = useState('');
  const [location, setLocation] = useState('');
  const [status, setStatus] = useState(301);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const admin = can('sites:admin');
  const titleOf = (id?: string) => pages.data?.items.find((p) => p.id === id)?.draft.title ?? id ?? '—';
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true); setErr(null);
    try { await fn(); list.reload(); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const add = (e: Event) => {
    e.preventDefault();
    const body = kind === 'route' ? { kind, path: path.trim(), page_id: page || pages.data?.items[0]?.id } : { kind, path: path.trim(), location: location.trim(), status };
    void run(async () => { await api('POST', siteApi(site.id, '/routes'), body); setPath(''); setLocation(''); });
  };
  const items = list.data?.items ?? [];
  return (
    <div class="panel ws-routes" id="ws-routes">
      <h2>{t('ws_routes')}</h2>
      <p class="muted">{t('ws_routes_intro')}</p>
      {!items.length ? <Empty>{t('ws_no_routes')}</Empty> : (
        <table class="table" id="ws-route-list">
          <thead><tr><th>{t('ws_path')}</th><th>{t('ws_route_kind')}</th><th>{t('ws_route_target')}</th>{admin && <th><span class="sr-only">{t('ws_remove')}</span></th>}</tr></thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id}>
                <td><code dir="ltr">{r.path}</code></td>
                <td>{t(r.kind === 'route' ? 'ws_kind_route' : 'ws_kind_redirect')}</td>
                <td>{r.kind === 'route' ? <bdi>{titleOf(r.page_id)}</bdi> : <><code dir="ltr">{r.location}</code> <span class="muted">({r.status})</span></>}</td>
                {admin && <td><button type="button" class="small danger" disabled={busy} onClick={() => void run(() => api('DELETE', siteApi(site.id, `/routes/${r.id}`)))}>{t('ws_remove')}</button></td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form class="inline-form ws-route-add" id="ws-route-add" onSubmit={add}>
          <Field label={t('ws_route_kind')}>
            <select id="ws-route-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Route['kind'])}>
              <option value="redirect">{t('ws_kind_redirect')}</option><option value="route">{t('ws_kind_route')}</option>
            </select>
          </Field>
          <Field label={t('ws_path')}><input id="ws-route-path" dir="ltr" required placeholder={kind === 'route' ? '/news/:slug' : '/old'} value={path} onInput={(e) => setPath(e.currentTarget.value)} /></Field>
          {kind === 'route' ? (
            <Field label={t('ws_route_page')}>
              <select id="ws-route-page" value={page} onChange={(e) => setPage(e.currentTarget.value)}>
                {(pages.data?.items ?? []).map((p) => <option key={p.id} value={p.id}>{p.draft.title}</option>)}
              </select>
            </Field>
          ) : <>
            <Field label={t('ws_route_location')}><input id="ws-route-location" dir="ltr" required placeholder="/new" value={location} onInput={(e) => setLocation(e.currentTarget.value)} /></Field>
            <Field label={t('ws_route_status')}>
              <select id="ws-route-status" value={status} onChange={(e) => setStatus(Number(e.currentTarget.value))}>{STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}</select>
            </Field>
          </>}
          <button type="submit" disabled={busy || !path.trim() || (kind === 'route' && !pages.data?.items.length)}>{t('ws_add_route')}</button>
        </form>
      )}
      <Problem error={err ?? list.error} />
    </div>
  );
}
