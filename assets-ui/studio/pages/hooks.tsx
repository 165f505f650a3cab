/** Inbound hooks: create (the address and the secret shown once), list with the secret's hint, delete. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { CopyField, Empty, Field, Loading, Problem, useLoad } from '../ui';

interface Hook { id: string; kind: string; mapping: { match: string; path: string }; address: string; secret_hint: string; created_at: string }

/** The inbound hooks panel. */
export function InboundHooks() {
  const { t, f, api, get } = useStudio();
  const list = useLoad(() => get<{ items: Hook[] }>('/v1/inbound-hooks?limit=100'), [], 'inbound-hooks');
  const [path, setPath] = useState('');
  const [match, setMatch] = useState('external_id');
  const [fresh, setFresh] = useState<(Hook & { secret: string }) | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (e: Event) => {
    e.preventDefault(); setBusy(true); setErr(null);
    try {
      const h = await api<Hook & { secret: string }>('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path, match } });
      setFresh(h); setPath(''); list.reload();
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const remove = async (id: string) => {
    if (!confirm(t('h_confirm_delete'))) return;
    try { await api('DELETE', `/v1/inbound-hooks/${id}`); if (fresh?.id === id) setFresh(null); list.reload(); } catch (x) { setErr(errorWords(x)); }
  };
  return (
    <section class="panel wide" aria-labelledby="hooks-title">
      <h2 id="hooks-title">{t('h_title')}</h2>
      <p class="muted">{t('h_intro')}</p>
      <Problem error={err ?? list.error} />
      {fresh && (
        <div class="once" role="status" id="new-hook">
          <p>{t('h_secret_once')}</p>
          <CopyField label={t('h_address')} value={fresh.address} />
          <CopyField label={t('h_secret')} value={fresh.secret} />
          <button type="button" class="small" id="hook-done" onClick={() => setFresh(null)}>{t('done')}</button>
        </div>
      )}
      <form onSubmit={create} class="inline-form" id="hook-form">
        <Field label={t('h_path')}><input id="hook-path" dir="ltr" required maxLength={200} placeholder="article.videos.*.ref" value={path} onInput={(e) => setPath(e.currentTarget.value)} /></Field>
        <Field label={t('h_match')}>
          <select id="hook-match" value={match} onChange={(e) => setMatch(e.currentTarget.value)}>
            <option value="external_id">{t('h_match_external')}</option><option value="id">{t('h_match_id')}</option>
          </select>
        </Field>
        <button type="submit" class="primary" disabled={busy}>{t('h_create')}</button>
      </form>
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('h_none')}</Empty> : (
        <table class="table" id="hooks"><thead><tr><th>{t('h_path')}</th><th>{t('h_address')}</th><th>{t('h_hint')}</th><th>{t('created')}</th><th /></tr></thead>
          <tbody>{list.data.items.map((h) => (
            <tr key={h.id}>
              <td dir="ltr"><code>{h.mapping.path}</code> <small class="muted">({h.mapping.match === 'id' ? t('h_match_id') : t('h_match_external')})</small></td>
              <td dir="ltr"><code class="c-addr">{h.address}</code></td>
              <td dir="ltr"><code>{h.secret_hint}</code></td>
              <td>{f.date(h.created_at)}</td>
              <td><button type="button" class="small danger" onClick={() => remove(h.id)}>{t('delete')}</button></td>
            </tr>
          ))}</tbody></table>
      )}
    </section>
  );
}
