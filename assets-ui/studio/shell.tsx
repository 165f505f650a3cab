/** The frame around every signed-in page: brand, navigation, language switch, tenant and sign-out. */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useStudio, type Me } from './ctx';
import { navigate } from './router';
import type { Key } from './i18n';
import { Bell } from './bell';
import { InboxCount } from './inbox-count';

const NAV: [string, Key][] = [['/', 'nav_dashboard'], ['/library', 'nav_library'], ['/imports', 'nav_imports'], ['/live', 'nav_live'], ['/guide', 'nav_guide'], ['/clips', 'nav_clips'], ['/articles', 'nav_articles'], ['/sites', 'nav_sites'], ['/alerts', 'nav_alerts'], ['/delivery', 'nav_delivery'], ['/integrations', 'nav_integrations'], ['/team', 'nav_team'], ['/notifications', 'nav_notifications'], ['/settings', 'nav_settings']];

/** The layout: a skip link, the header, the side (or, on phones, top) navigation and the page. */
export function Shell({ path, children }: { path: string; children: ComponentChildren }) {
  const { t, lang, setLang, me, brand, setMe, api, cache, client } = useStudio();
  const active = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(href + '/'));
  // On a phone the navigation is a row that scrolls sideways: keep the current page's entry in view.
  useEffect(() => { document.querySelector('nav.side a[aria-current=page]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }); }, [path]);
  // People in several tenants switch here; everything cached belongs to the previous tenant.
  const switchTenant = async (id: string) => {
    try {
      await api('PUT', '/v1/me/tenant', { tenant: id });
      const m = await api<Me>('GET', '/v1/session');
      client.csrf = m.csrf_token;
      cache.clear();
      setMe(m);
      navigate('/', true);
    } catch { /* the select shows the current tenant again */ }
  };
  const signOut = async () => {
    try { await api('DELETE', '/v1/session'); } catch { /* already gone */ }
    setMe(null);
    navigate('/sign-in', true);
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">{t('skip')}</a>
      <header class="top">
        <a class="brand" href="/studio/">
          {brand?.logo_url ? <img src={brand.logo_url} alt="" height={28} /> : <span class="mark" aria-hidden="true">▶</span>}
          <span>{brand?.name ?? me?.current_tenant?.name ?? 'ViewStream'}</span>
          <small>{t('studio')}</small>
        </a>
        <div class="top-actions">
          <Bell />
          <InboxCount />
          <button type="button" class="small" id="lang-switch" lang={lang === 'he' ? 'en' : 'he'} onClick={() => setLang(lang === 'he' ? 'en' : 'he')}>
            {lang === 'he' ? 'English' : 'עברית'}
          </button>
          {(me?.tenants.length ?? 0) > 1 && (
            <select id="tenant-switch" aria-label={t('tenant')} value={me!.current_tenant?.id ?? ''} onChange={(e) => switchTenant(e.currentTarget.value)}>
              {me!.tenants.map((x) => <option value={x.id}>{x.name}</option>)}
            </select>
          )}
          <span class="who" title={me?.user.email}>{me?.user.name || me?.user.email}</span>
          <button type="button" class="small" onClick={signOut}>{t('sign_out')}</button>
        </div>
      </header>
      <nav class="side" aria-label={t('nav')}>
        <ul>
          {NAV.map(([href, key]) => (
            <li key={href}><a href={`/studio${href === '/' ? '/' : href}`} aria-current={active(href) ? 'page' : undefined}>{t(key)}</a></li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>{children}</main>
    </div>
  );
}
