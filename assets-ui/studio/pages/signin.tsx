/** Sign-in: e-mail and password; the form keeps what was typed when sign-in fails. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio, type Me } from '../ctx';
import { navigate } from '../router';
import { Field, Problem } from '../ui';

/** The sign-in page (also where a 401 anywhere sends people). */
export function SignIn() {
  const { t, lang, setLang, setMe, api, client } = useStudio();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setError(null);
    try {
      const s = await api<Me>('POST', '/v1/session', { email, password }, { silent401: true });
      client.csrf = s.csrf_token;
      if (!s.current_tenant && s.tenants.length) await api('PUT', '/v1/me/tenant', { tenant: s.tenants[0].id });
      const me = await api<Me>('GET', '/v1/session');
      client.csrf = me.csrf_token;
      setMe(me);
      const next = new URLSearchParams(location.search).get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next.replace(/^\/studio/, '') || '/' : '/', true);
    } catch (err) {
      setError(errorWords(err));
    } finally { setBusy(false); }
  };
  return (
    <main class="signin" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="page-title">
        <div class="signin-top">
          <span class="mark" aria-hidden="true">▶</span>
          <button type="button" class="small" id="lang-switch" onClick={() => setLang(lang === 'he' ? 'en' : 'he')}>{lang === 'he' ? 'English' : 'עברית'}</button>
        </div>
        <h1 id="page-title" tabIndex={-1}>{t('signin_title')}</h1>
        <p class="muted">{t('signin_intro')}</p>
        <Field label={t('email')}><input id="email" type="email" dir="ltr" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></Field>
        <Field label={t('password')}><input id="password" type="password" dir="ltr" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} /></Field>
        <Problem error={error} />
        <button type="submit" class="primary" id="signin" disabled={busy}>{busy ? t('signing_in') : t('sign_in')}</button>
      </form>
    </main>
  );
}
