/** The programme editor: a modal dialog with every field the API accepts; a failed save keeps the form and says why. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Field, Problem } from '../ui';
import { TypedField, typedOk } from './guide-fields';
import type { Prog } from './guide-model';
import type { Zone } from './guide-time';

/** Fields of a PATCH (only what changed). */
export type ProgPatch = Partial<{ title: string; start_at: string; end_at: string; description: string | null; series: string | null; episode: string | null }>;

/** Edits one programme; `onSave` rejects with the API's problem (shown, the dialog stays open). */
export function EditProgramme({ p, z, canEdit, onSave, onDelete, onClose }: {
  p: Prog; z: Zone; canEdit: boolean; onSave: (patch: ProgPatch) => Promise<void>; onDelete: () => Promise<void>; onClose: () => void;
}) {
  const { t } = useStudio();
  const ref = useRef<HTMLDialogElement>(null);
  const [f, setF] = useState({ title: p.title, start: z.localInput(p.start_ms), end: z.localInput(p.end_ms), series: p.series ?? '', episode: p.episode ?? '', description: p.description ?? '' });
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState(false); // sent with a date and time it cannot read
  useEffect(() => { const d = ref.current; if (d && !d.open) d.showModal(); }, []);
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.currentTarget as HTMLInputElement).value });
  const nullable = (v: string) => (v.trim() ? v.trim() : null);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!typedOk('datetime', f.start) || !typedOk('datetime', f.end)) { setCheck(true); setErr(t('g_fix_fields')); return; }
    setCheck(false);
    const patch: ProgPatch = {};
    if (f.title !== p.title) patch.title = f.title;
    const s = z.fromLocalInput(f.start), en = z.fromLocalInput(f.end);
    if (s !== p.start_ms) patch.start_at = new Date(s).toISOString();
    if (en !== p.end_ms) patch.end_at = new Date(en).toISOString();
    if (nullable(f.series) !== p.series) patch.series = nullable(f.series);
    if (nullable(f.episode) !== p.episode) patch.episode = nullable(f.episode);
    if (nullable(f.description) !== p.description) patch.description = nullable(f.description);
    if (!Object.keys(patch).length) { onClose(); return; }
    setBusy(true); setErr(null);
    try { await onSave(patch); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const del = async () => {
    if (!confirm(t('confirm_delete'))) return;
    setBusy(true); setErr(null);
    try { await onDelete(); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <dialog ref={ref} class="gdialog" id="programme-editor" aria-labelledby="programme-editor-title" onClose={onClose} onCancel={onClose}>
      <form onSubmit={submit}>
        <h2 id="programme-editor-title">{t('g_edit_title')}</h2>
        <Problem error={err} />
        <fieldset disabled={!canEdit || busy}>
          <Field label={t('title')}><input id="edit-title" required maxLength={500} value={f.title} onInput={set('title')} /></Field>
          <div class="row">
            <TypedField id="edit-start" kind="datetime" label={t('g_starts')} check={check} value={f.start} onValue={(v) => setF({ ...f, start: v })} />
            <TypedField id="edit-end" kind="datetime" label={t('g_ends')} check={check} value={f.end} onValue={(v) => setF({ ...f, end: v })} />
          </div>
          <div class="row">
            <Field label={t('g_series')}><input id="edit-series" maxLength={500} value={f.series} onInput={set('series')} /></Field>
            <Field label={t('g_episode')}><input id="edit-episode" maxLength={100} value={f.episode} onInput={set('episode')} /></Field>
          </div>
          <Field label={t('g_description')}><textarea id="edit-description" rows={3} maxLength={10000} value={f.description} onInput={set('description')} /></Field>
          <p class="muted small-note">{t('g_zone_note', { tz: z.tz })}</p>
        </fieldset>
        <div class="row-between">
          {canEdit ? <button type="button" class="danger" id="edit-delete" onClick={del} disabled={busy}>{t('delete')}</button> : <span />}
          <div class="actions">
            <button type="button" onClick={onClose}>{t('cancel')}</button>
            {canEdit && <button type="submit" class="primary" id="edit-save" disabled={busy}>{t('save')}</button>}
          </div>
        </div>
      </form>
    </dialog>
  );
}
