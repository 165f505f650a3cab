/** API keys: the list, a form to create one by role (the full key is shown once), revoke. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { CopyField, Empty, Field, Loading, Problem, useLoad } from '../ui';

interface Key { id: string; name: string; role: string | null; prefix: string; scopes: string[]; created_at: string; revoked_at: string | null }
/** Studio roles, lowest first. */
export const ROLES = ['viewer', 'editor', 'publisher', 'engineer', 'admin', 'owner'] as const;

/** The API keys panel. */
export function ApiKeys() {
  const { t, f, api, get } = useStudio();
  const list = useLoad(() => get<{ items: Key[] }>('/v1/api-keys?limit=100'), [], 'keys');
  const [name, setName] = useState('');
  const [role, setRole] = useState('editor');
  const [fresh, setFresh] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (e: Event) => {
    e.preventDefault(); setBusy(true); setErr(null);
    try { const k = await api<Key & { key: string }>('POST', '/v1/api-keys', { name, role }); setFresh(k.key); setName(''); list.reload(); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const revoke = async (id: string) => {
    if (!confirm(t('confirm_revoke'))) return;
    try { await api('DELETE', `/v1/api-keys/${id}`); list.reload(); } catch (x) { setErr(errorWords(x)); }
  };
  return (
    <section class="panel wide" aria-labelledby="keys-title">
      <h2 id="keys-title">{t('api_keys')}</h2>
      <Problem error={err ?? list.error} />
      {fresh && <div class="once" role="status" id="new-key"><p>{t('key_once')}</p><CopyField label={t('api_key')} value={fresh} /><button type="button" class="small" onClick={() => setFresh(null)}>{t('done')}</button></div>}
      <form onSubmit={create} class="inline-form" id="key-form">
        <Field label={t('name')}><input id="key-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
        <Field label={t('role')}><select id="key-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>{ROLES.map((r) => <option value={r}>{t(`role_${r}`)}</option>)}</select></Field>
        <button type="submit" class="primary" disabled={busy}>{t('create_key')}</button>
      </form>
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('no_keys')}</Empty> : (
        <table class="table" id="keys"><thead><tr><th>{t('name')}</th><th>{t('role')}</th><th>{t('prefix')}</th><th>{t('created')}</th><th /></tr></thead>
          <tbody>{list.data.items.map((k) => (
            <tr key={k.id} class={k.revoked_at ? 'revoked' : ''}><td>{k.name}</td><td>{k.role ? t(`role_${k.role}` as 'role_owner') : k.scopes.join(' ')}</td><td dir="ltr"><code>{k.prefix}…</code></td><td>{f.date(k.created_at)}</td>
              <td>{k.revoked_at ? t('revoked') : <button type="button" class="small danger" onClick={() => revoke(k.id)}>{t('revoke')}</button>}</td></tr>
          ))}</tbody></table>
      )}
    </section>
  );
}
