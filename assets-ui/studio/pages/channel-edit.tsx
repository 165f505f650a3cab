/** The channel settings form: everything PATCH /v1/channels/{id} changes; kept as typed on an error, field errors beside their fields. */
import { useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Field, Problem } from '../ui';
import type { ChannelView } from './live';

/** The form's values as typed (text, so a half-typed number survives a failed save). */
interface Form { name: string; protocol: string; latency: string; failover: string; ladder: string; segment: string; dvr: string; rec: boolean; retention: string; timezone: string }

const formOf = (c: ChannelView): Form => ({
  name: c.name, protocol: c.ingest.protocol, latency: String(c.ingest.latency_ms), failover: String(c.ingest.failover_s),
  ladder: typeof c.ladder === 'string' ? c.ladder : 'custom', segment: String(c.segment_s), dvr: String(c.dvr_window_s),
  rec: c.recording_settings.enabled, retention: String(c.recording_settings.retention_hours), timezone: c.timezone,
});

/** Pure: the PATCH body of what changed between the channel and the form (numbers sent as numbers; text that is not one is sent as is so the API names it). */
export function patchOf(c: ChannelView, f: Form): Record<string, unknown> {
  const base = formOf(c);
  const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
  const b: Record<string, unknown> = {};
  if (f.name !== base.name) b.name = f.name;
  const ingest: Record<string, unknown> = {};
  if (f.protocol !== base.protocol) ingest.protocol = f.protocol;
  if (f.latency !== base.latency) ingest.latency_ms = num(f.latency);
  if (f.failover !== base.failover) ingest.failover_s = num(f.failover);
  if (Object.keys(ingest).length) b.ingest = ingest;
  if (f.ladder !== base.ladder && f.ladder !== 'custom') b.ladder = f.ladder;
  if (f.segment !== base.segment) b.segment_s = num(f.segment);
  if (f.dvr !== base.dvr) b.dvr_window_s = num(f.dvr);
  const rec: Record<string, unknown> = {};
  if (f.rec !== base.rec) rec.enabled = f.rec;
  if (f.retention !== base.retention) rec.retention_hours = num(f.retention);
  if (Object.keys(rec).length) b.recording = rec;
  if (f.timezone !== base.timezone) b.timezone = f.timezone;
  return b;
}

/** Pure: true when a PATCH body changes something that restarts a running channel (besides the protocol). */
export function restarts(b: Record<string, unknown>): boolean {
  const ingest = b.ingest as Record<string, unknown> | undefined;
  const rec = b.recording as Record<string, unknown> | undefined;
  return ingest?.latency_ms !== undefined || b.segment_s !== undefined || b.ladder !== undefined || rec?.enabled !== undefined;
}

