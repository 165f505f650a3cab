/** A channel's input checks (issue 48): each check's state on the on-air signal now, loudness figures, and its thresholds (editable with channels:write). */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Loading, Problem, useLoad } from '../ui';

type CheckName = 'black' | 'freeze' | 'silence' | 'loudness';
const CHECKS: CheckName[] = ['black', 'freeze', 'silence', 'loudness'];
/** One condition now, as the channel object carries it. */
interface Cond { enabled: boolean; active: boolean; since: string | null }
/** `input_checks` of the channel object. */
export interface InputChecksNow {
  running: boolean; input: 'primary' | 'backup' | null; black: Cond; freeze: Cond; silence: Cond;
  loudness: Cond & { momentary: number | null; short_term: number | null; integrated: number | null };
}
type Settings = Record<CheckName, Record<string, number | boolean>>;

/** The threshold fields of each check: API name, label and input bounds. */
const FIELDS: Record<CheckName, { k: string; label: Key; min: number; max: number; step: number }[]> = {
  black: [{ k: 'min_duration_s', label: 'ic_min_s', min: 0.5, max: 3600, step: 0.5 }, { k: 'pixel_threshold', label: 'ic_pixel', min: 0, max: 255, step: 1 }],
  freeze: [{ k: 'min_duration_s', label: 'ic_min_s', min: 0.5, max: 3600, step: 0.5 }, { k: 'noise_db', label: 'ic_noise_db', min: -90, max: 0, step: 1 }],
  silence: [{ k: 'min_duration_s', label: 'ic_min_s', min: 0.5, max: 3600, step: 0.5 }, { k: 'noise_db', label: 'ic_silence_db', min: -90, max: 0, step: 1 }],
  loudness: [{ k: 'target_lufs', label: 'ic_target', min: -40, max: -5, step: 0.5 }, { k: 'tolerance_lu', label: 'ic_tolerance', min: 0.5, max: 20, step: 0.5 }, { k: 'min_duration_s', label: 'ic_min_s', min: 0.5, max: 3600, step: 0.5 }],
};

/** Pure: the PATCH body of what changed (typed text that is not a number is sent as is, so the API names it). */
export function checksPatch(saved: Settings, form: Record<CheckName, Record<string, string | boolean>>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of CHECKS) {
    for (const [k, v] of Object.entries(form[c])) {
      const val = typeof v === 'boolean' ? v : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
      if (val !== saved[c][k]) (out[c] ??= {})[k] = val;
    }
  }
  return out;
}

const formOf = (s: Settings) => Object.fromEntries(CHECKS.map((c) => [c, Object.fromEntries(Object.entries(s[c]).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)]))])) as Record<CheckName, Record<string, string | boolean>>;

