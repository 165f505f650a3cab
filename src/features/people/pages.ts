import { Elysia, t } from 'elysia';
import { randomToken } from '../../kernel/ids';
import { pageLang } from '../connect/consent';

const TEXT = {
  en: {
    invite: 'Join the team', reset: 'Choose a new password', email: 'E-mail', name: 'Name', password: 'Password',
    hint: 'At least 10 characters.', submit: 'Continue', done: 'Done. You can now use the studio.', open: 'Open the studio',
    other: 'עברית', otherLang: 'he', failed: 'That did not work:', used: 'This link was already used.', withdrawn: 'This invitation was withdrawn.',
    expired: 'This link has expired. Ask for a new one.', unknown: 'This link is not valid. Check that it was copied whole.', signin: 'Sign in to the studio',
    invited: 'You are invited to {tenant}.', busy: 'One moment…', network: 'The connection failed. Try again.',
  },
  he: {
    invite: 'הצטרפות לצוות', reset: 'בחירת סיסמה חדשה', email: 'דואר אלקטרוני', name: 'שם', password: 'סיסמה',
    hint: 'לפחות 10 תווים.', submit: 'המשך', done: 'בוצע. אפשר להשתמש בסטודיו.', open: 'לסטודיו',
    other: 'English', otherLang: 'en', failed: 'הפעולה לא הצליחה:', used: 'הקישור הזה כבר נוצל.', withdrawn: 'ההזמנה הזו בוטלה.',
    expired: 'תוקף הקישור פג. אפשר לבקש קישור חדש.', unknown: 'הקישור אינו תקין. כדאי לבדוק שהועתק במלואו.', signin: 'כניסה לסטודיו',
    invited: 'הוזמנת להצטרף אל {tenant}.', busy: 'רגע…', network: 'החיבור נכשל. אפשר לנסות שוב.',
  },
};

/** Hebrew words for the English reasons the API gives on these two forms (the English page shows the API's own words). */
const REASONS_HE: [RegExp, string][] = [
  [/too short/, 'הסיסמה קצרה מדי: לפחות 10 תווים.'], [/too long/, 'הסיסמה ארוכה מדי: לכל היותר 200 תווים.'], [/too common/, 'הסיסמה נפוצה מדי.'],
  [/one character repeated/, 'הסיסמה היא תו אחד שחוזר.'], [/contains the e-mail name/, 'הסיסמה מכילה את שם הדואר.'], [/^empty/, 'יש לבחור סיסמה של 10 תווים לפחות.'],
  [/not an e-mail address/, 'זו אינה כתובת דואר אלקטרוני.'], [/another address/, 'ההזמנה מיועדת לכתובת אחרת.'], [/required for this link/, 'יש להזין כתובת דואר אלקטרוני.'],
  [/wrong e-mail address or password|password is wrong|invalid credentials/i, 'הסיסמה שגויה לחשבון הקיים עם כתובת זו.'], [/too many/, 'יותר מדי ניסיונות. אפשר לנסות שוב בעוד רגע.'],
];

/** The studio's look for the two link pages: a card on the studio background, the studio's colours and fonts. */
const STYLE = ':root{--brand:#2563eb;--bg:#f6f7f9;--panel:#fff;--ink:#17202e;--muted:#5b6577;--line:#e3e7ee;--ok:#15803d;--bad:#b91c1c;color-scheme:light;'
  + 'font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Hebrew","Noto Sans",Arial,sans-serif;color:var(--ink);background:var(--bg)}'
  + '*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1rem}'
  + '.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1.5rem;width:min(26rem,100%);box-shadow:0 4px 20px #0000000d}'
  + '.top{display:flex;justify-content:space-between;align-items:center;margin-bottom:.5rem}.mark{color:var(--brand);font-size:1.4rem}'
  + 'h1{font-size:1.35rem;margin:.2rem 0 1rem}label{display:block;margin-bottom:.8rem;font-weight:500}label span{display:block;margin-bottom:.25rem}'
  + 'input{font:inherit;width:100%;padding:.5rem .6rem;border:1px solid var(--line);border-radius:8px;background:#fff;color:var(--ink)}input[readonly]{background:var(--bg)}'
  + 'small{color:var(--muted)}button,.button{font:inherit;border:1px solid var(--brand);background:var(--brand);color:#fff;border-radius:8px;padding:.5rem 1rem;cursor:pointer;text-decoration:none;display:inline-block}'
  + 'button:disabled{opacity:.6}.lang{font-size:.85rem;color:var(--brand)}#out{color:var(--bad);min-height:1.2em}#out:empty{display:none}.ok{color:var(--ok)}.muted{color:var(--muted)}'
  + ':focus-visible{outline:3px solid var(--brand);outline-offset:2px}';