/** The settings panel of a channel: a form for people with channels:write; calls onSaved with the changed channel. */
export function ChannelEdit({ channel, onSaved, onClose }: { channel: ChannelView; onSaved: (c: ChannelView) => void; onClose: () => void }) {
  const { t, api } = useStudio();
  const [f, setF] = useState<Form>(() => formOf(channel));
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => { setF((o) => ({ ...o, [k]: v })); setDone(false); };
  const save = async (e: Event) => {
    e.preventDefault();
    const body = patchOf(channel, f);
    setErr(null); setFields({}); setDone(false);
    if (!Object.keys(body).length) { setErr(t('lv_no_changes')); return; }
    // A running channel restarts its ingest for these: it drops off air for a few seconds, so it is asked first.
    const ingest = body.ingest as Record<string, unknown> | undefined;
    if (channel.started) {
      if (ingest?.protocol && !confirm(t('lv_confirm_protocol', { proto: String(ingest.protocol).toUpperCase(), old: channel.ingest.protocol.toUpperCase() }))) return;
      if (!ingest?.protocol && restarts(body) && !confirm(t('lv_confirm_restart'))) return;
    }
    setBusy(true);
    try {
      const c = await api<ChannelView>('PATCH', `/v1/channels/${encodeURIComponent(channel.id)}`, body);
      setDone(true);
      onSaved(c);
    } catch (x) {
      // The form keeps what was typed; each field error is shown beside its field, the rest above the button.
      const byField: Record<string, string> = {};
      if (x instanceof ApiError) for (const fe of x.fields) if (fe.field) byField[fe.field] = fe.detail;
      setFields(byField);
      // Field errors in words: each named by its label as the form shows it.
      const named = Object.entries(byField).map(([k, v]) => `${labelOf(k) ?? k}: ${v}`).join('; ');
      setErr(named ? `${t('lv_fix_fields')} ${named}` : errorWords(x));
    } finally { setBusy(false); }
  };
  const labelOf = (field: string): string | null => {
    const k = (Object.keys(fieldOf) as (keyof Form)[]).find((x) => fieldOf[x] === field);
    return k ? t(LABELS[k]) : null;
  };
  const fe = (...names: string[]) => {
    const m = names.map((n) => fields[n]).find(Boolean);
    return m ? <small class="field-error" role="alert" style={{ color: 'var(--bad)' }}>{m}</small> : null;
  };
  const numIn = (id: string, k: keyof Form, min: number, max: number, step = 1) => (
    <input id={id} type="number" dir="ltr" min={min} max={max} step={step} value={f[k] as string}
      aria-invalid={fields[fieldOf[k]] ? 'true' : undefined} onInput={(e) => set(k, e.currentTarget.value as Form[typeof k])} />
  );
  return (
    <section class="panel wide" id="channel-settings" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('lv_settings')}</h2>
      <form id="edit-channel" onSubmit={save} noValidate>
        <div class="grid2">
          <Field label={t('name')}><input id="edit-name" required maxLength={200} value={f.name} aria-invalid={fields.name ? 'true' : undefined} onInput={(e) => set('name', e.currentTarget.value)} />{fe('name')}</Field>
          <Field label={t('packaging')}>
            <select id="edit-ladder" value={f.ladder} onChange={(e) => set('ladder', e.currentTarget.value)}>
              <option value="passthrough">{t('passthrough')}</option><option value="abr">{t('abr')}</option>
              {f.ladder === 'custom' && <option value="custom">{t('lv_custom_ladder')}</option>}
            </select>{fe('ladder')}
          </Field>
          <Field label={t('lv_protocol')}>
            <select id="edit-protocol" value={f.protocol} onChange={(e) => set('protocol', e.currentTarget.value)}><option value="srt">SRT</option><option value="rtmp">RTMP</option></select>{fe('ingest.protocol')}
          </Field>
          <Field label={t('lv_latency')}>{numIn('edit-latency', 'latency', 20, 8000)}{fe('ingest.latency_ms', 'ingest')}</Field>
          <Field label={t('lv_failover')}>{numIn('edit-failover', 'failover', 1, 60, 0.5)}{fe('ingest.failover_s')}</Field>
          <Field label={t('lv_segment')}>{numIn('edit-segment', 'segment', 1, 10)}{fe('segment_s')}</Field>
          <Field label={t('lv_dvr')}>{numIn('edit-dvr', 'dvr', 10, 86400)}{fe('dvr_window_s')}</Field>
          <Field label={t('lv_retention')}>{numIn('edit-retention', 'retention', 1, 24 * 366)}{fe('recording.retention_hours', 'recording')}</Field>
          <Field label={t('lv_timezone')} hint={t('lv_timezone_hint')}><input id="edit-timezone" dir="ltr" maxLength={64} value={f.timezone} aria-invalid={fields.timezone ? 'true' : undefined} onInput={(e) => set('timezone', e.currentTarget.value)} />{fe('timezone')}</Field>
          <label class="check"><input id="edit-rec" type="checkbox" checked={f.rec} onChange={(e) => set('rec', e.currentTarget.checked)} /> {t('lv_rec_enabled')}</label>
        </div>
        <p class="muted">{t('lv_restart_note')}</p>
        <Problem error={err} />
        {done && <p role="status" id="edit-saved">{t('lv_saved')}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{busy ? t('lv_saving') : t('lv_save')}</button>
          <button type="button" onClick={onClose}>{t('lv_cancel')}</button>
        </div>
      </form>
    </section>
  );
}

/** The label of each form value. */
const LABELS: Record<keyof Form, Key> = {
  name: 'name', protocol: 'lv_protocol', latency: 'lv_latency', failover: 'lv_failover', ladder: 'packaging', segment: 'lv_segment',
  dvr: 'lv_dvr', rec: 'lv_rec_enabled', retention: 'lv_retention', timezone: 'lv_timezone',
};

/** The API field each form value maps to (for aria-invalid and the labels of field errors). */
const fieldOf: Record<keyof Form, string> = {
  name: 'name', protocol: 'ingest.protocol', latency: 'ingest.latency_ms', failover: 'ingest.failover_s', ladder: 'ladder', segment: 'segment_s',
  dvr: 'dvr_window_s', rec: 'recording.enabled', retention: 'recording.retention_hours', timezone: 'timezone',
};
