/**
 * Settings → Packaging and Lip-sync: the tenant's packaging of new encodes (GET/PATCH /v1/packaging: segment
 * duration, DASH, AES-128 by default, I-frame playlists) and the lip-sync switch, shown off and disabled with the
 * platform's rule (GET /v1/lip-sync).
 */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Field, Loading, PageHead, Problem, useLoad } from '../ui';

/** The packaging settings as the API answers them. */
interface Packaging { segment_s: number | null; dash: boolean; aes128_default: boolean; iframe_playlists: boolean; updated_at: string | null }
/** The lip-sync state as the API answers it. */
interface LipSync { enabled: boolean; platform: string; checks_creatable: boolean; rule: string }

const SEGMENTS = [1, 2, 3, 4, 5, 6, 8, 10];

/** A checkbox with its label and a hint under it. */
function Check({ id, label, hint, checked, disabled, onChange }: { id: string; label: string; hint?: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void }) {
  return (
    <div class="field">
      <label class="check"><input type="checkbox" id={id} checked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} /> {label}</label>
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

/** The packaging form. */
function PackagingPanel() {
  const { t, f, get, api, can } = useStudio();
  const cur = useLoad(() => get<Packaging>('/v1/packaging'), [], 'packaging');
  const [form, setForm] = useState<Packaging | null>(null);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => { if (cur.data && !form) setForm(cur.data); }, [cur.data]);
  const editable = can('tenant:settings');
  if (!form) return cur.error ? <Problem error={cur.error} onRetry={cur.reload} /> : <Loading />;
  const set = (p: Partial<Packaging>) => { setForm({ ...form, ...p }); setMsg(null); };
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setMsg(null);
    try {
      const body = { segment_s: form.segment_s, dash: form.dash, aes128_default: form.aes128_default, iframe_playlists: form.iframe_playlists };
      const out = await api<Packaging>('PATCH', '/v1/packaging', body);
      cur.set(out); setForm(out);
      setMsg({ ok: true, text: t('ps_saved') });
    } catch (x) { setMsg({ ok: false, text: errorWords(x) }); } finally { setBusy(false); }
  };
  const both = form.aes128_default && form.iframe_playlists;
  return (
    <form id="packaging-form" onSubmit={save}>
      <Field label={t('ps_segment')} hint={t('ps_segment_hint')}>
        <select id="pk-segment" disabled={!editable} value={form.segment_s === null ? '' : String(form.segment_s)} onChange={(e) => set({ segment_s: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}>
          <option value="">{t('ps_segment_ladder')}</option>
          {SEGMENTS.map((n) => <option value={String(n)}>{t('ps_segment_n', { n })}</option>)}
        </select>
      </Field>
      <Check id="pk-dash" label={t('ps_dash')} hint={form.aes128_default ? `${t('ps_dash_hint')} ${t('ps_aes_dash')}` : t('ps_dash_hint')} checked={form.dash} disabled={!editable} onChange={(v) => set({ dash: v })} />
      <Check id="pk-aes" label={t('ps_aes')} hint={t('ps_aes_hint')} checked={form.aes128_default} disabled={!editable || (form.iframe_playlists && !form.aes128_default)} onChange={(v) => set({ aes128_default: v })} />
      <Check id="pk-iframe" label={t('ps_iframe')} hint={t('ps_iframe_hint')} checked={form.iframe_playlists} disabled={!editable || (form.aes128_default && !form.iframe_playlists)} onChange={(v) => set({ iframe_playlists: v })} />
      {(form.aes128_default || form.iframe_playlists) && <p class={both ? 'warn' : 'muted'} id="pk-both">{t('ps_both')}</p>}
      <div class="row-between">
        <small class="muted" id="pk-updated">{cur.data?.updated_at ? t('ps_updated', { at: f.short(cur.data.updated_at) }) : t('ps_never')}</small>
        {editable ? <button type="submit" class="primary" id="pk-save" disabled={busy || both}>{t('ps_save')}</button> : <small class="muted">{t('ps_readonly')}</small>}
      </div>
      {msg && (msg.ok ? <p class="ok" role="status" id="pk-msg">{msg.text}</p> : <div class="problem" role="alert" id="pk-msg">{msg.text}</div>)}
    </form>
  );
}

/** The lip-sync switch: visible, off, disabled, with the rule. */
function LipSyncPanel() {
  const { t, get } = useStudio();
  const st = useLoad(() => get<LipSync>('/v1/lip-sync'), [], 'lip-sync');
  if (!st.data) return st.error ? <Problem error={st.error} onRetry={st.reload} /> : <Loading />;
  return (
    <div id="lip-sync">
      <div class="field">
        <label class="check"><input type="checkbox" role="switch" id="lip-switch" checked={st.data.enabled} disabled aria-describedby="lip-rule" /> {t('ps_lip_switch')} <span class="badge b-failed" id="lip-state">{t('ps_lip_off')}</span></label>
      </div>
      <p id="lip-rule"><strong>{t('ps_lip_rule')}</strong></p>
      <p class="muted">{t('ps_lip_why')}</p>
    </div>
  );
}

/** The settings page: packaging and lip-sync. */
export function SettingsPackaging() {
  const { t } = useStudio();
  return (
    <>
      <PageHead title={t('ps_title')} />
      <section class="panel" aria-labelledby="pk-h">
        <h2 id="pk-h">{t('ps_packaging')}</h2>
        <p class="muted">{t('ps_packaging_intro')}</p>
        <PackagingPanel />
      </section>
      <section class="panel" aria-labelledby="lip-h">
        <h2 id="lip-h">{t('ps_lip')}</h2>
        <LipSyncPanel />
      </section>
    </>
  );
}
