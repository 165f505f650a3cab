/** The library's sections view: list with asset counts, create, rename in place, delete (/v1/library/sections). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Empty, Field, Loading, Problem, useLoad } from '../ui';

/** A library section as the API shows it. */
export interface Section { id: string; name: string; asset_count: number; created_at: string; updated_at: string }

/** Sections: create form (kept on error), table with rename and delete; `onOpen` shows a section's assets in the library list. */
export function Sections({ onOpen }: { onOpen?: (id: string) => void }) {
  const { t, f, get, api, can, cache } = useStudio();
  const list = useLoad(() => get<{ items: Section[] }>('/v1/library/sections').then((r) => r.items), [], 'sections');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const write = can('assets:write');
  const run = async (fn: () => Promise<string>) => {
    setBusy(true); setErr(null); setNote(null);
    try { setNote(await fn()); cache.delete('sections'); list.reload(); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const create = (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) { setErr(t('sec_name_needed')); return; }
    void run(async () => { await api('POST', '/v1/library/sections', { name: n }); setName(''); return t('sec_created', { name: n }); });
  };
  const rename = (e: Event) => {
    e.preventDefault();
    const ed = editing!, n = ed.name.trim();
    if (!n) { setErr(t('sec_name_needed')); return; }
    void run(async () => { await api('PATCH', `/v1/library/sections/${encodeURIComponent(ed.id)}`, { name: n }); setEditing(null); return t('sec_renamed', { name: n }); });
  };
  const remove = (s: Section) => {
    if (!confirm(t('sec_confirm_delete', { name: s.name }))) return;
    void run(async () => { await api('DELETE', `/v1/library/sections/${encodeURIComponent(s.id)}`); return t('sec_deleted', { name: s.name }); });
  };
  const items = list.data ?? [];
  return (
    <section class="panel" id="sections">
      <h2>{t('sec_title')}</h2>
      <p class="muted">{t('sec_intro')}</p>
      {write && (
        <form class="inline-form" id="section-create" onSubmit={create}>
          <Field label={t('sec_name')}><input id="section-name" value={name} maxLength={200} dir="auto" onInput={(e) => setName(e.currentTarget.value)} /></Field>
          <button type="submit" class="primary" disabled={busy}>{t('sec_create')}</button>
        </form>
      )}
      <Problem error={err ?? list.error} onRetry={list.error && !err ? list.reload : undefined} />
      {note && <p class="ok" role="status" id="section-note">{note}</p>}
      {list.loading && !list.data ? <Loading /> : !items.length ? <Empty>{t('sec_empty')}</Empty> : (
        <table class="table" id="section-list">
          <thead><tr><th>{t('sec_name')}</th><th>{t('sec_assets')}</th><th>{t('created')}</th><th /></tr></thead>
          <tbody>{items.map((s) => (
            <tr data-id={s.id}>
              <td>{editing?.id === s.id ? (
                <form class="actions section-rename" onSubmit={rename}>
                  <input aria-label={t('sec_rename_n', { name: s.name })} value={editing.name} maxLength={200} dir="auto" onInput={(e) => setEditing({ id: s.id, name: e.currentTarget.value })}
                    onKeyDown={(e) => { if (e.key === 'Escape') setEditing(null); }} ref={(el) => el?.focus()} style={{ maxWidth: '16rem' }} />
                  <button type="submit" class="small primary" disabled={busy}>{t('save')}</button>
                  <button type="button" class="small" onClick={() => setEditing(null)}>{t('cancel')}</button>
                </form>
              ) : <bdi class="section-name">{s.name}</bdi>}</td>
              <td>{onOpen ? (
                <a class="section-open" href={`/studio/library?section=${encodeURIComponent(s.id)}`} aria-label={t('sec_open_n', { name: s.name, n: f.num(s.asset_count) })}
                  onClick={(e) => { if (e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey) { e.preventDefault(); onOpen(s.id); } }}>{f.num(s.asset_count)}</a>
              ) : f.num(s.asset_count)}</td>
              <td>{f.short(s.created_at)}</td>
              <td>{write && editing?.id !== s.id && (
                <div class="actions">
                  <button type="button" class="small section-rename-btn" aria-label={t('sec_rename_n', { name: s.name })} onClick={() => { setErr(null); setEditing({ id: s.id, name: s.name }); }}>{t('sec_rename')}</button>
                  <button type="button" class="small danger section-delete" aria-label={t('sec_delete_n', { name: s.name })} disabled={busy} onClick={() => remove(s)}>{t('delete')}</button>
                </div>
              )}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
      <p class="muted" id="section-filter-note">{t('sec_open_hint')}</p>
    </section>
  );
}
