/** The Sites section's first page (/studio/sites): the tenant's public websites and a form to create one. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { errorWords } from '../api';
import { Badge, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { siteHref, type Site } from './sites-model';

/** A slug made from a name (Latin letters and digits; empty for a Hebrew-only name). */
const slugOf = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64);

/** The sites list (/studio/sites). */
export function Sites() {
  const { t, get, api, can } = useStudio();
  const list = useLoad(() => get<{ items: Site[] }>('/v1/sites'), [], 'sites:list');
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [zone, setZone] = useState('Asia/Jerusalem');
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null);
    try {
      const s = await api<Site>('POST', '/v1/sites', { name: name.trim(), slug: slug || slugOf(name), time_zone: zone });
      navigate(`/sites/${s.id}`);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const items = list.data?.items ?? [];
  return (
    <section class="ws">
      <PageHead title={t('nav_sites')} />
      <p class="muted">{t('ws_intro')}</p>
      {can('sites:admin') && (
        <form class="panel inline-form" id="ws-create" onSubmit={create}>
          <Field label={t('ws_name')}><input id="ws-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
          <Field label={t('slug')} hint={t('ws_slug_hint')}><input id="ws-slug" dir="ltr" pattern="[a-z0-9]([a-z0-9\-]*[a-z0-9])?" maxLength={64} value={slug} placeholder={slugOf(name)} onInput={(e) => setSlug(e.currentTarget.value)} /></Field>
          <Field label={t('ws_zone')}><input id="ws-zone" dir="ltr" value={zone} onInput={(e) => setZone(e.currentTarget.value)} /></Field>
          <button class="primary" type="submit" disabled={busy || !name.trim()}>{t('ws_create')}</button>
          <Problem error={err} />
        </form>
      )}
      <Problem error={list.error} onRetry={list.reload} />
      {list.loading && !list.data ? <Loading /> : !items.length ? <Empty>{t('ws_none')}</Empty> : (
        <table class="table" id="ws-list">
          <thead><tr><th>{t('ws_name')}</th><th>{t('slug')}</th><th>{t('state')}</th><th>{t('ws_domains')}</th><th>{t('ws_delivery')}</th></tr></thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.id}>
                <td><a href={siteHref(s.id)}><bdi>{s.name}</bdi></a></td>
                <td><code dir="ltr">{s.slug}</code></td>
                <td><Badge status={s.status} /></td>
                <td>{s.domains.length ? s.domains.map((d) => <bdi key={d.hostname} dir="ltr" class="ws-chip">{d.hostname}{d.verified ? ' ✓' : ''}</bdi>) : '—'}</td>
                <td><code dir="ltr">{s.delivery_url}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
