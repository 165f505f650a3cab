/** Delivery and security: playback policies (create, attach to the tenant, delete), signing keys (rotate), revocations, player configurations with a live preview. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { loadPlayer } from '../player';
import { Badge, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';

interface Policy { id: string; name: string; require_token: boolean; referrers: string[]; countries: { allow: string[]; deny: string[] }; attached_to: { target_kind: string; target_id: string | null }[] }
interface SigningKey { id: string; active: boolean; created_at: string; retired_at: string | null }
interface Config { id: string; name: string; skin?: string; language?: string; updated_at: string }
const words = (s: string) => s.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean);

function Policies() {
  const { t, can, api, get } = useStudio();
  const list = useLoad(() => get<{ items: Policy[] }>('/v1/playback/policies?limit=100'), []);
  const [form, setForm] = useState({ name: '', require_token: false, referrers: '', deny: '' });
  const [err, setErr] = useState<string | null>(null);
  const run = async (fn: () => Promise<unknown>) => { setErr(null); try { await fn(); list.reload(); } catch (e) { setErr(errorWords(e)); } };
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await api('POST', '/v1/playback/policies', { name: form.name, require_token: form.require_token, referrers: words(form.referrers), countries: { deny: words(form.deny).map((c) => c.toUpperCase()) } });
      setForm({ name: '', require_token: false, referrers: '', deny: '' });
    });
  };
  return (
    <section class="panel wide">
      <h2>{t('policies')}</h2>
      <Problem error={err ?? list.error} />
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_policies')}</Empty> : (
        <table class="table" id="policies"><thead><tr><th>{t('name')}</th><th>{t('token_required')}</th><th>{t('referrers')}</th><th>{t('deny_countries')}</th><th>{t('attached')}</th><th /></tr></thead>
          <tbody>{list.data.items.map((p) => (
            <tr key={p.id}><td>{p.name}</td><td>{p.require_token ? '✓' : '—'}</td><td dir="ltr">{p.referrers.join(', ') || '—'}</td><td>{p.countries.deny.join(', ') || '—'}</td>
              <td>{p.attached_to.map((a) => `${a.target_kind}${a.target_id ? `:${a.target_id}` : ''}`).join(', ') || '—'}</td>
              <td class="actions">{can('delivery:write') && <>
                {!p.attached_to.some((a) => a.target_kind === 'tenant') && <button type="button" class="small" onClick={() => run(() => api('POST', `/v1/playback/policies/${p.id}/attach`, { target_kind: 'tenant' }))}>{t('attach_tenant')}</button>}
                <button type="button" class="small danger" onClick={() => { if (confirm(t('confirm_delete'))) void run(() => api('DELETE', `/v1/playback/policies/${p.id}`)); }}>{t('delete')}</button></>}</td></tr>
          ))}</tbody></table>
      )}
      {can('delivery:write') && (
        <form onSubmit={create} class="inline-form" id="policy-form">
          <Field label={t('name')}><input required maxLength={200} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} /></Field>
          <Field label={t('referrers')}><input dir="ltr" placeholder="news.example.com, www.example.com" title={t('referrers_hint')} value={form.referrers} onInput={(e) => setForm({ ...form, referrers: e.currentTarget.value })} /></Field>
          <Field label={t('deny_countries')}><input dir="ltr" placeholder="IR, KP" value={form.deny} onInput={(e) => setForm({ ...form, deny: e.currentTarget.value })} /></Field>
          <label class="check"><input type="checkbox" checked={form.require_token} onChange={(e) => setForm({ ...form, require_token: e.currentTarget.checked })} /> {t('token_required')}</label>
          <button type="submit" class="primary">{t('create')}</button>
        </form>
      )}
    </section>
  );
}

function SigningKeys() {
  const { t, f, api, get } = useStudio();
  const list = useLoad(() => get<{ items: SigningKey[] }>('/v1/playback/signing-keys'), []);
  const [err, setErr] = useState<string | null>(null);
  const rotate = async () => { if (!confirm(t('confirm_rotate_key'))) return; setErr(null); try { await api('POST', '/v1/playback/signing-keys/rotate'); list.reload(); } catch (e) { setErr(errorWords(e)); } };
  return (
    <section class="panel">
      <div class="row-between"><h2>{t('signing_keys')}</h2><button type="button" class="small" onClick={rotate}>{t('rotate')}</button></div>
      <Problem error={err ?? list.error} />
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_keys')}</Empty> : (
        <ul class="plain" id="signing-keys">{list.data.items.map((k) => (
          <li><code dir="ltr">{k.id}</code> {k.active ? <Badge status="enabled" /> : <Badge status={k.retired_at ? 'disabled' : 'previous'} />} <small class="muted">{f.date(k.created_at)}</small></li>
        ))}</ul>
      )}
    </section>
  );
}

function Revocations() {
  const { t, f, get } = useStudio();
  const list = useLoad(() => get<{ items: { sid: string; reason: string | null; revoked_at: string }[] }>('/v1/security/revocations'), []);
  return (
    <section class="panel">
      <h2>{t('revocations')}</h2>
      <Problem error={list.error} />
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_revocations')}</Empty> : (
        <ul class="plain">{list.data.items.map((r) => <li><code dir="ltr">{r.sid}</code> <span>{r.reason ?? ''}</span> <small class="muted">{f.date(r.revoked_at)}</small></li>)}</ul>
      )}
    </section>
  );
}

function PlayerConfigs() {
  const { t, me, get } = useStudio();
  const list = useLoad(() => get<{ items: Config[] }>('/v1/player-configs'), []);
  const sample = useLoad(async () => (await get<{ items: { id: string; status: string; playback?: { hls: string } }[] }>('/v1/assets?limit=50')).items.find((a) => a.playback) ?? null, []);
  const [pick, setPick] = useState<string | null>(null);
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const src = sample.data?.playback?.hls;
    if (!src || !host.current) return;
    let p: { destroy?: () => void } | null = null;
    let gone = false;
    host.current.replaceChildren();
    loadPlayer().then((r) => r.create(host.current!, { src, tenant: me?.current_tenant?.slug ?? '', ...(pick ? { config: pick } : {}), muted: '1' }))
      .then((x) => { if (gone) x?.destroy?.(); else p = x; }, () => {});
    return () => { gone = true; p?.destroy?.(); };
  }, [pick, sample.data?.id]);
  return (
    <section class="panel wide">
      <h2>{t('player_configs')}</h2>
      <Problem error={list.error} />
      <div class="grid2">
        <div>
          {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_configs')}</Empty> : (
            <ul class="plain" id="player-configs">{list.data.items.map((c) => (
              <li><button type="button" class="link" aria-pressed={pick === c.name} onClick={() => setPick(c.name)}>{c.name}</button> <small class="muted">{c.skin ?? ''} {c.language ?? ''}</small></li>
            ))}</ul>
          )}
        </div>
        <div>{sample.data ? <div ref={host} class="player-host" id="config-preview" /> : <p class="muted">{t('preview_needs_asset')}</p>}</div>
      </div>
    </section>
  );
}

/** The delivery and security page. */
export function Delivery() {
  const { t, can } = useStudio();
  return (
    <>
      <PageHead title={t('nav_delivery')} />
      <div class="grid2">
        {can('stats:read') && <Policies />}
        {can('keys:manage') && <SigningKeys />}
        {can('stats:read') && <Revocations />}
        {can('assets:read') && <PlayerConfigs />}
      </div>
    </>
  );
}
