/**
 * The interactive API reference pages (/docs/ in English, /docs/he/ in Hebrew, right to left): Scalar's API
 * reference, served from this binary (no external scripts or fonts: works on an offline LAN), reading our own
 * OpenAPI document, with "try it" against this server and a bearer key field.
 */

/** The Scalar standalone bundle's URL on this server. */
export const SCALAR_JS_PATH = '/docs/assets/scalar.js';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]!));

/** Right-to-left layout for the Hebrew page: the whole reference mirrors; code, paths and URLs stay left to right. */
const RTL_CSS = `.scalar-app { direction: rtl }
.scalar-app code, .scalar-app pre, .scalar-app .cm-editor, .scalar-app [class*="endpoint"], .scalar-app [class*="path"] { direction: ltr; unicode-bidi: isolate }
.scalar-app .markdown, .scalar-app .section-header { text-align: right }
.scalar-app button.absolute[aria-expanded] { right: auto; left: 5px }
.scalar-app button.absolute[aria-expanded='false'] svg { transform: scaleX(-1) }`;

/** The reference page for one language. */
export function docsHtml(lang: 'en' | 'he'): string {
  const he = lang === 'he';
  const config = {
    url: he ? '/openapi.he.json' : '/openapi.json',
    withDefaultFonts: false, // no font requests to an outside host
    telemetry: false,
    showDeveloperTools: 'never',
    agent: { disabled: true }, // the hosted AI helper needs the internet
    mcp: { disabled: true }, // so does Scalar's hosted MCP generator
    persistAuth: false,
    hideClientButton: true, // the separate client app is hosted by Scalar; "Test Request" works in the page
    documentDownloadType: 'both',
    authentication: { preferredSecurityScheme: 'apiKey' },
    metaData: { title: he ? 'ViewStream – תיעוד ה-API' : 'ViewStream API reference' },
  };
  const title = he ? 'ViewStream – תיעוד ה-API' : 'ViewStream API reference';
  const other = he ? '<a href="/docs/">English</a>' : '<a href="/docs/he/" hreflang="he">עברית</a>';
  const docs = he
    ? '<a href="/openapi.he.json">openapi.he.json</a><a href="/openapi.he.yaml">yaml</a>'
    : '<a href="/openapi.json">openapi.json</a><a href="/openapi.yaml">yaml</a>';
  return `<!doctype html>
<html lang="${lang}" dir="${he ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title>
<style>
:root{--scalar-custom-header-height:40px}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Arial,sans-serif}
.vs-bar{position:sticky;top:0;z-index:1000;height:40px;box-sizing:border-box;display:flex;gap:16px;align-items:center;padding:0 16px;background:#101828;color:#fff;font-size:14px}
.vs-bar b{font-weight:600}.vs-bar a{color:#9ecbff;text-decoration:none}.vs-bar .vs-sp{flex:1}
${he ? RTL_CSS : ''}
</style></head><body>
<div class="vs-bar"><b>ViewStream API</b><span class="vs-sp"></span>${docs}${other}</div>
<div id="app"></div>
<script src="${SCALAR_JS_PATH}"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(config)});</script>
</body></html>`;
}
