/** Webhooks: endpoints (secret shown once), a test ping, and each endpoint's deliveries with redeliver. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Badge, CopyField, Empty, Field, Loading, Problem, useLoad } from '../ui';
import { eventName } from '../names';

interface Hook { id: string; url: string; events: string[]; enabled: boolean; secret_hint: string; created_at: string }
interface Delivery { id: string; event_type: string; status: string; attempts: number; last_response_code: number | null; created_at?: string; updated_at?: string }

function Deliveries({ hook }: { hook: Hook }) {
  const { t, f, api, get } = useStudio();
  const d = useLoad(() => get<{ items: Delivery[] }>(`/v1/webhooks/${hook.id}/deliveries?limit=20`), [hook.id]);
  const [err, setErr] = useState<string | null>(null);
  const redeliver = async (id: string) => {
    try { await api('POST', `/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`); d.reload(); } catch (e) { setErr(errorWords(e)); }
  };
  return (
    <div class="deliveries">
      <div class="row-between"><h3>{t('deliveries')}</h3><button type="button" class="small" onClick={d.reload}>{t('refresh')}</button></div>
      <Problem error={err ?? d.error} />
      {d.loading && !d.data ? <Loading /> : !d.data?.items.length ? <Empty>{t('no_deliveries')}</Empty> : (
        <table class="table deliveries-table"><thead><tr><th>{t('event')}</th><th>{t('state')}</th><th>{t('response')}</th><th>{t('attempts')}</th><th>{t('when')}</th><th /></tr></thead>
          <tbody>{d.data.items.map((x) => (
            <tr key={x.id}><td title={x.event_type}>{eventName(t, x.event_type)}</td><td><Badge status={x.status} /></td><td>{x.last_response_code ?? '—'}</td><td>{x.attempts}</td>
              <td>{f.date(x.updated_at ?? x.created_at ?? null)}</td><td><button type="button" class="small" onClick={() => redeliver(x.id)}>{t('redeliver')}</button></td></tr>
          ))}</tbody></table>
      )}
    </div>
  );
}

/** The webhooks panel. */
export function Webhooks() {
  const { t, api, get } = useStudio();
  const list = useLoad(() => get<{ items: Hook[]; event_types: string[] }>('/v1/webhooks?limit=100'), [], 'webhooks');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true); setErr(null);
    try { await fn(); list.reload(); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const h = await api<Hook & { secret: string }>('POST', '/v1/webhooks', { url, events });
      setSecret(h.secret); setUrl(''); setOpen(h.id);
    });
  };
  const toggle = (ev: string) => setEvents((cur) => (ev === '*' ? ['*'] : cur.includes(ev) ? cur.filter((x) => x !== ev) : [...cur.filter((x) => x !== '*'), ev]));
  return (
    <section class="panel wide" aria-labelledby="wh-title">
      <h2 id="wh-title">{t('webhooks')}</h2>
      <Problem error={err ?? list.error} />
      {secret && <div class="once" role="status"><p>{t('secret_once')}</p><CopyField label={t('signing_secret')} value={secret} /><button type="button" class="small" onClick={() => setSecret(null)}>{t('done')}</button></div>}
      <form onSubmit={create} id="webhook-form" class="inline-form">
        <Field label={t('endpoint_url')}><input id="webhook-url" type="url" dir="ltr" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://" /></Field>
        <fieldset class="events-pick"><legend>{t('events')}</legend>
          <label><input type="checkbox" checked={events.includes('*')} onChange={() => toggle('*')} /> {t('all_events')}</label>
          {(list.data?.event_types ?? []).map((ev) => <label title={ev}><input type="checkbox" value={ev} checked={events.includes(ev)} onChange={() => toggle(ev)} /> {eventName(t, ev)}</label>)}
        </fieldset>
        <button type="submit" class="primary" disabled={busy || !events.length}>{t('add_webhook')}</button>
      </form>
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_webhooks')}</Empty> : (
        <ul class="hooks" id="webhooks">{list.data.items.map((h) => (
          <li key={h.id} class="hook">
            <div class="row-between">
              <button type="button" class="link" aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}><code dir="ltr">{h.url}</code></button>
              <span>{h.enabled ? <Badge status="enabled" /> : <Badge status="disabled" />} <small class="muted">{h.events.map((e) => (e === '*' ? t('all_events') : eventName(t, e))).join(', ')}</small></span>
              <span class="actions">
                <button type="button" class="small" disabled={busy} onClick={() => run(() => api('POST', `/v1/webhooks/${h.id}/test`))}>{t('send_test')}</button>
                <button type="button" class="small" disabled={busy} onClick={() => run(() => api('PATCH', `/v1/webhooks/${h.id}`, { enabled: !h.enabled }))}>{h.enabled ? t('disable') : t('enable')}</button>
                <button type="button" class="small danger" disabled={busy} onClick={() => { if (confirm(t('confirm_delete'))) void run(() => api('DELETE', `/v1/webhooks/${h.id}`)); }}>{t('delete')}</button>
              </span>
            </div>
            {open === h.id && <Deliveries hook={h} />}
          </li>
        ))}</ul>
      )}
    </section>
  );
}
