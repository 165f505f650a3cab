/**
 * My notification rules (/v1/notification-rules): the list, and one form to create or edit a rule — events (all, by
 * family, or exact types), channels (none chosen = any), lowest severity, inbox and/or e-mail, on/off — and delete.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { eventName } from '../names';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';

/** A rule as the API answers it. */
export interface Rule { id: string; person_id: string; name: string; event_types: string[]; channels: string[]; min_severity: string; deliver: string[]; enabled: boolean; created_at: string; updated_at: string }
interface Channel { id: string; name: string }
interface Draft { name: string; all: boolean; families: string[]; extra: string; channels: string[]; min_severity: string; inbox: boolean; email: boolean; enabled: boolean }

const SEVERITIES = ['info', 'warning', 'critical'];
const EMPTY: Draft = { name: '', all: false, families: [], extra: '', channels: [], min_severity: 'info', inbox: true, email: false, enabled: true };

/** A rule as the form edits it. */
function draftOf(r: Rule): Draft {
  return {
    name: r.name, all: r.event_types.includes('*'), families: r.event_types.filter((x) => x.endsWith('.*')),
    extra: r.event_types.filter((x) => x !== '*' && !x.endsWith('.*')).join(', '), channels: r.channels, min_severity: r.min_severity,
    inbox: r.deliver.includes('inbox'), email: r.deliver.includes('email'), enabled: r.enabled,
  };
}

/** The event patterns a draft names. */
function typesOf(d: Draft): string[] {
  if (d.all) return ['*'];
  const extra = d.extra.split(',').map((x) => x.trim()).filter(Boolean);
  return [...new Set([...d.families, ...extra])];
}

