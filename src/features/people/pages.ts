import { Elysia, t } from 'elysia';
import { randomToken } from '../../kernel/ids';
import { pageLang } from '../connect/consent';

const TEXT = {
  en: {
    invite: 'Join the team', reset: 'Choose a new password', email: 'E-mail', name: 'Name', password: 'Password',
    hint: 'At least 10 characters.', submit: 'Continue', done: 'Done. You can now use the studio.', open: 'Open the studio',
  },
  he: {
    invite: 'הצטרפות לצוות', reset: 'בחירת סיסמה חדשה', email: 'דואר אלקטרוני', name: 'שם', password: 'סיסמה',
    hint: 'לפחות 10 תווים.', submit: 'המשך', done: 'בוצע. אפשר להשתמש בסטודיו.', open: 'לסטודיו',
  },
};

/** The invitation and password-reset pages the e-mailed links open (minimal server-rendered forms until the studio SPA has its own). */
function page(kind: 'invite' | 'reset', lang: 'he' | 'en', token: string, nonce: string): string {
  const x = TEXT[lang];
  const field = (id: string, label: string, type: string, extra = '') => `<label>${label}<br><input id="${id}" type="${type}" ${extra}></label><br>`;
  const fields = kind === 'invite'
    ? field('email', x.email, 'email', 'autocomplete="email"') + field('name', x.name, 'text', 'autocomplete="name"') + field('password', x.password, 'password', 'autocomplete="new-password"')
    : field('password', x.password, 'password', 'autocomplete="new-password"');
  const script = kind === 'invite'
    ? `fetch('/v1/invitations/lookup?token='+encodeURIComponent(tok)).then(r=>r.json()).then(b=>{if(b.email){const e=document.getElementById('email');e.value=b.email;e.readOnly=true;}if(b.detail)out.textContent=b.detail;});`
      + `send=()=>post('/v1/invitations/accept',{token:tok,email:val('email')||undefined,name:val('name')||undefined,password:val('password')});`
    : `send=()=>post('/v1/password-reset/confirm',{token:tok,password:val('password')});`;
  return `<!doctype html><html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>${x[kind]}</title><style>body{font:16px system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem}input{width:100%;padding:.3rem;margin:.2rem 0 .8rem}#out{color:#b00}</style></head>`
    + `<body><h1>${x[kind]}</h1>${fields}<small>${x.hint}</small><br><br><button id="go">${x.submit}</button><p id="out"></p>`
    + `<script nonce="${nonce}">const tok=${JSON.stringify(token).replace(/</g, '\\u003c')};const out=document.getElementById('out');const val=(i)=>document.getElementById(i)?.value??'';let send;`
    + `const post=async(u,b)=>{const r=await fetch(u,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},body:JSON.stringify(b)});`
    + `if(r.ok){document.body.innerHTML='<h1>${x.done}</h1><p><a href="/studio/">${x.open}</a></p>';return;}const p=await r.json();out.textContent=(p.errors||[]).map(e=>e.detail).join('; ')||p.detail;};`
    + `${script}document.getElementById('go').onclick=()=>send();</script></body></html>`;
}

/** GET /studio/invite and /studio/reset: the pages behind e-mailed links (hidden from the API documents). */
export function studioLinkPages() {
  const q = t.Object({ token: t.Optional(t.String({ maxLength: 200 })), lang: t.Optional(t.String({ maxLength: 5 })) });
  const answer = (kind: 'invite' | 'reset', query: { token?: string; lang?: string }, request: Request) => {
    const nonce = randomToken(16);
    return new Response(page(kind, pageLang(query.lang, request.headers.get('accept-language')), query.token ?? '', nonce), {
      headers: {
        'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY',
        'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'`,
      },
    });
  };
  return new Elysia()
    .get('/studio/invite', ({ query, request }) => answer('invite', query, request), { query: q, detail: { hide: true } })
    .get('/studio/reset', ({ query, request }) => answer('reset', query, request), { query: q, detail: { hide: true } });
}
