/** Library bulk actions: the bar over the list when rows are selected (publish, unpublish, move to section, trash). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Section } from './sections';

/** What one bulk action does to one asset: the API call. */
type Action = 'publish' | 'unpublish' | 'move' | 'trash';

/** The bar: how many are selected, the actions, and what the last action did (in words). */
export function BulkBar(p: { ids: string[]; sections: Section[]; clear(): void; onDone(): void }) {
  const { t, f, api, can } = useStudio();
  const [busy, setBusy] = useState(false);
  const [target, setTarget] = useState('');
  const [result, setResult] = useState<{ ok: number; failed: number; why: string } | null>(null);
  const run = async (action: Action) => {
    const n = p.ids.length;
    if (action === 'trash' && !confirm(t('lib_bulk_confirm_trash', { n }))) return;
    setBusy(true); setResult(null);
    let ok = 0, failed = 0;
    const whys = new Set<string>();
    for (const id of p.ids) {
      const base = `/v1/assets/${encodeURIComponent(id)}`;
      try {
        if (action === 'publish' || action === 'unpublish') await api('PATCH', base, { publish: action === 'publish' });
        else if (action === 'move') await api('PUT', `${base}/section`, { section_id: target || null });
        else await api('DELETE', base);
        ok++;
      } catch (e) { failed++; whys.add(errorWords(e)); }
    }
    setResult({ ok, failed, why: [...whys].join(' ') });
    setBusy(false);
    // The selection stays for the next action (publish, then move), except after the trash (those rows are gone).
    if (!failed && action === 'trash') p.clear();
    p.onDone();
  };
  return (
    <div class="bulk-bar" id="bulk-bar" role="region" aria-label={t('lib_bulk_actions')}>
      <strong id="bulk-count">{t('lib_n_selected', { n: f.int(p.ids.length) })}</strong>
      {can('assets:publish') && <>
        <button type="button" id="bulk-publish" disabled={busy || !p.ids.length} onClick={() => void run('publish')}>{t('publish')}</button>
        <button type="button" id="bulk-unpublish" disabled={busy || !p.ids.length} onClick={() => void run('unpublish')}>{t('pub_unpublish')}</button>
      </>}
      <span class="bulk-move">
        <select id="bulk-section" aria-label={t('lib_bulk_move_to')} value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
          <option value="">{t('sec_none')}</option>
          {p.sections.map((s) => <option value={s.id}>{s.name}</option>)}
        </select>
        <button type="button" id="bulk-move" disabled={busy || !p.ids.length} onClick={() => void run('move')}>{t('lib_bulk_move')}</button>
      </span>
      <button type="button" class="danger" id="bulk-trash" disabled={busy || !p.ids.length} onClick={() => void run('trash')}>{t('move_trash')}</button>
      <button type="button" class="link" id="bulk-clear" disabled={busy} onClick={p.clear}>{t('lib_bulk_clear')}</button>
      {result && <span role="status" id="bulk-result" class={result.failed ? 'problem' : 'ok'}>
        {result.ok ? t('lib_bulk_done', { n: result.ok }) : ''}{result.failed ? ` ${t('lib_bulk_failed', { n: result.failed })}: ${result.why}` : ''}
      </span>}
    </div>
  );
}
