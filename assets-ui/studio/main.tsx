/** Studio entry: language, session, branding, the shell and the route table. */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiClient } from './api';
import { applyLang, formats, initialLang, translator, type Lang } from './i18n';
import { StudioCtx, type Brand, type Me, type Studio } from './ctx';
import { currentPath, interceptLinks, match, navigate, onLinkIntent, onRoute } from './router';
import { prefetchRoute, warmPages } from './prefetch';
import { Shell } from './shell';
import { Loading } from './ui';
import { SignIn } from './pages/signin';
import { Dashboard } from './pages/dashboard';
import { Library } from './pages/library';
import { AssetPage } from './pages/asset';
import { SubtitlesPage } from './pages/subtitles';
import { Live } from './pages/live';
import { ChannelPage } from './pages/channel';
import { FastSchedulePage } from './pages/fast-schedule';
import { Integrations } from './pages/integrations';
import { Team } from './pages/team';
import { Guide } from './pages/guide';
import { GuideSources } from './pages/guide-sources';
import { GuideTemplates } from './pages/guide-templates';
import { GuideDestinations } from './pages/guide-destinations';
import { Clips } from './pages/clips';
import { Delivery } from './pages/delivery';
import { AlertsPage } from './pages/alerts';
import { Articles } from './pages/articles';
import { ArticlePage } from './pages/article';
import { Sites } from './pages/sites';
import { SitePage } from './pages/sites-site';
import { SitePageEditor } from './pages/sites-page-editor';
import { Imports } from './pages/imports';
import { ImportPage } from './pages/import';
import { SettingsPackaging } from './pages/settings-packaging';
import { Notifications } from './pages/notifications';
import { NotificationRules } from './pages/notification-rules';

const ROUTES: [string, (p: Record<string, string>) => preact.JSX.Element][] = [
  ['/', () => <Dashboard />],
  ['/library', () => <Library />],
  ['/library/:id', (p) => <AssetPage id={p.id} />],
  ['/library/:id/subtitles', (p) => <SubtitlesPage id={p.id} />],
  ['/imports', () => <Imports />],
  ['/imports/:id', (p) => <ImportPage id={p.id} />],
  ['/live', () => <Live />],
  ['/live/:id', (p) => <ChannelPage id={p.id} />],
  ['/live/:id/fast', (p) => <FastSchedulePage id={p.id} />],
  ['/guide', () => <Guide />],
  ['/guide/sources', () => <GuideSources />],
  ['/guide/templates', () => <GuideTemplates />],
  ['/guide/destinations', () => <GuideDestinations />],
  ['/clips', () => <Clips />],
  ['/delivery', () => <Delivery />],
  ['/alerts', () => <AlertsPage />],
  ['/articles', () => <Articles />],
  ['/articles/:id', (p) => <ArticlePage id={p.id} />],
  ['/sites', () => <Sites />],
  ['/sites/:id', (p) => <SitePage id={p.id} />],
  ['/sites/:id/pages/:page', (p) => <SitePageEditor id={p.id} pageId={p.page} />],
  ['/sites/:id/:tab', (p) => <SitePage id={p.id} tab={p.tab} />],
  ['/integrations', () => <Integrations />],
  ['/team', () => <Team />],
  ['/settings', () => <SettingsPackaging />],
  ['/settings/packaging', () => <SettingsPackaging />],
  ['/notifications', () => <Notifications />],
  ['/notifications/rules', () => <NotificationRules />],
];

/** Applies tenant colours as CSS custom properties (the stylesheet reads --brand and --accent). */
function applyBrand(b: Brand | null): void {
  const s = document.documentElement.style;
  if (!b) return;
  if (/^#[0-9a-f]{3,8}$/i.test(b.colors.primary)) s.setProperty('--brand', b.colors.primary);
  if (/^#[0-9a-f]{3,8}$/i.test(b.colors.accent)) s.setProperty('--accent', b.colors.accent);
}

function App() {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const [me, setMe] = useState<Me | null>(null);
  const [ready, setReady] = useState(false);
  const [brand, setBrand] = useState<Brand | null>(null);
  const [path, setPath] = useState(currentPath);
  const client = useMemo(() => new ApiClient(), []);
  const cache = useRef(new Map<string, unknown>()).current;
  const { api } = client;

  useEffect(() => { applyLang(lang); }, [lang]);
  useEffect(() => {
    const offLinks = interceptLinks();
    const offIntent = onLinkIntent((p) => prefetchRoute(client, p));
    const offRoute = onRoute(() => {
      // The new page's API reads start now, before it is drawn; its own calls join them.
      prefetchRoute(client, currentPath() + location.search);
      setPath(currentPath());
      // Keyboard and screen-reader users land on the new page's heading.
      requestAnimationFrame(() => (document.getElementById('page-title') as HTMLElement | null)?.focus({ preventScroll: true }));
    });
    client.onSignedOut = () => { setMe(null); if (currentPath() !== '/sign-in') navigate(`/sign-in?next=${encodeURIComponent(currentPath())}`, true); };
    void (async () => {
      try {
        let m = await api<Me>('GET', '/v1/session', undefined, { silent401: true });
        client.csrf = m.csrf_token;
        if (!m.current_tenant && m.tenants.length) {
          await api('PUT', '/v1/me/tenant', { tenant: m.tenants[0].id });
          m = await api<Me>('GET', '/v1/session');
        }
        setMe(m);
      } catch {
        if (currentPath() !== '/sign-in') navigate('/sign-in', true);
      }
      setReady(true);
    })();
    return () => { offLinks(); offIntent(); offRoute(); };
  }, []);
  // Once signed in and idle, the main pages' first answers go into the cache: a first visit draws at once.
  const tenant = useRef<string | null>(null);
  tenant.current = me?.current_tenant?.id ?? null;
  useEffect(() => {
    const id = me?.current_tenant?.id;
    if (!ready || !id) return;
    return warmPages(client, cache, () => tenant.current === id);
  }, [ready, me?.current_tenant?.id]);
  const refreshBrand = () => { api<Brand>('GET', '/v1/settings').then((b) => { setBrand(b); applyBrand(b); }, () => {}); };
  useEffect(() => { if (me?.current_tenant) refreshBrand(); }, [me?.current_tenant?.id]);

  const studio = useMemo<Studio>(() => ({
    lang, t: translator(lang), f: formats(lang), me, brand,
    setLang: setLangState, setMe: (m: Me | null) => { if (!m) cache.clear(); setMe(m); }, refreshBrand,
    client, api: client.api, get: client.get, cache,
    can: (scope: string) => !!me?.scopes.includes(scope),
  }), [lang, me, brand]);

  let page: preact.JSX.Element | null = null;
  if (!ready) page = <Loading />;
  else if (path.startsWith('/sign-in') || !me) page = <SignIn />;
  else {
    for (const [pat, view] of ROUTES) { const p = match(pat, path); if (p) { page = view(p); break; } }
    page = <Shell path={path}>{page ?? <p>{studio.t('not_found')}</p>}</Shell>;
  }
  return <StudioCtx.Provider value={studio}>{page}</StudioCtx.Provider>;
}

render(<App />, document.getElementById('app')!);
