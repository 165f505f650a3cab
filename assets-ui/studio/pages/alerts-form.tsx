/** The monitor form of the alerts page: target, checks from the catalogue, destinations, in-app, repeats and quiet hours (POST or PATCH /v1/monitors). */
import { useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Field, Problem } from '../ui';

/** A check type as GET /v1/monitors/checks lists it. */
export interface CheckType { type: string; unit: string; default_threshold: number; default_for_s: number; default_window_s: number | null; default_severity: string; targets: string[]; creatable: boolean }
/** A monitor as the API answers it. */
export interface Monitor {
  id: string; name: string; target_kind: string; target_id: string | null; target_host: string | null;
  checks: { type: string; threshold: number; for_s: number; window_s: number | null; severity: string; params: Record<string, unknown>; state: string; since: string | null }[];
  destinations: string[]; inapp: boolean; notify_resolve: boolean; repeat_min: number;
  quiet_hours: { from: string; to: string; tz: string; allow_critical: boolean } | null; snooze: { until: string; reason: string | null } | null;
}
/** An alert destination. */
export interface Destination { id: string; kind: string; target: string | null; name: string | null; status: string }

/** One check row as typed. */
interface CheckForm { type: string; threshold: string; for_s: string; window_s: string; severity: string; during: boolean }
interface Form {
  name: string; target_kind: string; target_id: string; checks: CheckForm[]; destinations: string[]; inapp: boolean; notify_resolve: boolean; repeat: string;
  quiet: boolean; from: string; to: string; tz: string; critical: boolean;
}

const SEVERITIES = ['info', 'warning', 'critical'];
const localZone = () => { try { return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch { return 'UTC'; } };

/** A new check row of a type at its catalogue defaults. */
function checkRow(c: CheckType): CheckForm {
  return { type: c.type, threshold: String(c.default_threshold), for_s: String(c.default_for_s), window_s: c.default_window_s === null ? '' : String(c.default_window_s), severity: c.default_severity, during: false };
}

function formOf(m: Monitor | null, channels: { id: string }[], cat: CheckType[]): Form {
  if (!m) {
    const feed = cat.find((c) => c.type === 'feed_down');
    return {
      name: '', target_kind: channels.length ? 'channel' : 'tenant', target_id: channels[0]?.id ?? '', checks: feed && channels.length ? [{ ...checkRow(feed), during: true }] : [],
      destinations: [], inapp: true, notify_resolve: true, repeat: '0', quiet: false, from: '22:00', to: '07:00', tz: localZone(), critical: true,
    };
  }
  return {
    name: m.name, target_kind: m.target_kind, target_id: m.target_id ?? '',
    checks: m.checks.map((c) => ({ type: c.type, threshold: String(c.threshold), for_s: String(c.for_s), window_s: c.window_s === null ? '' : String(c.window_s), severity: c.severity, during: !!c.params.during_programme })),
    destinations: m.destinations, inapp: m.inapp, notify_resolve: m.notify_resolve, repeat: String(m.repeat_min),
    quiet: !!m.quiet_hours, from: m.quiet_hours?.from ?? '22:00', to: m.quiet_hours?.to ?? '07:00', tz: m.quiet_hours?.tz ?? localZone(), critical: m.quiet_hours?.allow_critical ?? true,
  };
}

/** Pure: the request body of the form (numbers as numbers; text that is not one is sent as is so the API names the field). */
export function bodyOf(f: Form, cat: CheckType[]): Record<string, unknown> {
  const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);
  return {
    name: f.name, target_kind: f.target_kind, ...(f.target_kind === 'channel' ? { target_id: f.target_id } : {}),
    checks: f.checks.map((c) => {
      const windowed = cat.find((x) => x.type === c.type)?.default_window_s != null;
      return { type: c.type, threshold: num(c.threshold), for_s: num(c.for_s), ...(windowed && c.window_s ? { window_s: num(c.window_s) } : {}), severity: c.severity, ...(c.type === 'feed_down' && c.during ? { params: { during_programme: true } } : {}) };
    }),
    destinations: f.destinations, inapp: f.inapp, notify_resolve: f.notify_resolve, repeat_min: num(f.repeat),
    quiet_hours: f.quiet ? { from: f.from, to: f.to, tz: f.tz, allow_critical: f.critical } : null,
  };
}

