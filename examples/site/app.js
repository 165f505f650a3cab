// ViewStream reference website: a small renderer of the public Sites Delivery API (/s/v1/{site}/...).
// Plain browser JavaScript, no build step. API text is only ever inserted with textContent (never innerHTML).
'use strict';
(function () {
  /** Interface words; the site's `dictionary` (from /config) overrides any of them. */
  const WORDS = {
    he: { skip: 'דילוג לתוכן', search: 'חיפוש', powered: 'מופעל על ידי ViewStream', home: 'ראשי', epg: 'לוח שידורים', results: 'תוצאות עבור', none: 'לא נמצאו תוצאות', notFound: 'הדף לא נמצא', error: 'שגיאה בטעינה', episodes: 'פרקים', more: 'עוד', live: 'שידור חי', now: 'עכשיו', next: 'הבא', catchup: 'צפייה חוזרת', noPlayback: 'הצפייה אינה זמינה', noGuide: 'אין לוח שידורים', prevDay: 'יום קודם', nextDay: 'יום הבא', partOf: 'מתוך', loading: 'טוען…', podcast: 'פודקאסט', preview: 'תצוגה מקדימה של טיוטה' },
    en: { skip: 'Skip to content', search: 'Search', powered: 'Powered by ViewStream', home: 'Home', epg: 'TV guide', results: 'Results for', none: 'Nothing found', notFound: 'Page not found', error: 'Could not load', episodes: 'Episodes', more: 'More', live: 'Live', now: 'Now', next: 'Next', catchup: 'Catch-up', noPlayback: 'Not available to watch', noGuide: 'No guide', prevDay: 'Previous day', nextDay: 'Next day', partOf: 'Part of', loading: 'Loading…', podcast: 'Podcast', preview: 'Draft preview' },
  };
  const RTL = ['he', 'ar', 'fa', 'ur', 'yi'];

  // Settings: the config block in index.html, then the query string (?api=&site=).
  const block = document.getElementById('vs-site-config');
  const conf = block ? JSON.parse(block.textContent || '{}') : {};
  const qs = new URLSearchParams(location.search);
  const API = String(qs.get('api') || conf.api || location.origin).replace(/\/+$/, '');
  const SITE = String(qs.get('site') || conf.site || '');
  const BASE = API + '/s/v1/' + encodeURIComponent(SITE);
  // A preview token (vsp_..., from POST /v1/sites/{id}/preview-tokens) shows page drafts: ?preview=vsp_...
  const PREVIEW = qs.get('preview') || '';
  const PQ = PREVIEW ? '&preview=' + encodeURIComponent(PREVIEW) : '';

  let site = null;
  let lang = 'he';
  let words = WORDS.he;
  const main = document.getElementById('main');

  /** GET a Sites Delivery path; resolves to the JSON or rejects with {status}. */
  async function api(path) {
    const r = await fetch(BASE + path, { headers: { accept: 'application/json' } });
    if (!r.ok) throw Object.assign(new Error('HTTP ' + r.status), { status: r.status });
    return r.json();
  }
  /** Creates an element with a class and text (textContent only). */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  /** A link inside this website for a site path (/show/x, /v/y). */
  function link(path, cls, text) {
    const a = el('a', cls, text);
    a.href = '#' + path;
    return a;
  }
  const t = (k) => (site && site.dictionary && typeof site.dictionary[k] === 'string' ? site.dictionary[k] : words[k] || k);
  function fmtTime(iso) {
    return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone: site.time_zone }).format(new Date(iso));
  }
  function fmtDuration(s) {
    const m = Math.floor(s / 60), x = Math.round(s % 60);
    return m + ':' + String(x).padStart(2, '0');
  }
  /** Safe image: only http(s) URLs from the API. */
  function img(src, alt, cls) {
    const i = el('img', cls);
    i.alt = alt || '';
    i.loading = 'lazy';
    if (typeof src === 'string' && /^https?:\/\//.test(src)) i.src = src;
    return i;
  }

  /** A tile for an item of a rail, a search result or an episode. */
  function tile(item) {
    const a = link(item.url || '/', 'tile tile-' + item.type);
    a.dataset.type = item.type;
    a.dataset.slug = item.slug;
    const images = item.images || {};
    const pic = el('div', 'pic');
    if (images.tile_16x9) pic.append(img(images.tile_16x9, ''));
    if (item.duration_s) pic.append(el('span', 'badge', fmtDuration(item.duration_s)));
    if (item.catchup) pic.append(el('span', 'badge', t('catchup')));
    a.append(pic, el('span', 'tile-title', item.title));
    if (item.start_at) a.append(el('span', 'tile-meta', fmtTime(item.start_at)));
    return a;
  }

  function heroSection(sec) {
    const s = el('section', 'hero');
    const item = sec.items[0];
    if (!item) return s;
    const images = item.images || {};
    if (images.hero_16x9) s.append(img(images.hero_16x9, '', 'hero-img'));
    const box = el('div', 'hero-text');
    box.append(el('h2', 'hero-title', item.title));
    if (item.description) box.append(el('p', '', item.description));
    box.append(link(item.url, 'button', item.type === 'show' ? t('episodes') : t('more')));
    s.append(box);
    return s;
  }
  function railSection(sec) {
    const s = el('section', 'rail');
    if (sec.title) s.append(el('h2', '', sec.title));
    const row = el('div', 'rail-row');
    for (const item of sec.items) row.append(tile(item));
    s.append(row);
    return s;
  }
  function epgList(items) {
    const ol = el('ol', 'epg');
    for (const p of items) {
      const li = el('li', p.airing ? 'airing' : '');
      li.append(el('time', '', fmtTime(p.start_at)));
      li.append(p.catchup || p.airing ? link(p.url, 'epg-title', p.title) : el('span', 'epg-title', p.title));
      if (p.airing) li.append(el('span', 'badge', t('now')));
      else if (p.catchup) li.append(el('span', 'badge', t('catchup')));
      ol.append(li);
    }
    return ol;
  }
  function epgSection(sec) {
    const s = el('section', 'epg-section');
    s.append(el('h2', '', sec.title || t('epg')));
    s.append(sec.items.length ? epgList(sec.items) : el('p', 'muted', t('noGuide')));
    return s;
  }
  function textSection(sec) {
    const s = el('section', 'text');
    if (sec.title) s.append(el('h2', '', sec.title));
    for (const para of String(sec.text || '').split(/\n{2,}/)) s.append(el('p', '', para));
    return s;
  }
  function promoSection(sec) {
    const s = el('section', 'promo');
    if (typeof sec.image === 'string') s.append(img(sec.image, ''));
    const title = el('h2', '', sec.title);
    s.append(title);
    if (typeof sec.link === 'string' && sec.link.startsWith('/')) s.append(link(sec.link, 'button', t('more')));
    return s;
  }
  function liveSection(sec) {
    const s = el('section', 'live');
    s.append(el('h2', '', sec.title || t('live')));
    const ch = sec.items[0];
    if (ch) s.append(tile(ch));
    return s;
  }
  const SECTIONS = { hero: heroSection, rail: railSection, epg: epgSection, text: textSection, promo: promoSection, live_player: liveSection };

  /** Renders a page's sections, following next_cursor for the rest. */
  async function renderPage(pageId, entity) {
    const q = entity ? '&entity=' + encodeURIComponent(entity.type + ':' + entity.slug) : '';
    const p = await api('/pages/' + encodeURIComponent(pageId) + '?sections=6' + q + PQ);
    const out = [];
    if (p.preview) out.push(el('p', 'preview-banner', t('preview')));
    if (p.title && !entity) out.push(el('h1', 'page-title', p.title));
    if (p.entity) out.push(...renderEntity(p.entity));
    let sections = p.sections;
    let cursor = p.next_cursor;
    while (cursor) {
      const more = await api('/pages/' + encodeURIComponent(pageId) + '/sections?cursor=' + encodeURIComponent(cursor) + PQ);
      sections = sections.concat(more.sections);
      cursor = more.next_cursor;
    }
    for (const sec of sections) if (SECTIONS[sec.type]) out.push(SECTIONS[sec.type](sec));
    if (p.title) document.title = p.title + ' · ' + site.name;
    return out;
  }

  /** The player for an entity's playback block: our embed.js with the site's player settings. */
  function player(e) {
    const box = el('div', 'player-box');
    box.id = 'player';
    const pb = e.playback;
    if (!pb || typeof pb.src !== 'string' || !/^https?:\/\//.test(pb.src)) { box.append(el('p', 'muted', t('noPlayback'))); return box; }
    const s = document.createElement('script');
    s.src = API + '/embed.js';
    s.dataset.src = pb.src;
    s.dataset.tenant = pb.tenant || (site.player && site.player.tenant) || '';
    s.dataset.config = (site.player && site.player.config) || 'default';
    s.dataset.lang = lang;
    s.dataset.title = e.title || '';
    if (e.images && e.images.poster) s.dataset.poster = e.images.poster;
    box.append(s);
    return box;
  }

  /** An entity (show, video, clip, programme, channel, person) as page content. */
  function renderEntity(e) {
    const out = [];
    const head = el('div', 'entity entity-' + e.type);
    head.dataset.type = e.type;
    head.dataset.slug = e.slug;
    if (e.playback !== undefined) head.append(player(e));
    else if (e.images && e.images.poster) head.append(img(e.images.poster, '', 'poster'));
    const info = el('div', 'entity-info');
    info.append(el('h1', 'page-title', e.title));
    if (e.description) info.append(el('p', 'description', e.description));
    if (e.now) info.append(el('p', 'muted', t('now') + ': ' + e.now.title));
    if (e.next) info.append(el('p', 'muted', t('next') + ': ' + e.next.title));
    if (Array.isArray(e.series) && e.series.length) {
      const p = el('p', 'series', t('partOf') + ': ');
      e.series.forEach((sh, i) => { if (i) p.append(', '); p.append(link(sh.url, '', sh.title)); });
      info.append(p);
    }
    if (e.podcast && typeof e.podcast.feed_url === 'string') {
      const a = el('a', 'podcast', t('podcast'));
      a.href = e.podcast.feed_url;
      info.append(a);
    }
    head.append(info);
    out.push(head);
    if (Array.isArray(e.episodes)) out.push(railSection({ title: t('episodes'), items: e.episodes }));
    document.title = e.title + ' · ' + site.name;
    return out;
  }

  async function renderSearch(params) {
    const q = (params.get('q') || '').trim();
    document.getElementById('search-q').value = q;
    const out = [el('h1', 'page-title', t('search'))];
    if (!q) return out;
    const r = await api('/search?q=' + encodeURIComponent(q));
    out[0].textContent = t('results') + ' "' + r.q + '"';
    const list = el('div', 'results');
    for (const item of r.items) list.append(tile(item));
    out.push(r.items.length ? list : el('p', 'muted', t('none')));
    document.title = t('search') + ' · ' + site.name;
    return out;
  }

  function shiftDay(day, n) {
    const d = new Date(day + 'T12:00:00Z');
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  }
  async function renderEpg(params) {
    const out = [el('h1', 'page-title', t('epg'))];
    const day = params.get('day');
    const channel = params.get('channel') || (site.guide && Array.isArray(site.guide.channels) && site.guide.channels[0]) || '';
    let g;
    try {
      g = await api('/epg?' + new URLSearchParams(Object.assign({}, day ? { day } : {}, channel ? { channel } : {})).toString());
    } catch (e) {
      if (e.status === 404) { out.push(el('p', 'muted', t('noGuide'))); return out; }
      throw e;
    }
    const nav = el('nav', 'days');
    nav.append(link('/epg?day=' + shiftDay(g.day, -1) + '&channel=' + encodeURIComponent(g.channel), 'button', t('prevDay')));
    nav.append(el('strong', '', new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(g.day + 'T12:00:00Z'))));
    nav.append(link('/epg?day=' + shiftDay(g.day, 1) + '&channel=' + encodeURIComponent(g.channel), 'button', t('nextDay')));
    out.push(nav, g.items.length ? epgList(g.items) : el('p', 'muted', t('noGuide')));
    return out;
  }

  /** Resolves the hash path through /route and renders what it names. */
  async function render() {
    const raw = location.hash.replace(/^#/, '') || '/';
    const qi = raw.indexOf('?');
    const path = qi < 0 ? raw : raw.slice(0, qi);
    const params = new URLSearchParams(qi < 0 ? '' : raw.slice(qi + 1));
    main.replaceChildren(el('p', 'muted', t('loading')));
    main.dataset.state = 'loading';
    let out;
    try {
      const r = await api('/route?path=' + encodeURIComponent(path));
      if (r.kind === 'redirect' && r.redirect && typeof r.redirect.location === 'string') {
        if (r.redirect.location.startsWith('/')) { location.replace('#' + r.redirect.location); return; }
        location.href = r.redirect.location;
        return;
      }
      if (r.kind === 'page') out = await renderPage(r.page_id, null);
      else if (r.kind === 'template' && r.template_for === 'search') out = await renderSearch(params);
      else if (r.kind === 'template' && r.template_for === 'epg') out = await renderEpg(params);
      else if (r.kind === 'template' && r.entity && r.page_id) out = await renderPage(r.page_id, r.entity);
      else if (r.kind === 'template' && r.entity && r.entity.type !== 'category') out = renderEntity(await api('/entities/' + encodeURIComponent(r.entity.type) + '/' + encodeURIComponent(r.entity.slug)));
      else out = [el('h1', 'page-title', t('notFound'))];
      main.dataset.view = r.kind === 'page' ? 'page' : r.template_for || 'not_found';
    } catch (e) {
      out = [el('h1', 'page-title', e.status === 404 ? t('notFound') : t('error'))];
      main.dataset.view = 'error';
    }
    main.replaceChildren(...out);
    main.dataset.state = 'ready';
    window.scrollTo(0, 0);
  }

  /** The header: brand, the `main` menu (if published), search with suggestions. */
  function chrome() {
    const brand = document.getElementById('brand');
    brand.textContent = site.name;
    const nav = document.getElementById('menu');
    const items = (site.menus && (site.menus.main || Object.values(site.menus)[0])) || [{ label: t('home'), path: '/' }, { label: t('epg'), path: '/epg' }];
    const ul = el('ul');
    for (const m of items) if (m && typeof m.path === 'string') { const li = el('li'); li.append(link(m.path, '', m.label)); ul.append(li); }
    nav.replaceChildren(ul);
    nav.setAttribute('aria-label', t('home'));
    for (const n of document.querySelectorAll('[data-i18n]')) n.textContent = t(n.getAttribute('data-i18n'));
    const input = document.getElementById('search-q');
    input.placeholder = t('search');
    input.setAttribute('aria-label', t('search'));
    document.getElementById('search-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      location.hash = '#/search?q=' + encodeURIComponent(input.value.trim());
    });
    let timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.trim();
      if (!q) return;
      timer = setTimeout(async () => {
        try {
          const r = await api('/suggest?q=' + encodeURIComponent(q));
          document.getElementById('suggest').replaceChildren(...r.items.map((i) => { const o = el('option'); o.value = i.title; return o; }));
        } catch { /* suggestions are optional */ }
      }, 200);
    });
  }

  async function start() {
    try {
      site = await api('/config');
    } catch (e) {
      main.replaceChildren(el('h1', 'page-title', 'Site "' + SITE + '" not available (' + (e.status || e.message) + ')'));
      main.dataset.state = 'error';
      return;
    }
    lang = String(site.language || 'he');
    words = WORDS[lang] || WORDS.en;
    document.documentElement.lang = lang;
    document.documentElement.dir = RTL.includes(lang.split('-')[0]) ? 'rtl' : 'ltr';
    const theme = site.theme && site.theme.tokens ? site.theme.tokens : site.theme || {};
    for (const [k, v] of Object.entries(theme)) if (/^[a-z0-9-]+$/i.test(k) && typeof v === 'string') document.documentElement.style.setProperty('--' + k, v);
    document.title = (site.seo && site.seo.title) || site.name;
    chrome();
    window.addEventListener('hashchange', render);
    await render();
  }
  start();
})();
