/** Alert destinations of the alerts page: e-mail addresses and Telegram chats, added, listed with their status, removed. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Empty, Problem } from '../ui';
import type { Destination } from './alerts-form';

/** The destinations panel; `onChange` after an add or a removal (the monitor form lists them). */
export function Destinations({ items, onChange }: { items: Destination[]; onChange: () => void }) {
  const { t, api } = useStudio();
  const [email, setEmail] = useState('');
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tg, setTg] = useState<{ start_code: string; link: string | null } | null>(null);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true); setErr(null);
    try { await fn(); onChange(); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const add = (e: Event) => { e.preventDefault(); void run(async () => { await api('POST', '/v1/alert-destinations', { kind: 'email', target: email.trim() }); setEmail(''); }); };
  const link = () => run(async () => setTg(await api<{ start_code: string; link: string | null }>('POST', '/v1/alert-destinations/telegram-link', {})));
  const remove = (d: Destination) => {
    if (!confirm(t('al_confirm_dest_remove', { target: d.name || d.target || d.kind }))) return;
    void run(() => api('DELETE', `/v1/alert-destinations/${encodeURIComponent(d.id)}`));
  };
  return (
    <section class="panel" id="destinations-panel">
      <h2>{t('al_dest_title')}</h2>
      {!items.length ? <Empty>{t('al_no_destinations')}</Empty> : (
        <ul class="dest-list" id="destinations">
          {items.map((d) => (
            <li key={d.id} data-id={d.id}>
              <span class="dest-kind">{d.kind === 'telegram' ? 'Telegram' : '@'}</span>
              <bdi dir="ltr" class="dest-target">{d.target || d.name || '—'}</bdi>
              <span class={`badge ${d.status === 'active' ? 'b-ready' : 'b-waiting'}`}>{d.status === 'active' ? t('al_dest_active') : t('al_dest_pending')}</span>
              <button type="button" class="small link" disabled={busy} onClick={() => remove(d)}>{t('al_dest_remove')}</button>
            </li>
          ))}
        </ul>
      )}
      <form id="dest-email-form" class="inline-form" onSubmit={add}>
        <label class="field"><span>{t('al_dest_email')}</span><input id="dest-email" type="email" dir="ltr" required maxLength={254} value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></label>
        <button type="submit" disabled={busy || !email.trim()}>{t('al_dest_add')}</button>
      </form>
      <button type="button" id="dest-telegram" disabled={busy} onClick={link}>{t('al_dest_telegram')}</button>
      {tg && <p id="telegram-code">{t('al_dest_telegram_code', { code: tg.start_code })} {tg.link && <a href={tg.link} target="_blank" rel="noopener noreferrer" dir="ltr">{tg.link}</a>}</p>}
      <Problem error={err} />
    </section>
  );
}