/** The invitation and password-reset pages the e-mailed links open: the studio's look, a language switch, reasons in the page's language, and no form once the link is used. */
function page(kind: 'invite' | 'reset', lang: 'he' | 'en', token: string, nonce: string): string {
  const x = TEXT[lang];
  const field = (id: string, label: string, type: string, extra = '') => `<label for="${id}"><span>${label}</span><input id="${id}" name="${id}" type="${type}" dir="ltr" ${extra}></label>`;
  const fields = kind === 'invite'
    ? field('email', x.email, 'email', 'autocomplete="email"') + field('name', x.name, 'text', 'autocomplete="name"').replace('dir="ltr" ', 'dir="auto" ') + field('password', x.password, 'password', 'autocomplete="new-password"')
    : field('password', x.password, 'password', 'autocomplete="new-password"');
  const other = `?${new URLSearchParams({ token, lang: x.otherLang })}`;
  const words = { ...x, reasons: lang === 'he' ? REASONS_HE.map(([r, w]) => [r.source, r.flags, w]) : [] };
  const script = kind === 'invite'
    ? `fetch('/v1/invitations/lookup?token='+encodeURIComponent(tok)).then(async r=>{const b=await r.json().catch(()=>({}));if(!r.ok){closed(b);return;}if(b.email){const e=document.getElementById('email');e.value=b.email;e.readOnly=true;}if(b.tenant_name)document.getElementById('lead').textContent=W.invited.replace('{tenant}','\\u2068'+b.tenant_name+'\\u2069');},()=>{});`
      + `send=()=>post('/v1/invitations/accept',{token:tok,email:val('email')||undefined,name:val('name')||undefined,password:val('password')});`
    : `send=()=>post('/v1/password-reset/confirm',{token:tok,password:val('password')});`;
  return `<!doctype html><html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>${x[kind]} · ViewStream</title><style>${STYLE}</style></head>`
    + `<body><main class="card" id="card"><div class="top"><span class="mark" aria-hidden="true">▶</span><a class="lang" id="lang-switch" lang="${x.otherLang}" href="${other.replace(/&/g, '&amp;')}">${x.other}</a></div>`
    + `<h1>${x[kind]}</h1><p class="muted" id="lead"></p><form id="form" novalidate>${fields}<p><small>${x.hint}</small></p><p id="out" role="alert"></p><button id="go" type="submit">${x.submit}</button></form></main>`
    + `<script nonce="${nonce}">const tok=${JSON.stringify(token).replace(/</g, '\\u003c')};const W=${JSON.stringify(words).replace(/</g, '\\u003c')};const out=document.getElementById('out');const val=(i)=>document.getElementById(i)?.value??'';let send;`
    // Reasons: the page's language for the known ones; a used, withdrawn, expired or unknown link replaces the form.
    + `const say=(d)=>{for(const [s,f,w] of W.reasons){if(new RegExp(s,f).test(d))return w;}return d;};`
    + `const closed=(p)=>{const d=String(p&&p.detail||'');const m=/already used/.test(d)?W.used:/withdrawn/.test(d)?W.withdrawn:/expired/.test(d)?W.expired:W.unknown;`
    + `document.getElementById('form').remove();const q=document.getElementById('lead');q.className='';q.id='closed';q.textContent=m;const a=document.createElement('a');a.className='button';a.href='/studio/sign-in';a.textContent=W.signin;document.getElementById('card').append(a);};`
    + `const post=async(u,b)=>{const go=document.getElementById('go');go.disabled=true;out.textContent='';let r;try{r=await fetch(u,{method:'POST',credentials:'same-origin',headers:{'content-type':'application/json'},body:JSON.stringify(b)});}catch{out.textContent=W.failed+' '+W.network;go.disabled=false;return;}`
    + `if(r.ok){const c=document.getElementById('card');c.replaceChildren();const h=document.createElement('h1');h.className='ok';h.id='done';h.textContent=W.done;const a=document.createElement('a');a.className='button';a.href='/studio/';a.textContent=W.open;c.append(h,a);return;}`
    + `const p=await r.json().catch(()=>({}));go.disabled=false;if(r.status===410||r.status===404){closed(p);return;}`
    + `const list=(p.errors||[]).map(e=>say(String(e.detail||'')));out.textContent=W.failed+' '+(list.length?list.join(' '):say(String(p.detail||r.statusText)));};`
    + `${script}document.getElementById('form').onsubmit=(e)=>{e.preventDefault();send();};</script></body></html>`;
}

/** GET /studio/invite and /studio/reset: the pages behind e-mailed links (hidden from the API documents). */
export function studioLinkPages() {
  const q = t.Object({ token: t.Optional(t.String({ maxLength: 200 })), lang: t.Optional(t.String({ maxLength: 5 })) });
  const answer = (kind: 'invite' | 'reset', query: { token?: string; lang?: string }, request: Request) => {
    const nonce = randomToken(16);
    // ?lang= (the page's own switch), then the studio's saved language (cookie), then the browser's.
    const saved = /(?:^|;\s*)vs_lang=(he|en)\b/.exec(request.headers.get('cookie') ?? '')?.[1];
    return new Response(page(kind, pageLang(query.lang ?? saved, request.headers.get('accept-language')), query.token ?? '', nonce), {
      headers: {
        'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY',
        'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
      },
    });
  };
  return new Elysia()
    .get('/studio/invite', ({ query, request }) => answer('invite', query, request), { query: q, detail: { hide: true } })
    .get('/studio/reset', ({ query, request }) => answer('reset', query, request), { query: q, detail: { hide: true } });
}
