/** Custom domains of a site: add a host name, the verification step (an HTTP file or a DNS TXT record), verify, remove. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { CopyField, Empty, Field, Problem, useLoad } from '../ui';
import { siteApi, type Domain, type Site } from './sites-model';

/** The domains panel; `onChanged` after any change (the site's domain list changes with it). */
export function SiteDomains({ site, onChanged }: { site: Site; onChanged: () => void }) {
  const { t, f, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: Domain[] }>(siteApi(site.id, '/domains')), [site.id]);
  const [host, setHost] = useState('');
  const [method, setMethod] = useState<Record<string, 'http' | 'txt'>>({});
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const admin = can('sites:admin');
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true); setErr(null);
    try { await fn(); list.reload(); onChanged(); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const add = (e: Event) => { e.preventDefault(); void run(async () => { await api('POST', siteApi(site.id, '/domains'), { hostname: host.trim().toLowerCase() }); setHost(''); }); };
  const verify = (h: string) => run(() => api('POST', siteApi(site.id, `/domains/${encodeURIComponent(h)}/verify`), { method: method[h] ?? 'http' }));
  const remove = (h: string) => { if (confirm(t('ws_confirm_remove_domain', { host: h }))) void run(() => api('DELETE', siteApi(site.id, `/domains/${encodeURIComponent(h)}`))); };
  const items = list.data?.items ?? [];
  return (
    <div class="panel ws-domains" id="ws-domains">
      <h2>{t('ws_domains')}</h2>
      <p class="muted">{t('ws_domains_intro')}</p>
      {admin && (
        <form class="inline-form" id="ws-domain-add" onSubmit={add}>
          <Field label={t('ws_hostname')}><input id="ws-domain-host" dir="ltr" required placeholder="www.example.com" value={host} onInput={(e) => setHost(e.currentTarget.value)} /></Field>
          <button type="submit" disabled={busy || !host.trim()}>{t('ws_add_domain')}</button>
        </form>
      )}
      <Problem error={err ?? list.error} />
      {!items.length ? <Empty>{t('ws_no_domains')}</Empty> : (
        <ul class="plain ws-domain-list">
          {items.map((d) => (
            <li key={d.hostname} class="ws-domain" id={`ws-domain-${d.hostname.replace(/[^a-z0-9]/g, '-')}`}>
              <div class="row-between ws-domain-head">
                <strong dir="ltr">{d.hostname}</strong>
                <span class={`badge ${d.verified ? 'b-published' : 'b-pending'}`}>{d.verified ? t('ws_verified') : t('ws_pending')}</span>
                {d.verified && <span class="muted">{t('ws_verified_at', { when: f.short(d.verified_at), how: d.method === 'txt' ? t('ws_by_txt') : t('ws_by_http') })}</span>}
                {admin && <button type="button" class="small danger" disabled={busy} onClick={() => remove(d.hostname)}>{t('ws_remove')}</button>}
              </div>
              {!d.verified && (
                <div class="ws-verify">
                  <p>{t('ws_verify_step')}</p>
                  <ol>
                    <li><p>{t('ws_verify_http')}</p><CopyField label={t('ws_address')} value={d.verification.http.url} /><CopyField label={t('ws_content')} value={d.verification.http.body} /></li>
                    <li><p>{t('ws_verify_txt')}</p><CopyField label={t('ws_record')} value={d.verification.txt.name} /><CopyField label={t('ws_value')} value={d.verification.txt.value} /></li>
                  </ol>
                  {admin && (
                    <div class="actions">
                      <select class="ws-method" aria-label={t('ws_method')} value={method[d.hostname] ?? 'http'} onChange={(e) => setMethod({ ...method, [d.hostname]: e.currentTarget.value as 'http' | 'txt' })}>
                        <option value="http">{t('ws_by_http')}</option><option value="txt">{t('ws_by_txt')}</option>
                      </select>
                      <button type="button" class="primary ws-verify-btn" disabled={busy} onClick={() => void verify(d.hostname)}>{t('ws_verify')}</button>
                    </div>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
