import type { StudioBundle } from './bundle';

/** The one HTML page of the single-page app: links the hashed script and stylesheet; language and direction are set by the app. */
export function studioHtml(b: StudioBundle, lang: 'he' | 'en'): string {
  const dir = lang === 'he' ? 'rtl' : 'ltr';
  return `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8">`
    + '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="same-origin">'
    + `<title>ViewStream Studio</title><link rel="stylesheet" href="/studio/assets/${b.css}">`
    + `<link rel="modulepreload" href="/studio/assets/${b.entry}"></head>`
    + `<body><div id="app" aria-live="polite"></div><script type="module" src="/studio/assets/${b.entry}"></script></body></html>`;
}

/** The language of the first page from the saved choice (cookie `vs_lang`) or Accept-Language; Hebrew or English. */
export function firstLang(cookie: string | null, acceptLanguage: string | null): 'he' | 'en' {
  const saved = /(?:^|;\s*)vs_lang=(he|en)\b/.exec(cookie ?? '')?.[1];
  if (saved === 'he' || saved === 'en') return saved;
  return /^\s*he\b/i.test(acceptLanguage ?? '') ? 'he' : 'en';
}

/** Content security policy of the studio page: own scripts only, the player's media and styles, no framing. */
export const STUDIO_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https: blob:; "
  + "media-src 'self' blob: https:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
