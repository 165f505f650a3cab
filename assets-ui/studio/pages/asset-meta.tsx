/** Metadata editor of an asset: description and tags (`metadata.description`, `metadata.tags`), other text values as key/value rows, other values as JSON, `ads` through the cue editor; saved with PATCH. */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { T } from '../i18n';
import { Problem } from '../ui';
import { CueEditor, MAX_CUES } from './asset-cues';

type Row = { k: string; v: string };
/** The description (shown on the watch page) and the tags of an asset, kept in its metadata. */
export interface About { description: string; tags: string[] }

/** Tags typed as one line: split at commas (Latin or Arabic) and new lines, trimmed, empty and repeated ones dropped. */
export function parseTags(s: string): string[] {
  return [...new Set(s.split(/[,،\n]/).map((x) => x.trim()).filter(Boolean))];
}
/** The parts of an asset the editor reads and writes. */
export interface MetaAsset { id: string; metadata: Record<string, unknown>; duration_s: number | null }

/** Splits stored metadata into rows (plain strings), the JSON rest, and the ads settings. */
export function splitMetadata(m: Record<string, unknown>): { rows: Row[]; json: string; disabled: boolean; cues: number[]; about: About } {
  const rows: Row[] = [], rest: Record<string, unknown> = {};
  const about: About = { description: '', tags: [] };
  for (const [k, v] of Object.entries(m ?? {})) {
    if (k === 'ads') continue;
    if (k === 'description' && typeof v === 'string') { about.description = v; continue; }
    if (k === 'tags' && Array.isArray(v) && v.every((x) => typeof x === 'string')) { about.tags = v; continue; }
    if (typeof v === 'string') rows.push({ k, v }); else rest[k] = v;
  }
  const ads = (m?.ads ?? {}) as { disabled?: unknown; cues?: unknown };
  const cues = Array.isArray(ads.cues) ? ads.cues.filter((c): c is number => typeof c === 'number') : [];
  return { rows, json: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '', disabled: ads.disabled === true, cues, about };
}

/** Builds the metadata object from the form, or the problems in words (`meta` for rows/JSON, `ads` for cues). */
export function joinMetadata(t: T, rows: Row[], json: string, disabled: boolean, cues: number[], about: About = { description: '', tags: [] }): { value?: Record<string, unknown>; meta?: string; ads?: string } {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const k = r.k.trim();
    if (!k) { if (r.v !== '') problems.push(t('ap_err_key_empty', { n: i + 1 })); return; }
    if (k === 'ads') { problems.push(t('ap_err_key_ads', { n: i + 1 })); return; }
    if (seen.has(k)) problems.push(t('ap_err_key_dup', { k }));
    seen.add(k); out[k] = r.v;
  });
  if (json.trim()) {
    let v: unknown;
    try { v = JSON.parse(json); } catch (e) { v = undefined; problems.push(t('ap_err_json', { m: (e as Error).message })); }
    if (v !== undefined) {
      if (!v || typeof v !== 'object' || Array.isArray(v)) problems.push(t('ap_err_json_obj'));
      else for (const [k, x] of Object.entries(v)) {
        if (k === 'ads') problems.push(t('ap_err_json_ads'));
        else if (seen.has(k)) problems.push(t('ap_err_key_dup', { k }));
        else { seen.add(k); out[k] = x; }
      }
    }
  }
  if (about.description.trim() && seen.has('description')) problems.push(t('ap_err_key_dup', { k: 'description' }));
  if (about.tags.length && seen.has('tags')) problems.push(t('ap_err_key_dup', { k: 'tags' }));
  const ads = cues.length > MAX_CUES ? t('ap_err_cues_max', { n: cues.length, max: MAX_CUES }) : cues.some((c) => !(c >= 0)) ? t('ap_err_cue') : undefined;
  if (problems.length || ads) return { meta: problems.join(' ') || undefined, ads };
  if (about.description.trim()) out.description = about.description.trim();
  if (about.tags.length) out.tags = about.tags;
  if (disabled || cues.length) out.ads = { ...(disabled ? { disabled: true } : {}), cues };
  return { value: out };
}

