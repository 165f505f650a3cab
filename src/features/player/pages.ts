import type { TitleData } from './resolve';
import { balanceBidi, isolate } from '../../text/bidi';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON for a <script> block: no `</script` can close it early. */
const jsonInScript = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** The first language of an Accept-Language header (by q weight) that the pages speak, or null. */
export function acceptedLang(header: string | null, langs: ReadonlySet<string>): string | null {
  if (!header) return null;
  const ranked = header.split(',').map((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = Number(params.map((x) => x.trim()).find((x) => x.startsWith('q='))?.slice(2) ?? 1);
    return { lang: tag.trim().toLowerCase().split('-')[0], q: Number.isFinite(q) ? q : 0, i };
  }).filter((x) => x.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.find((x) => langs.has(x.lang))?.lang ?? null;
}

/** What a hosted page needs to render. */
export interface PageInput {
  kind: 'w' | 'e'; tenant: string; contentKind: string; title: TitleData; playerUrl: string; cdnUrl: string; version: string;
  configName: string | null; config: Record<string, unknown>; lang: string | null; start: number | null; autoplay: boolean; pageUrl: string;
}

const isoDuration = (s: number | null) => (s && s > 0 ? `PT${Math.round(s)}S` : undefined);

/** schema.org VideoObject for the watch page. */
export function videoObject(p: PageInput): Record<string, unknown> {
  const t = p.title;
  const embed = `${p.playerUrl}/e/${p.tenant}/${p.contentKind}/${encodeURIComponent(t.contentId ?? t.id)}`;
  return {
    '@context': 'https://schema.org', '@type': 'VideoObject', name: t.title, description: t.description || t.title,
    ...(t.poster ? { thumbnailUrl: [t.poster] } : { thumbnailUrl: [`${p.playerUrl}/embed/${p.version}/poster.svg`] }),
    uploadDate: t.upload_date ?? undefined, duration: isoDuration(t.duration_s), embedUrl: embed, url: p.pageUrl,
    ...(t.live ? { publication: { '@type': 'BroadcastEvent', isLiveBroadcast: true, startDate: t.upload_date ?? undefined } } : {}),
  };
}

/**
 * The watch page (/w/…) or the iframe page (/e/…): one player filling the page, configured by data-* attributes. User
 * text is bidi-isolated where it is shown (`<title>` with U+2068…U+2069, headings in `<bdi>`) and balanced everywhere
 * else, so a right-to-left override in a title never reorders the text around it.
 */
export function renderPage(p: PageInput): string {
  const t = { ...p.title, title: balanceBidi(p.title.title), description: balanceBidi(p.title.description) };
  const target = p.contentKind === 'live' ? { channel: t.contentId ?? t.id } : p.contentKind === 'clip' ? { clip: t.id } : { asset: t.id };
  const attrs: Record<string, string> = {
    'data-tenant': p.tenant, 'data-playback': JSON.stringify(target), 'data-target': '#vs-player', 'data-title': t.title,
    'data-beacon-url': `${p.cdnUrl}/b/v1`, 'data-options': JSON.stringify({ configDoc: p.config, ...(t.ads ? { ads: t.ads } : {}), ...(t.guide ? { guide: t.guide } : {}) }),
  };
  if (p.configName) attrs['data-config'] = p.configName;
  if (p.lang) attrs['data-lang'] = p.lang;
  if (p.start !== null && !t.live) attrs['data-start'] = String(p.start);
  if (p.autoplay) { attrs['data-autoplay'] = '1'; attrs['data-muted'] = '1'; }
  if (t.poster) attrs['data-poster'] = t.poster;
  const script = `<script src="${esc(`${p.playerUrl}/embed/${p.version}/embed.js`)}" ${Object.entries(attrs).map(([k, v]) => `${k}="${esc(v)}"`).join(' ')}></script>`;
  const dir = p.lang === 'he' || p.lang === 'ar' ? 'rtl' : 'ltr';
  const image = t.poster ?? '';
  const embedUrl = `${p.playerUrl}/e/${p.tenant}/${p.contentKind}/${encodeURIComponent(t.contentId ?? t.id)}`;
  const meta = p.kind === 'w' ? [
    ['og:type', 'video.other'], ['og:title', t.title], ['og:description', t.description], ['og:url', p.pageUrl], ['og:image', image],
    ['og:video', embedUrl], ['og:video:type', 'text/html'], ['og:video:width', '1280'], ['og:video:height', '720'],
  ].filter(([, v]) => v).map(([k, v]) => `<meta property="${k}" content="${esc(v)}">`).concat([
    ['twitter:card', 'player'], ['twitter:title', t.title], ['twitter:description', t.description], ['twitter:image', image],
    ['twitter:player', embedUrl], ['twitter:player:width', '1280'], ['twitter:player:height', '720'],
  ].filter(([, v]) => v).map(([k, v]) => `<meta name="${k}" content="${esc(v)}">`)).join('\n') : '<meta name="robots" content="noindex">';
  const ld = p.kind === 'w' ? `<script type="application/ld+json">${jsonInScript(videoObject({ ...p, title: t }))}</script>` : '';
  const style = p.kind === 'e'
    ? 'html,body{margin:0;height:100%;background:#000;overflow:hidden}#vs-player{height:100%}#vs-player .vs-box{height:100%;border-radius:0;aspect-ratio:auto!important}'
    : 'body{margin:0;background:#0b0b0f;color:#eee;font-family:system-ui,sans-serif}main{max-width:1100px;margin:0 auto;padding:16px}h1{font-size:1.4rem}p{opacity:.8}';
  const body = p.kind === 'e' ? '<div id="vs-player"></div>'
    : `<main><div id="vs-player"></div><h1><bdi>${esc(t.title)}</bdi></h1>${t.description && t.description !== t.title ? `<p><bdi>${esc(t.description)}</bdi></p>` : ''}</main>`;
  return `<!doctype html>
<html lang="${esc(p.lang ?? 'en')}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(isolate(t.title))}</title>
<meta name="description" content="${esc(t.description)}">
<link rel="canonical" href="${esc(p.pageUrl)}">
${meta}
${ld}
<style>${style}</style>
</head>
<body>
${body}
${script}
</body>
</html>`;
}

/** A small refusal page (embedding refused by allowed_domains). */
export function refusalPage(lang: string | null): string {
  const text = lang === 'he' ? 'לא ניתן להציג את הסרטון באתר זה' : lang === 'ar' ? 'لا يمكن عرض هذا الفيديو على هذا الموقع' : lang === 'ru' ? 'Это видео нельзя показать на этом сайте' : 'This video cannot be shown on this site';
  return `<!doctype html><html lang="${esc(lang ?? 'en')}"><meta charset="utf-8"><title>403</title><body style="margin:0;background:#000;color:#fff;font-family:system-ui;display:flex;align-items:center;justify-content:center;height:100vh"><p role="alert">${esc(text)}</p></body></html>`;
}
