/**
 * Publishing destinations: where the published guide goes after each publish (a signed web request, a file server, object
 * storage, or only a private address the partner reads), a test send, the pull address and the delivery log.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { CopyField, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';
import { PartnersNav, StatusWord } from './guide-sources';

type Kind = 'https' | 'sftp' | 's3' | 'pull';
interface Attempt { id: string; attempt: number; trigger: string; status: string; detail: string | null; at: string; next_at: string | null }
interface Dest { id: string; name: string; kind: Kind; format: string; channels: string[]; days_behind: number; days_ahead: number; timezone: string; enabled: boolean; pull_url: string; last_delivery: Attempt | null }
const KINDS: Kind[] = ['https', 'sftp', 's3', 'pull'];

function Deliveries({ id, tick }: { id: string; tick: number }) {
  const { t, f, get } = useStudio();
  const log = useLoad(() => get<{ items: Attempt[] }>(`/v1/guide/destinations/${id}/deliveries?limit=20`), [id, tick]);
  if (log.loading && !log.data) return <Loading />;
  if (!log.data?.items.length) return <Empty>{t('no_deliveries')}</Empty>;
  return (
    <table class="table gp-log" id={`deliveries-${id}`}><thead><tr><th>{t('when')}</th><th>{t('gp_attempt')}</th><th>{t('state')}</th><th>{t('gp_reason')}</th></tr></thead>
      <tbody>{log.data.items.map((a) => (
        <tr><td>{f.short(a.at)}</td><td>{a.attempt}</td><td><StatusWord status={a.status} /></td><td class="gp-error">{a.detail ? <bdi dir="ltr">{a.detail}</bdi> : '—'}</td></tr>
      ))}</tbody></table>
  );
}

/** The destinations page. */
export function GuideDestinations() {
  const { t, f, api, get, can } = useStudio();
  const list = useLoad(() => get<{ items: Dest[] }>('/v1/guide/destinations'), []);
  const channels = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=100'), []);
  const [kind, setKind] = useState<Kind>('https');
  const [form, setForm] = useState<Record<string, string>>({ name: '', format: 'xmltv', behind: '1', ahead: '7', tz: 'Asia/Jerusalem', retries: '3', delay: '60', method: 'POST', port: '22' });
  const [picked, setPicked] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const canManage = can('channels:write') || can('epg:publish');
  const v = (k: string) => form[k] ?? '';
  const set = (k: string) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  const input = (k: string, label: Key, o: { type?: 'text' | 'url' | 'number' | 'password'; ltr?: boolean; required?: boolean } = {}) => (
    <Field label={t(label)}><input id={`dest-${k}`} {...{ type: o.type ?? 'text' } as { type: 'text' }} dir={o.ltr ? 'ltr' : undefined} required={o.required} value={v(k)} onInput={set(k)} /></Field>
  );
  const run = async (fn: () => Promise<void>) => {
    setBusy(true); setErr(null);
    try { await fn(); list.reload(); setTick((x) => x + 1); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const add = (e: Event) => {
    e.preventDefault();
    const chs = picked.length ? picked : channels.data?.items[0] ? [channels.data.items[0].id] : [];
    if (!chs.length) { setErr(t('gp_choose_channel')); return; }
    const settings = kind === 'https' ? { https: { url: v('url').trim(), method: v('method') } }
      : kind === 'sftp' ? { sftp: { host: v('host').trim(), port: Number(v('port')) || 22, username: v('username').trim(), path: v('path').trim(), ...(v('private_key') ? { private_key: v('private_key') } : { password: v('password') }), ...(v('host_key').trim() ? { host_key_sha256: v('host_key').trim() } : {}) } }
      : kind === 's3' ? { s3: { endpoint: v('endpoint').trim(), bucket: v('bucket').trim(), key: v('key').trim(), access_key_id: v('access_key').trim(), secret_access_key: v('secret_key') } } : {};
    void run(async () => {
      const r = await api<Dest & { secret?: string }>('POST', '/v1/guide/destinations', {
        name: v('name').trim(), kind, format: v('format'), channels: chs, days_behind: Number(v('behind')), days_ahead: Number(v('ahead')), timezone: v('tz').trim(),
        retries: Number(v('retries')), retry_delay_s: Number(v('delay')), ...settings,
      });
      setSecret(r.secret ?? null); setOpen(r.id);
      setForm({ ...form, name: '', private_key: '', password: '', secret_key: '' });
    });
  };
  const test = (d: Dest) => run(async () => {
    const r = await api<{ ok: boolean; detail: string | null; bytes: number; ms: number }>('POST', `/v1/guide/destinations/${d.id}/test`);
    setNote(r.ok ? t('gp_test_ok', { bytes: f.int(r.bytes), ms: r.ms }) : t('gp_test_failed', { why: r.detail ?? '' }));
    setOpen(d.id);
  });
  const chName = (id: string) => channels.data?.items.find((c) => c.id === id)?.name ?? id;
  return (
    <>
      <PageHead title={t('gp_dest_title')}><PartnersNav /></PageHead>
      <p class="muted">{t('gp_dest_intro')}</p>
      <Problem error={err ?? list.error} />
      <p class="gnote" role="status" aria-live="polite" id="dest-live">{note}</p>
      {secret && <div class="once" role="status"><p>{t('gp_secret_once')}</p><CopyField label={t('gp_signing_secret')} value={secret} /><button type="button" class="small" onClick={() => setSecret(null)}>{t('done')}</button></div>}
      {canManage && (
        <section class="panel wide" aria-labelledby="add-dest-h">
          <h2 id="add-dest-h">{t('gp_add_dest')}</h2>
          <form class="inline-form" id="dest-form" onSubmit={add}>
            {input('name', 'gp_dest_name', { required: true })}
            <Field label={t('gp_kind')}><select id="dest-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as Kind)}>{KINDS.map((k) => <option value={k}>{t(`gp_kind_${k}` as Key)}</option>)}</select></Field>
            <Field label={t('gp_format')}><select id="dest-format" value={v('format')} onChange={set('format')}><option value="xmltv">XMLTV</option><option value="json">JSON</option></select></Field>
            <fieldset class="events-pick"><legend>{t('gp_channels')}</legend>
              {(channels.data?.items ?? []).map((c) => <label><input type="checkbox" value={c.id} checked={picked.includes(c.id)} onChange={() => setPicked((p) => (p.includes(c.id) ? p.filter((x) => x !== c.id) : [...p, c.id]))} /> {c.name}</label>)}
            </fieldset>
            {input('behind', 'gp_days_behind', { type: 'number' })}{input('ahead', 'gp_days_ahead', { type: 'number' })}{input('tz', 'gp_timezone', { ltr: true })}
            {kind !== 'pull' && <>{input('retries', 'gp_retries', { type: 'number' })}{input('delay', 'gp_retry_delay', { type: 'number' })}</>}
            {kind === 'https' && <>{input('url', 'gp_url', { type: 'url', ltr: true, required: true })}
              <Field label={t('gp_method')}><select id="dest-method" value={v('method')} onChange={set('method')}><option>POST</option><option>PUT</option></select></Field></>}
            {kind === 'sftp' && <>{input('host', 'gp_host', { ltr: true, required: true })}{input('port', 'gp_port', { type: 'number' })}{input('username', 'gp_username', { ltr: true, required: true })}
              {input('path', 'gp_path', { ltr: true, required: true })}
              <Field label={t('gp_private_key')}><textarea id="dest-private_key" dir="ltr" rows={3} value={v('private_key')} onInput={set('private_key')} /></Field>
              {input('password', 'gp_password', { type: 'password' })}{input('host_key', 'gp_host_key', { ltr: true })}</>}
            {kind === 's3' && <>{input('endpoint', 'gp_endpoint', { type: 'url', ltr: true, required: true })}{input('bucket', 'gp_bucket', { ltr: true, required: true })}{input('key', 'gp_key', { ltr: true, required: true })}
              {input('access_key', 'gp_access_key', { ltr: true, required: true })}{input('secret_key', 'gp_secret_key', { type: 'password', required: true })}</>}
            <button type="submit" class="primary" disabled={busy}>{t('gp_add_dest')}</button>
          </form>
        </section>
      )}
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('gp_no_dest')}</Empty> : (
        <ul class="hooks" id="destinations">{list.data.items.map((d) => (
          <li key={d.id} class="hook">
            <div class="row-between">
              <span><strong>{d.name}</strong> <small class="muted">{t(`gp_kind_${d.kind}` as Key)} · <bdi dir="ltr">{d.format.toUpperCase()}</bdi></small></span>
              <span><small class="muted">{d.channels.map(chName).join(', ')} · {t('gp_window', { behind: d.days_behind, ahead: d.days_ahead, tz: d.timezone })}</small></span>
              <span>{d.last_delivery ? <><StatusWord status={d.last_delivery.status} /> <small class="muted">{f.short(d.last_delivery.at)}</small></> : null}</span>
              <span class="actions">
                {canManage && d.kind !== 'pull' && <button type="button" class="small" disabled={busy} onClick={() => void test(d)}>{t('gp_test')}</button>}
                <button type="button" class="small" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>{t(open === d.id ? 'gp_hide_log' : 'gp_deliveries')}</button>
                {canManage && <button type="button" class="small danger" disabled={busy} onClick={() => { if (confirm(t('confirm_delete'))) void run(() => api('DELETE', `/v1/guide/destinations/${d.id}`)); }}>{t('delete')}</button>}
              </span>
            </div>
            {open === d.id && <><CopyField label={t('gp_pull_url')} value={d.pull_url} secret /><Deliveries id={d.id} tick={tick} /></>}
          </li>
        ))}</ul>
      )}
    </>
  );
}