/** Create (monitor null) or edit a monitor; field errors from the API are shown beside the form. */
export function MonitorForm({ monitor, cat, channels, dests, onSaved, onClose }: {
  monitor: Monitor | null; cat: CheckType[]; channels: { id: string; name: string }[]; dests: Destination[]; onSaved: () => void; onClose: () => void;
}) {
  const { t, api } = useStudio();
  const [f, setF] = useState<Form>(() => formOf(monitor, channels, cat));
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setF((o) => ({ ...o, [k]: v }));
  const setCheck = (i: number, p: Partial<CheckForm>) => setF((o) => ({ ...o, checks: o.checks.map((c, j) => (j === i ? { ...c, ...p } : c)) }));
  const fits = cat.filter((c) => c.creatable && c.targets.includes(f.target_kind));
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null);
    try {
      await api(monitor ? 'PATCH' : 'POST', monitor ? `/v1/monitors/${encodeURIComponent(monitor.id)}` : '/v1/monitors', bodyOf(f, cat));
      onSaved();
    } catch (x) {
      setErr(x instanceof ApiError && x.fields.length ? x.fields.map((fe) => `${fe.field}: ${fe.detail}`).join('; ') : errorWords(x));
    } finally { setBusy(false); }
  };
  const check = (c: CheckForm, i: number) => {
    const ct = cat.find((x) => x.type === c.type);
    return (
      <fieldset class="check-row" key={i}>
        <legend>{t(`ck_${c.type}` as Key)}</legend>
        <div class="grid2">
          <Field label={t('al_checks')}>
            <select class="ck-type" value={c.type} onChange={(e) => { const n = cat.find((x) => x.type === e.currentTarget.value); if (n) setCheck(i, checkRow(n)); }}>
              {fits.map((x) => <option value={x.type}>{t(`ck_${x.type}` as Key)}</option>)}
            </select>
          </Field>
          <Field label={t('al_severity')}>
            <select class="ck-severity" value={c.severity} onChange={(e) => setCheck(i, { severity: e.currentTarget.value })}>
              {SEVERITIES.map((s) => <option value={s}>{t(`st_${s}` as Key)}</option>)}
            </select>
          </Field>
          {ct?.unit !== 'state' && <Field label={`${t('al_threshold')} (${ct?.unit ?? ''})`}><input class="ck-threshold" dir="ltr" inputMode="decimal" value={c.threshold} onInput={(e) => setCheck(i, { threshold: e.currentTarget.value })} /></Field>}
          <Field label={t('al_for')}><input class="ck-for" type="number" dir="ltr" min={0} max={86400} value={c.for_s} onInput={(e) => setCheck(i, { for_s: e.currentTarget.value })} /></Field>
          {ct?.default_window_s != null && <Field label={t('al_window')}><input class="ck-window" type="number" dir="ltr" min={10} max={86400} value={c.window_s} onInput={(e) => setCheck(i, { window_s: e.currentTarget.value })} /></Field>}
          {c.type === 'feed_down' && <label class="check"><input class="ck-during" type="checkbox" checked={c.during} onChange={(e) => setCheck(i, { during: e.currentTarget.checked })} /> {t('al_during_programme')}</label>}
        </div>
        {f.checks.length > 1 && <button type="button" class="small link" onClick={() => set('checks', f.checks.filter((_, j) => j !== i))}>{t('al_remove_check')}</button>}
      </fieldset>
    );
  };
  return (
    <section class="panel wide" id="monitor-form-panel">
      <h2>{monitor ? t('al_edit') : t('al_new')}</h2>
      <form id="monitor-form" onSubmit={save} noValidate>
        <div class="grid2">
          <Field label={t('al_name')}><input id="mon-name" required maxLength={200} value={f.name} onInput={(e) => set('name', e.currentTarget.value)} /></Field>
          <Field label={t('al_target')}>
            <select id="mon-target-kind" value={f.target_kind} onChange={(e) => { const k = e.currentTarget.value; setF((o) => ({ ...o, target_kind: k, checks: o.checks.filter((c) => cat.find((x) => x.type === c.type)?.targets.includes(k)) })); }}>
              <option value="channel">{t('al_target_channel')}</option><option value="tenant">{t('al_target_tenant')}</option>
            </select>
          </Field>
          {f.target_kind === 'channel' && (
            <Field label={t('al_channel')}>
              <select id="mon-channel" value={f.target_id} onChange={(e) => set('target_id', e.currentTarget.value)}>
                {channels.map((c) => <option value={c.id}>{c.name}</option>)}
              </select>
            </Field>
          )}
        </div>
        <h3>{t('al_checks')}</h3>
        {f.checks.map(check)}
        {fits.length > 0 && <button type="button" id="mon-add-check" class="small" onClick={() => set('checks', [...f.checks, checkRow(fits[0])])}>{t('al_add_check')}</button>}
        <h3>{t('al_destinations')}</h3>
        {!dests.length ? <p class="muted">{t('al_no_destinations')}</p> : (
          <div class="dest-picks">
            {dests.map((d) => (
              <label class="check"><input type="checkbox" class="mon-dest" value={d.id} checked={f.destinations.includes(d.id)}
                onChange={(e) => set('destinations', e.currentTarget.checked ? [...f.destinations, d.id] : f.destinations.filter((x) => x !== d.id))} /> <bdi dir="auto">{d.name || d.target || d.kind}</bdi></label>
            ))}
          </div>
        )}
        <div class="grid2">
          <label class="check"><input id="mon-inapp" type="checkbox" checked={f.inapp} onChange={(e) => set('inapp', e.currentTarget.checked)} /> {t('al_inapp')}</label>
          <label class="check"><input id="mon-resolve" type="checkbox" checked={f.notify_resolve} onChange={(e) => set('notify_resolve', e.currentTarget.checked)} /> {t('al_notify_resolve')}</label>
          <Field label={t('al_repeat')}><input id="mon-repeat" type="number" dir="ltr" min={0} max={10080} value={f.repeat} onInput={(e) => set('repeat', e.currentTarget.value)} /></Field>
        </div>
        <h3>{t('al_quiet')}</h3>
        <label class="check"><input id="mon-quiet" type="checkbox" checked={f.quiet} onChange={(e) => set('quiet', e.currentTarget.checked)} /> {t('al_quiet_on')}</label>
        {f.quiet && (
          <div class="grid2">
            <Field label={t('al_quiet_from')}><input id="mon-quiet-from" type="time" dir="ltr" value={f.from} onInput={(e) => set('from', e.currentTarget.value)} /></Field>
            <Field label={t('al_quiet_to')}><input id="mon-quiet-to" type="time" dir="ltr" value={f.to} onInput={(e) => set('to', e.currentTarget.value)} /></Field>
            <Field label={t('al_quiet_tz')}><input id="mon-quiet-tz" dir="ltr" maxLength={64} value={f.tz} onInput={(e) => set('tz', e.currentTarget.value)} /></Field>
            <label class="check"><input id="mon-quiet-critical" type="checkbox" checked={f.critical} onChange={(e) => set('critical', e.currentTarget.checked)} /> {t('al_quiet_critical')}</label>
          </div>
        )}
        <Problem error={err} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || !f.checks.length}>{t('al_save')}</button>
          <button type="button" onClick={onClose}>{t('al_cancel')}</button>
        </div>
      </form>
    </section>
  );
}
