import type { Principal } from '../../kernel/http/auth';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/**
 * User text (a site's name, an address, a tenant's name, an error quoting input), escaped and isolated in `<bdi>`: its
 * direction is its own, and a right-to-left or left-to-right override inside it ends with it, never turning the page's
 * own words around.
 */
const user = (s: string) => `<bdi>${esc(s)}</bdi>`;

const TEXT = {
  en: {
    title: 'Connect a site', asks: 'wants to connect to', as: 'Signed in as', scopes: 'It asks for these permissions:',
    approve: 'Approve', deny: 'Deny', signin: 'Sign in to the studio first, then open this link again.',
    noTenant: 'Choose a tenant in the studio first.', noRight: 'You cannot approve site connections (you need the keys:manage permission).',
    bad: 'This connection request is not valid:',
  },
  he: {
    title: 'חיבור אתר', asks: 'מבקש להתחבר אל', as: 'מחובר/ת בתור', scopes: 'ההרשאות המבוקשות:',
    approve: 'אישור', deny: 'דחייה', signin: 'יש להתחבר לסטודיו תחילה ולפתוח את הקישור שוב.',
    noTenant: 'יש לבחור דייר (tenant) בסטודיו תחילה.', noRight: 'אין לך הרשאה לאשר חיבור אתרים (נדרשת ההרשאה keys:manage).',
    bad: 'בקשת החיבור אינה תקינה:',
  },
};

/** Language of the consent page: `lang` query first, then Accept-Language, English by default. */
export function pageLang(query: string | undefined, accept: string | null): 'he' | 'en' {
  if (query === 'he' || query === 'en') return query;
  return /^\s*he\b/i.test(accept ?? '') ? 'he' : 'en';
}

/** The studio consent page: the site, the scopes and the person, with Approve (POST /v1/connect/authorize) and Deny. */
export function consentPage(o: {
  lang: 'he' | 'en'; nonce: string; person: Principal | null; origin: string | null; error: string | null;
  siteName: string; scopes: string[]; request: Record<string, unknown>; denyUrl: string | null;
}): string {
  const t = TEXT[o.lang];
  const dir = o.lang === 'he' ? 'rtl' : 'ltr';
  let main: string;
  if (o.error) main = `<p class="err">${esc(t.bad)} ${user(o.error)}</p>`;
  else if (!o.person) main = `<p>${esc(t.signin)}</p><p><a href="/studio/">/studio/</a></p>`;
  else if (!o.person.tenantId) main = `<p>${esc(t.noTenant)}</p>`;
  else {
    const who = `<p>${esc(t.as)} <b id="person">${user(o.person.session!.user.email)}</b> (${user(o.person.tenantName)})</p>`;
    const site = `<p><b id="site">${user(o.siteName || o.origin!)}</b> <bdi>(${esc(o.origin!)})</bdi> ${esc(t.asks)} <b>${user(o.person.tenantName)}</b>.</p>`;
    const list = `<p>${esc(t.scopes)}</p><ul id="scopes">${o.scopes.map((s) => `<li><code>${esc(s)}</code></li>`).join('')}</ul>`;
    if (!o.person.scopes.has('keys:manage')) main = who + site + `<p class="err">${esc(t.noRight)}</p>`;
    else {
      main = who + site + list
        + `<button id="approve">${esc(t.approve)}</button> <a id="deny" href="${esc(o.denyUrl!)}">${esc(t.deny)}</a><p class="err" id="out"></p>`
        + `<script nonce="${o.nonce}">const req=${JSON.stringify(o.request).replace(/</g, '\\u003c')};const csrf=${JSON.stringify(o.person.session!.csrf)};`
        + `document.getElementById('approve').onclick=async()=>{const r=await fetch('/v1/connect/authorize',{method:'POST',credentials:'same-origin',`
        + `headers:{'content-type':'application/json','x-csrf-token':csrf},body:JSON.stringify(req)});const b=await r.json();`
        + `if(r.ok)location.href=b.redirect_to;else document.getElementById('out').textContent=b.detail;};</script>`;
    }
  }
  return `<!doctype html><html lang="${o.lang}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>${esc(t.title)}</title><style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}.err{color:#b00}button{font-size:1rem;padding:.4rem 1rem}</style>`
    + `</head><body><h1>${esc(t.title)}</h1>${main}</body></html>`;
}
