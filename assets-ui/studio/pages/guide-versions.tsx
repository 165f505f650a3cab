/** Published guide versions (time, author, kind, changes) and rollback to one of them, after a confirmation. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Empty, Loading, Problem, useLoad } from '../ui';

interface Version { version: number; kind: string; changes: number; created_at: string; author?: string | null }
interface ApiKey { id: string; name: string }

/** The versions panel; `tick` changes reload it; `onRolledBack` runs after a rollback. */
export function Versions({ base, tick, canPublish, onRolledBack }: { base: string; tick: number; canPublish: boolean; onRolledBack: (words: string) => void }) {
  const { t, f, get, api } = useStudio();
  const list = useLoad(async () => (await get<{ items: Version[] }>(`${base}/guide/versions`)).items, [base, tick]);
  const [err, setErr] = useState<string | null>(null);
  // Key names for versions recorded by an API key (the server records `API key <id>`); without the right to list keys, "API key".
  const keys = useLoad(async () => new Map((await get<{ items: ApiKey[] }>('/v1/api-keys?limit=100').catch(() => ({ items: [] }))).items.map((k) => [k.id, k.name])), []);
  /** Who recorded a version, in words: the person's name, or "API key: <its name>". */
  const who = (a: string | null | undefined) => {
    const m = a ? /^API key (\S+)$/.exec(a) : null;
    const name = m ? keys.data?.get(m[1]) : undefined;
    return !a ? '—' : !m ? a : name ? t('g_by_key', { name }) : t('api_key');
  };
  const kind = (k: string) => {
    const [name, v] = k.split(':');
    const w = t(`g_kind_${name}` as Key);
    return w.startsWith('g_kind_') ? k : v ? `${w} ${v}` : w;
  };
  const rollback = async (v: Version) => {
    if (!confirm(t('g_confirm_rollback', { v: v.version, when: f.date(v.created_at) }))) return;
    setErr(null);
    try {
      const r = await api<{ version: number; changes: number; restored: number }>('POST', `${base}/guide/rollback`, { version: v.version });
      onRolledBack(t('g_rolled_back', { v: r.restored, n: r.version, c: r.changes }));
      list.reload();
    } catch (e) { setErr(errorWords(e)); }
  };
  return (
    <section class="panel" aria-labelledby="versions-h">
      <h2 id="versions-h">{t('g_versions')}</h2>
      <Problem error={err ?? list.error} onRetry={list.reload} />
      {list.loading && !list.data ? <Loading /> : !list.data?.length ? <Empty>{t('g_no_versions')}</Empty> : (
        <table class="table" id="guide-versions">
          <thead><tr><th>{t('g_version')}</th><th>{t('time')}</th><th>{t('g_author')}</th><th>{t('g_kind')}</th><th>{t('g_changes')}</th><th /></tr></thead>
          <tbody>{list.data.map((v, i) => (
            <tr data-version={v.version}>
              <td>{t('g_version_n', { v: v.version })}{i === 0 && <> <span class="badge b-published">{t('g_current')}</span></>}</td>
              <td><bdi>{f.date(v.created_at)}</bdi></td>
              <td><bdi>{who(v.author)}</bdi></td>
              <td>{kind(v.kind)}</td>
              <td>{f.num(v.changes)}</td>
              <td>{canPublish && i > 0 && <button type="button" class="small" aria-label={t('g_rollback_to', { v: v.version })} onClick={() => void rollback(v)}>{t('g_rollback')}</button>}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
    </section>
  );
}