/** The create/edit form. */
function RuleForm({ rule, families, channels, onDone }: { rule: Rule | null; families: string[]; channels: Channel[]; onDone: (saved: boolean) => void }) {
  const { t, api } = useStudio();
  const [d, setD] = useState<Draft>(rule ? draftOf(rule) : EMPTY);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const set = (p: Partial<Draft>) => setD({ ...d, ...p });
  const toggle = (list: string[], v: string, on: boolean) => (on ? [...list, v] : list.filter((x) => x !== v));
  const submit = async (e: Event) => {
    e.preventDefault();
    const event_types = typesOf(d);
    const deliver = [...(d.inbox ? ['inbox'] : []), ...(d.email ? ['email'] : [])];
    if (!event_types.length) { setErr(t('nt_need_event')); return; }
    if (!deliver.length) { setErr(t('nt_need_deliver')); return; }
    setBusy(true); setErr(null);
    const body = { ...(d.name.trim() ? { name: d.name.trim() } : {}), event_types, channels: d.channels, min_severity: d.min_severity, deliver, enabled: d.enabled };
    try {
      if (rule) await api('PATCH', `/v1/notification-rules/${encodeURIComponent(rule.id)}`, body);
      else await api('POST', '/v1/notification-rules', body);
      onDone(true);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <form id="rule-form" onSubmit={submit}>
      <h3>{rule ? t('nt_edit_rule') : t('nt_new_rule')}</h3>
      <Field label={t('nt_name')}><input id="rule-name" maxLength={200} value={d.name} onInput={(e) => set({ name: e.currentTarget.value })} /></Field>
      <fieldset class="check-row" id="rule-events">
        <legend>{t('nt_events')}</legend>
        <label class="check"><input type="checkbox" id="rule-all" checked={d.all} onChange={(e) => set({ all: e.currentTarget.checked })} /> {t('nt_all_events')}</label>
        <div class="nt-types">{families.map((fam) => (
          <label class="check"><input type="checkbox" class="rule-family" value={fam} disabled={d.all} checked={d.all || d.families.includes(fam)} onChange={(e) => set({ families: toggle(d.families, fam, e.currentTarget.checked) })} /> {eventName(t, fam)}</label>
        ))}</div>
        <Field label={t('nt_more_types')} hint={t('nt_more_types_hint')}><input id="rule-types" dir="ltr" disabled={d.all} value={d.extra} onInput={(e) => set({ extra: e.currentTarget.value })} /></Field>
      </fieldset>
      <fieldset class="check-row" id="rule-channels">
        <legend>{t('nt_channels')}</legend>
        <small class="muted">{t('nt_any_channel')}</small>
        <div class="nt-types">{channels.map((c) => (
          <label class="check"><input type="checkbox" class="rule-channel" value={c.id} checked={d.channels.includes(c.id)} onChange={(e) => set({ channels: toggle(d.channels, c.id, e.currentTarget.checked) })} /> <bdi>{c.name}</bdi></label>
        ))}</div>
      </fieldset>
      <Field label={t('nt_severity')}>
        <select id="rule-severity" value={d.min_severity} onChange={(e) => set({ min_severity: e.currentTarget.value })}>
          {SEVERITIES.map((s) => <option value={s}>{t(`nt_sev_${s}` as Key)}</option>)}
        </select>
      </Field>
      <fieldset class="check-row" id="rule-deliver">
        <legend>{t('nt_deliver')}</legend>
        <div class="nt-types">
          <label class="check"><input type="checkbox" id="rule-inbox" checked={d.inbox} onChange={(e) => set({ inbox: e.currentTarget.checked })} /> {t('nt_to_inbox')}</label>
          <label class="check"><input type="checkbox" id="rule-email" checked={d.email} onChange={(e) => set({ email: e.currentTarget.checked })} /> {t('nt_to_email')}</label>
        </div>
      </fieldset>
      <label class="check"><input type="checkbox" id="rule-enabled" checked={d.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} /> {t('nt_enabled')}</label>
      {err && <div class="problem" role="alert" id="rule-error">{err}</div>}
      <div class="c-tools">
        <button type="submit" class="primary" id="rule-save" disabled={busy}>{rule ? t('nt_save') : t('nt_create')}</button>
        <button type="button" id="rule-cancel" onClick={() => onDone(false)}>{t('nt_cancel')}</button>
      </div>
    </form>
  );
}

/** The rules page. */
export function NotificationRules() {
  const { t, get, api } = useStudio();
  const rules = useLoad(() => get<{ items: Rule[] }>('/v1/notification-rules'), [], 'notification-rules');
  const types = useLoad(() => get<{ event_types: string[] }>('/v1/events?limit=1'), [], 'event-types');
  const chans = useLoad(() => get<{ items: Channel[] }>('/v1/channels?limit=200'), [], 'channels-names');
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const families = [...new Set((types.data?.event_types ?? []).filter((x) => x.includes('.')).map((x) => `${x.split('.')[0]}.*`))];
  const channels = chans.data?.items ?? [];
  const chanName = (id: string) => channels.find((c) => c.id === id)?.name ?? id;
  const remove = async (r: Rule) => {
    if (!confirm(t('nt_delete_q', { name: r.name }))) return;
    setErr(null);
    try { await api('DELETE', `/v1/notification-rules/${encodeURIComponent(r.id)}`); rules.reload(); } catch (x) { setErr(errorWords(x)); }
  };
  return (
    <>
      <PageHead title={t('nt_rules')}>
        <a href="/studio/notifications" id="inbox-link">{t('nt_inbox_link')}</a>
        {editing === null && <button type="button" class="primary" id="rule-new" onClick={() => setEditing('new')}>{t('nt_new_rule')}</button>}
      </PageHead>
      <p class="muted">{t('nt_rules_intro')}</p>
      <Problem error={err ?? rules.error} />
      {editing !== null && (
        <section class="panel" aria-labelledby="rule-form-h">
          <span id="rule-form-h" hidden>{editing === 'new' ? t('nt_new_rule') : t('nt_edit_rule')}</span>
          <RuleForm key={editing === 'new' ? 'new' : editing.id} rule={editing === 'new' ? null : editing} families={families} channels={channels} onDone={(saved) => { setEditing(null); if (saved) rules.reload(); }} />
        </section>
      )}
      {rules.loading && !rules.data ? <Loading /> : !rules.data?.items.length ? <Empty>{t('nt_no_rules')}</Empty> : (
        <div class="panel wide">
          <table class="table" id="rules">
            <thead><tr><th>{t('nt_col_name')}</th><th>{t('nt_col_events')}</th><th>{t('nt_col_channels')}</th><th>{t('nt_col_sev')}</th><th>{t('nt_col_deliver')}</th><th>{t('nt_col_state')}</th><th /></tr></thead>
            <tbody>{rules.data.items.map((r) => (
              <tr key={r.id} data-id={r.id}>
                <td class="nt-wrap"><bdi>{r.name}</bdi></td>
                <td class="nt-wrap">{r.event_types.map((x) => (x === '*' ? t('nt_all_events') : eventName(t, x))).join(', ')}</td>
                <td class="nt-wrap">{r.channels.length ? r.channels.map(chanName).join(', ') : t('nt_any')}</td>
                <td>{t(`nt_sev_${r.min_severity}` as Key)}</td>
                <td>{r.deliver.map((x) => t(x === 'email' ? 'nt_to_email' : 'nt_to_inbox')).join(', ')}</td>
                <td><span class={`badge ${r.enabled ? 'b-ready' : ''}`}>{r.enabled ? t('nt_on') : t('nt_off')}</span></td>
                <td class="c-tools">
                  <button type="button" class="small rule-edit" onClick={() => setEditing(r)}>{t('nt_edit')}</button>
                  <button type="button" class="small danger rule-delete" onClick={() => remove(r)}>{t('nt_delete')}</button>
                </td>
              </tr>
            ))}</tbody>
          </table>
        </div>
      )}
    </>
  );
}
