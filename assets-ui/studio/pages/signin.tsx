/** Sign-in: e-mail and password (reasons in the studio's language; the form keeps what was typed), and "forgot password". */
import { useState } from 'preact/hooks';
import { useStudio, type Me } from '../ctx';
import { problemText } from '../names';
import { navigate } from '../router';
import { Field, Problem } from '../ui';

/** The sign-in page (also where a 401 anywhere sends people). */
export function SignIn() {
  const { t, lang, setLang, setMe, api, client } = useStudio();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  const [sent, setSent] = useState(false);
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
      setError(problemText(t, err));
    } finally { setBusy(false); }
  };
  // POST /v1/password-reset answers the same whether or not the address has an account.
  const sendReset = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setError(null);
    try { await api('POST', '/v1/password-reset', { email }, { silent401: true }); setSent(true); } catch (err) { setError(problemText(t, err)); } finally { setBusy(false); }
  };
  const top = (
    <div class="signin-top">
      <span class="mark" aria-hidden="true">▶</span>
      <button type="button" class="small" id="lang-switch" lang={lang === 'he' ? 'en' : 'he'} onClick={() => setLang(lang === 'he' ? 'en' : 'he')}>{lang === 'he' ? 'English' : 'עברית'}</button>
    </div>
  );
  if (forgot) {
    return (
      <main class="signin" id="main">
        <form class="card" onSubmit={sendReset} aria-labelledby="page-title" id="forgot-form">
          {top}
          <h1 id="page-title" tabIndex={-1}>{t('si_forgot_title')}</h1>
          {sent ? <p role="status" class="ok" id="forgot-sent">{t('si_forgot_sent')}</p> : <>
            <p class="muted">{t('si_forgot_intro')}</p>
            <Field label={t('email')}><input id="forgot-email" type="email" dir="ltr" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></Field>
            <Problem error={error} />
            <button type="submit" class="primary" id="forgot-send" disabled={busy}>{t('si_forgot_send')}</button>
          </>}
          <p><button type="button" class="link" id="forgot-back" onClick={() => { setForgot(false); setSent(false); setError(null); }}>{t('si_back')}</button></p>
        </form>
      </main>
    );
  }
  return (
    <main class="signin" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="page-title">
        {top}
        <h1 id="page-title" tabIndex={-1}>{t('signin_title')}</h1>
        <p class="muted">{t('signin_intro')}</p>
        <Field label={t('email')}><input id="email" type="email" dir="ltr" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></Field>
        <Field label={t('password')}><input id="password" type="password" dir="ltr" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} /></Field>
        <Problem error={error} />
        <button type="submit" class="primary" id="signin" disabled={busy}>{busy ? t('signing_in') : t('sign_in')}</button>
        <p><button type="button" class="link" id="forgot" onClick={() => { setForgot(true); setError(null); }}>{t('si_forgot')}</button></p>
      </form>
    </main>
  );
}