/** The metadata and ad-cue form; `cues`/`setCues` are held by the page (the bar under the player shows them). */
export function MetaEditor(p: { asset: MetaAsset; cues: number[]; setCues(c: number[]): void; playerTime(): number | null; onSeek(t: number): void; onSaved(a: unknown): void }) {
  const { t, api } = useStudio();
  const [rows, setRows] = useState<Row[]>([]);
  const [json, setJson] = useState('');
  const [disabled, setDisabled] = useState(false);
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [errs, setErrs] = useState<{ meta?: string; ads?: string; top?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const reset = (m: Record<string, unknown>) => { const s = splitMetadata(m); setDescription(s.about.description); setTags(s.about.tags.join(', ')); setRows(s.rows); setJson(s.json); setDisabled(s.disabled); p.setCues(s.cues); };
  useEffect(() => { reset(p.asset.metadata); setErrs({}); }, [p.asset.id]);
  const setRow = (i: number, part: Partial<Row>) => { setDone(false); setRows(rows.map((r, j) => (j === i ? { ...r, ...part } : r))); };
  const save = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    const j = joinMetadata(t, rows, json, disabled, p.cues, { description, tags: parseTags(tags) });
    if (!j.value) { setErrs({ meta: j.meta, ads: j.ads }); return; }
    setBusy(true); setErrs({});
    try {
      const a = await api<MetaAsset>('PATCH', `/v1/assets/${encodeURIComponent(p.asset.id)}`, { metadata: j.value });
      reset(a.metadata); setDone(true); p.onSaved(a);
    } catch (err) {
      // Field errors go next to their part of the form, in words; the form keeps what was typed.
      const fields = err instanceof ApiError ? err.fields : [];
      const words = (pre: string) => fields.filter((x) => x.field.startsWith(pre)).map((x) => `${x.field}: ${x.detail}`).join(' ') || undefined;
      const ads = words('metadata.ads'), meta = fields.filter((x) => !x.field.startsWith('metadata.ads')).map((x) => `${x.field}: ${x.detail}`).join(' ') || undefined;
      setErrs({ ads, meta, top: errorWords(err) });
    } finally { setBusy(false); }
  };
  return (
    <form id="meta-form" onSubmit={save} noValidate>
      <p class="muted">{t('ap_meta_intro')}</p>
      <Problem error={errs.top ?? null} />
      <label class="field"><span>{t('ap_description')}</span>
        <textarea id="meta-description" rows={3} dir="auto" maxLength={5000} value={description} onInput={(e) => { setDone(false); setDescription(e.currentTarget.value); }} />
        <small class="muted">{t('ap_description_hint')}</small>
      </label>
      <label class="field"><span>{t('ap_tags')}</span>
        <input id="meta-tags" dir="auto" value={tags} placeholder={t('ap_tags_placeholder')} onInput={(e) => { setDone(false); setTags(e.currentTarget.value); }} />
      </label>
      {parseTags(tags).length > 0 && <ul class="tag-chips" id="meta-tag-chips" aria-label={t('ap_tags')}>{parseTags(tags).map((x) => <li><bdi>{x}</bdi></li>)}</ul>}
      <table class="table" id="meta-rows">
        <thead><tr><th>{t('ap_key')}</th><th>{t('ap_value')}</th><th /></tr></thead>
        <tbody>
          {rows.map((r, i) => (
            <tr>
              <td><input class="meta-key" aria-label={`${t('ap_key')} ${i + 1}`} value={r.k} dir="auto" onInput={(e) => setRow(i, { k: e.currentTarget.value })} /></td>
              <td><input class="meta-value" aria-label={`${t('ap_value')} ${i + 1}`} value={r.v} dir="auto" onInput={(e) => setRow(i, { v: e.currentTarget.value })} /></td>
              <td><button type="button" class="small" aria-label={t('ap_remove_row', { n: i + 1 })} onClick={() => setRows(rows.filter((_, j) => j !== i))}>×</button></td>
            </tr>
          ))}
          {!rows.length && <tr><td colSpan={3} class="muted">{t('ap_no_rows')}</td></tr>}
        </tbody>
      </table>
      <p><button type="button" id="meta-add-row" onClick={() => setRows([...rows, { k: '', v: '' }])}>{t('ap_add_row')}</button></p>
      <label class="field"><span>{t('ap_json')}</span>
        <textarea id="meta-json" rows={4} dir="ltr" spellcheck={false} value={json} placeholder='{"rating": 5}' onInput={(e) => { setDone(false); setJson(e.currentTarget.value); }} style={{ fontFamily: 'monospace' }} />
      </label>
      {errs.meta && <p class="problem" role="alert" id="meta-error">{errs.meta}</p>}
      <CueEditor cues={p.cues} setCues={(c) => { setDone(false); p.setCues(c); }} disabled={disabled} setDisabled={(d) => { setDone(false); setDisabled(d); }}
        duration={p.asset.duration_s} playerTime={p.playerTime} onSeek={p.onSeek} error={errs.ads ?? null} />
      <div class="actions">
        <button type="submit" class="primary" id="meta-save" disabled={busy}>{t('ap_save_meta')}</button>
        {done && <span class="ok" role="status" id="meta-saved">{t('ap_meta_saved')}</span>}
      </div>
    </form>
  );
}
