/** One site (/studio/sites/:id[/:tab]): its name, the tabs of the Sites section and the tab's page. */
import { useStudio } from '../ctx';
import { Badge, Loading, PageHead, Problem, useLoad } from '../ui';
import type { Key } from '../i18n';
import { siteApi, siteHref, type Site } from './sites-model';
import { SiteSettings } from './sites-settings';
import { SiteDomains } from './sites-domains';
import { SiteRoutes } from './sites-routes';
import { SitePages } from './sites-pages';
import { SiteMenus } from './sites-menus';
import { SiteTheme } from './sites-theme';
import { SiteShows, SitePeople } from './sites-content';

/** The tabs of a site, in order: path part and its words. */
const TABS: [string, Key][] = [['', 'ws_tab_settings'], ['/pages', 'ws_tab_pages'], ['/menus', 'ws_tab_menus'], ['/theme', 'ws_tab_theme'], ['/shows', 'ws_tab_shows'], ['/people', 'ws_tab_people']];

/** The tab bar of a site (also shown above the page editor). */
export function SiteTabs({ site, tab }: { site: Site; tab: string }) {
  const { t } = useStudio();
  return (
    <nav class="ws-tabs" aria-label={t('ws_site_parts')}>
      {TABS.map(([p, k]) => <a key={p} id={`ws-tab${p.replace('/', '-') || '-settings'}`} href={siteHref(site.id, p)} aria-current={tab === p ? 'page' : undefined}>{t(k)}</a>)}
    </nav>
  );
}

/** The heading of a site: name, state, its public address. */
export function SiteHead({ site, title }: { site: Site; title?: string }) {
  const { t } = useStudio();
  return (
    <>
      <PageHead title={title ?? site.name}>
        <a class="button small" href="/studio/sites">{t('ws_all_sites')}</a>
      </PageHead>
      <p class="muted ws-sub"><Badge status={site.status} /> <code dir="ltr">{site.delivery_url}</code></p>
    </>
  );
}

/** The site page with the chosen tab. */
export function SitePage({ id, tab = '' }: { id: string; tab?: string }) {
  const { get } = useStudio();
  const site = useLoad(() => get<Site>(siteApi(id)), [id], `site:${id}`);
  if (site.error && !site.data) return <Problem error={site.error} onRetry={site.reload} />;
  const s = site.data;
  if (!s) return <Loading />;
  const part = tab ? `/${tab}` : '';
  return (
    <section class="ws">
      <SiteHead site={s} />
      <SiteTabs site={s} tab={part} />
      {part === '' && <><SiteSettings site={s} onSaved={site.set} /><SiteDomains site={s} onChanged={site.reload} /><SiteRoutes site={s} /></>}
      {part === '/pages' && <SitePages site={s} />}
      {part === '/menus' && <SiteMenus site={s} />}
      {part === '/theme' && <SiteTheme site={s} onSaved={site.reload} />}
      {part === '/shows' && <SiteShows site={s} />}
      {part === '/people' && <SitePeople site={s} />}
    </section>
  );
}
