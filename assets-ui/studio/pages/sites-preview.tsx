/**
 * The live preview of a page draft: the Sites Delivery answer `/s/v1/{site}/pages/{id}?preview=<token>` (a preview
 * token made for this page when the editor opens) drawn the way a website draws it, in the site's language and
 * direction with the draft theme's tokens. `version` changes after each saved draft: the preview reads again.
 */
import { useEffect, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Loading, Problem } from '../ui';
import { siteApi, type Site } from './sites-model';

interface Item { type: string; slug: string; title: string; url?: string; role?: string | null; start_at?: string; images?: Record<string, string> }
interface PSection { id: string; type: string; title: string | null; items: Item[]; more: boolean; text?: string | null; link?: string | null; image?: string | null; channel?: string | null; day?: string | null }
interface PPage { id: string; title: string; description: string; preview: boolean; sections: PSection[] }

/** Only http(s) images are drawn (a page's text never becomes markup). */
const httpUrl = (u: unknown): string | null => (typeof u === 'string' && /^https?:\/\//i.test(u) ? u : null);

/** Theme tokens as CSS custom properties: `color.primary` → `--color-primary`. */
function themeVars(tokens: Record<string, string | number> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tokens ?? {})) if (/^[a-z0-9._-]+$/i.test(k)) out[`--${k.replace(/\./g, '-')}`] = String(v);
  return out;
}

function PreviewSection({ s, lang }: { s: PSection; lang: string }) {
  const { t } = useStudio();
  const tile = (i: Item) => (
    <li key={`${i.type}:${i.slug}`} class="wp-tile">
      {httpUrl(i.images?.tile_16x9_320) ? <img src={httpUrl(i.images?.tile_16x9_320)!} alt="" loading="lazy" /> : <span class="wp-ph" aria-hidden="true" />}
      <bdi>{i.title}</bdi>
    </li>
  );
  switch (s.type) {
    case 'hero':
    case 'rail':
      return (
        <div class={`wp-sec wp-${s.type}`}>
          {s.title && <h3>{s.title}</h3>}
          {s.items.length ? <ul class="wp-tiles">{s.items.map(tile)}</ul> : <p class="wp-empty">{t('ws_pv_no_items')}</p>}
        </div>
      );
    case 'epg':
      return (
        <div class="wp-sec wp-epg">
          {s.title && <h3>{s.title}</h3>}
          {s.items.length ? <ul>{s.items.map((p) => <li key={p.slug ?? p.title}><time dir="ltr">{p.start_at ? new Date(p.start_at).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' }) : ''}</time> <bdi>{p.title}</bdi></li>)}</ul>
            : <p class="wp-empty">{t('ws_pv_no_guide')}</p>}
        </div>
      );
    case 'live_player':
      return <div class="wp-sec wp-live">{s.title && <h3>{s.title}</h3>}<div class="wp-player">▶ <bdi>{s.items[0]?.title ?? s.channel ?? t('ws_pv_no_channel')}</bdi></div></div>;
    case 'promo':
      return (
        <div class="wp-sec wp-promo">
          {httpUrl(s.image) && <img src={httpUrl(s.image)!} alt="" />}
          <div>{s.title && <h3>{s.title}</h3>}{s.text && <p>{s.text}</p>}{s.link && <span class="wp-link" dir="ltr">{s.link}</span>}</div>
        </div>
      );
    default:
      return <div class="wp-sec wp-text">{s.title && <h3>{s.title}</h3>}{(s.text ?? '').split(/\n{2,}/).map((p, i) => <p key={i}>{p}</p>)}</div>;
  }
}

/** The preview pane of a page. */
export function PagePreview({ site, pageId, version }: { site: Site; pageId: string; version: number }) {
  const { t, api } = useStudio();
  const [token, setToken] = useState<string | null>(null);
  const [page, setPage] = useState<PPage | null>(null);
  const [err, setErr] = useState<string | null>(null);
  // A token for this page only, for an hour; revoked when the editor closes.
  useEffect(() => {
    let id: string | null = null; let gone = false;
    api<{ id: string; token: string }>('POST', siteApi(site.id, '/preview-tokens'), { page_id: pageId, ttl_s: 3600 })
      .then((r) => { id = r.id; if (gone) void api('DELETE', siteApi(site.id, `/preview-tokens/${r.id}`)).catch(() => {}); else setToken(r.token); }, (e) => setErr(errorWords(e)));
    return () => { gone = true; if (id) void api('DELETE', siteApi(site.id, `/preview-tokens/${id}`)).catch(() => {}); };
  }, [site.id, pageId]);
  useEffect(() => {
    if (!token) return;
    let stale = false;
    fetch(`/s/v1/${encodeURIComponent(site.slug)}/pages/${encodeURIComponent(pageId)}?sections=50&preview=${encodeURIComponent(token)}`, { credentials: 'omit' })
      .then(async (r) => { if (!r.ok) throw new Error(((await r.json().catch(() => ({}))) as { detail?: string; title?: string }).detail ?? r.statusText); return r.json() as Promise<PPage>; })
      .then((p) => { if (!stale) { setPage(p); setErr(null); } }, (e) => { if (!stale) setErr(errorWords(e)); });
    return () => { stale = true; };
  }, [token, version, site.slug, pageId]);
  const lang = (site.settings.language ?? 'he').slice(0, 2);
  return (
    <div class="panel ws-preview" id="ws-preview" aria-live="polite">
      <div class="row-between"><h2>{t('ws_preview')}</h2><span class="badge b-waiting">{t('ws_pv_draft')}</span></div>
      <Problem error={err} />
      {!page ? (!err && <Loading />) : (
        <article class="wp" lang={lang} dir={lang === 'he' || lang === 'ar' ? 'rtl' : 'ltr'} style={themeVars(site.theme.draft.tokens)} data-version={version}>
          <header class="wp-head"><strong>{site.name}</strong></header>
          <h1 class="wp-title">{page.title}</h1>
          {page.description && <p class="wp-desc">{page.description}</p>}
          {page.sections.map((s) => <PreviewSection key={s.id} s={s} lang={lang} />)}
        </article>
      )}
    </div>
  );
}