/** The panel: a row per check (state now, thresholds), loudness figures, and a save button for people who may change the channel. */
export function InputChecksPanel({ channelId, now }: { channelId: string; now: InputChecksNow | undefined }) {
  const { t, f, can, get, api } = useStudio();
  const s = useLoad(() => get<Settings>(`/v1/channels/${encodeURIComponent(channelId)}/input-checks`), [channelId], `ic:${channelId}`);
  const [form, setForm] = useState<Record<CheckName, Record<string, string | boolean>> | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [bad, setBad] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (s.data && !form) setForm(formOf(s.data)); }, [s.data]);
  const edit = can('channels:write');
  if (s.loading && !s.data) return <section class="panel wide" id="input-checks"><h2>{t('ic_title')}</h2><Loading /></section>;
  if (!s.data || !form) return <section class="panel wide" id="input-checks"><h2>{t('ic_title')}</h2><Problem error={s.error} onRetry={s.reload} /></section>;
  const set = (c: CheckName, k: string, v: string | boolean) => { setForm((o) => ({ ...o!, [c]: { ...o![c], [k]: v } })); setDone(false); };
  const save = async (e: Event) => {
    e.preventDefault();
    const body = checksPatch(s.data!, form);
    setErr(null); setBad({}); setDone(false);
    if (!Object.keys(body).length) { setDone(true); return; }
    setBusy(true);
    try {
      const n = await api<Settings>('PATCH', `/v1/channels/${encodeURIComponent(channelId)}/input-checks`, body);
      s.set(n); setForm(formOf(n)); setDone(true);
    } catch (x) {
      const byField: Record<string, string> = {};
      if (x instanceof ApiError) for (const fe of x.fields) if (fe.field) byField[fe.field.replace(/^body\./, '').replace(/^\//, '').replace(/\//g, '.')] = fe.detail;
      setBad(byField);
      setErr(errorWords(x));
    } finally { setBusy(false); }
  };
  const state = (c: CheckName) => {
    const x = now?.[c];
    if (!s.data![c].enabled) return <span class="badge b-stopped">{t('ic_off')}</span>;
    if (!now?.running) return <span class="muted">{t('ic_waiting')}</span>;
    return x?.active
      ? <><span class="badge b-failed">{t(`ic_${c}` as Key)}</span> <small><bdi>{t('ic_active_since', { t: f.time(x.since!) })}</bdi></small></>
      : <span class="badge b-live">{t('ic_ok')}</span>;
  };
  const l = now?.loudness;
  const lufs = (v: number | null | undefined) => (v === null || v === undefined ? '—' : t('ic_lufs', { v: f.num(v) }));
  return (
    <section class="panel wide" id="input-checks" data-running={now?.running ? 'true' : 'false'}>
      <h2>{t('ic_title')}</h2>
      <p class="muted">{t('ic_intro')}</p>
      <p id="ic-input" class="muted">{now?.running && now.input ? t('ic_input', { input: t(now.input) }) : t('ic_not_running')}</p>
      <form id="input-checks-form" onSubmit={save} noValidate>
        <table class="table">
          <thead><tr><th>{t('ic_check')}</th><th>{t('ic_state')}</th><th>{t('ic_settings')}</th></tr></thead>
          <tbody>
            {CHECKS.map((c) => (
              <tr id={`ic-${c}`} data-active={now?.[c]?.active ? 'true' : 'false'} data-enabled={s.data![c].enabled ? 'true' : 'false'}>
                <th scope="row">{t(`ic_${c}` as Key)}</th>
                <td class="ic-state" role="status">{state(c)}</td>
                <td>
                  <div class="ic-fields" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.25rem 1rem', alignItems: 'flex-end' }}>
                    <label class="check"><input type="checkbox" id={`ic-${c}-enabled`} disabled={!edit} checked={form[c].enabled as boolean} onChange={(e) => set(c, 'enabled', e.currentTarget.checked)} /> {t('ic_enabled')}</label>
                    {FIELDS[c].map((x) => (
                      <label class="field" style={{ flex: '0 1 11rem' }}>
                        <span>{t(x.label)}</span>
                        <input id={`ic-${c}-${x.k}`} type="number" dir="ltr" min={x.min} max={x.max} step={x.step} disabled={!edit} value={form[c][x.k] as string}
                          aria-invalid={bad[`${c}.${x.k}`] ? 'true' : undefined} onInput={(e) => set(c, x.k, e.currentTarget.value)} />
                        {bad[`${c}.${x.k}`] && <small class="field-error" role="alert">{bad[`${c}.${x.k}`]}</small>}
                      </label>
                    ))}
                  </div>
                  {c === 'loudness' && (
                    <dl class="kv inline" id="ic-loudness-figures">
                      <dt>{t('ic_momentary')}</dt><dd><bdi>{lufs(l?.momentary)}</bdi></dd>
                      <dt>{t('ic_short')}</dt><dd id="ic-short-term"><bdi>{lufs(l?.short_term)}</bdi></dd>
                      <dt>{t('ic_integrated')}</dt><dd><bdi>{lufs(l?.integrated)}</bdi></dd>
                    </dl>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Problem error={err} />
        {done && <p role="status" id="ic-saved">{t('ic_saved')}</p>}
        {edit && <div class="actions"><button type="submit" class="primary" id="ic-save" disabled={busy}>{t('ic_save')}</button></div>}
      </form>
    </section>
  );
}
