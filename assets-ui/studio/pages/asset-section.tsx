/** The section picker on the asset page: which library section the asset belongs to (PUT /v1/assets/{id}/section). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Field, Problem, useLoad } from '../ui';
import type { Section } from './sections';

/** A select of the tenant's sections (or none) that saves on change. */
export function SectionPicker({ id }: { id: string }) {
  const { t, get, api, can } = useStudio();
  const base = `/v1/assets/${encodeURIComponent(id)}/section`;
  const sections = useLoad(() => get<{ items: Section[] }>('/v1/library/sections').then((r) => r.items), [], 'sections');
  const current = useLoad(() => get<{ section_id: string | null }>(base).then((r) => r.section_id), [id]);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const pick = async (v: string) => {
    setBusy(true); setErr(null); setDone(false);
    try {
      const r = await api<{ section_id: string | null }>('PUT', base, { section_id: v || null });
      current.set(r.section_id); setDone(true);
    } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  return (
    <div id="section-picker">
      <Field label={t('sec_of_asset')}>
        <select id="asset-section" value={current.data ?? ''} disabled={busy || current.loading || !can('assets:write')} onChange={(e) => void pick(e.currentTarget.value)}>
          <option value="">{t('sec_none')}</option>
          {(sections.data ?? []).map((s) => <option value={s.id}>{s.name}</option>)}
        </select>
      </Field>
      <div class="actions">
        <a href="/studio/library?view=sections" class="link">{t('sec_manage')}</a>
        {done && <span class="ok" role="status" id="section-saved">{t('sec_saved')}</span>}
      </div>
      <Problem error={err ?? sections.error ?? current.error} />
    </div>
  );
}
