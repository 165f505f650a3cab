/** Team and settings: members (role, remove, password reset), invitations, tenant branding, the audit log in words. */
import { useEffect, useState } from 'preact/hooks';
import { useStudio, type Brand } from '../ctx';
import { auditText, problemText, type AuditLine } from '../names';
import { CopyField, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { ROLES } from './keys';

interface Member { user_id: string; email: string; name: string; role: string; joined_at: string }
interface Invite { id: string; email: string | null; role: string; created_at: string; expires_at: string }

function Members() {
  const { t, f, me, api, get } = useStudio();
  const m = useLoad(() => get<{ items: Member[] }>('/v1/team/members'), [], 'team:members');
  const inv = useLoad(() => get<{ items: Invite[] }>('/v1/team/invitations'), [], 'team:invites');
  const [email, setEmail] = useState('');
  const [inviteRole, setRole] = useState('editor');
  const [link, setLink] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<{ text: string; link?: string } | null>(null);
  const run = async (fn: () => Promise<unknown>) => { setErr(null); setNote(null); try { await fn(); m.reload(); inv.reload(); } catch (e) { setErr(problemText(t, e)); } };
  const label = (x: Member) => x.name || x.email;
  const remove = (x: Member) => { if (confirm(t('tm_confirm_remove', { name: label(x) }))) void run(async () => { await api('DELETE', `/v1/team/members/${x.user_id}`); setNote({ text: t('tm_removed', { name: label(x) }) }); }); };
  const reset = (x: Member) => void run(async () => {
    const r = await api<{ mailed: boolean; reset_url?: string }>('POST', `/v1/team/members/${x.user_id}/password-reset`);
    setNote(r.mailed ? { text: t('tm_reset_mailed', { name: label(x) }) } : { text: t('tm_reset_link', { name: label(x) }), link: r.reset_url });
  });
  const role = (x: Member, r: string) => void run(async () => { await api('PATCH', `/v1/team/members/${x.user_id}`, { role: r }); setNote({ text: t('tm_role_saved', { name: label(x), role: t(`role_${r}` as 'role_owner') }) }); });
  const invite = (e: Event) => {
    e.preventDefault();
    void run(async () => { const r = await api<{ accept_url?: string }>('POST', '/v1/team/invitations', { email, role: inviteRole }); setLink(r.accept_url ?? null); setEmail(''); });
  };
  return (
    <section class="panel wide">
      <h2>{t('members')}</h2>
      <Problem error={err ?? m.error} />
      {m.loading && !m.data ? <Loading /> : (
        <table class="table" id="members"><thead><tr><th>{t('name')}</th><th>{t('email')}</th><th>{t('role')}</th><th>{t('joined')}</th><th /></tr></thead>
          <tbody>{m.data?.items.map((x) => {
            const self = x.user_id === me?.user.id;
            return (
              <tr key={x.user_id} data-email={x.email}><td>{x.name}{self && <small class="muted"> ({t('tm_you')})</small>}</td><td dir="ltr">{x.email}</td>
                <td><select aria-label={`${t('role')} ${x.email}`} value={x.role} disabled={self} onChange={(e) => role(x, e.currentTarget.value)}>
                  {ROLES.map((r) => <option value={r}>{t(`role_${r}`)}</option>)}</select></td>
                <td>{f.date(x.joined_at)}</td>
                <td class="row-acts">{!self && <>
                  <button type="button" class="small m-reset" aria-label={t('tm_reset_n', { name: label(x) })} onClick={() => reset(x)}>{t('tm_reset')}</button>
                  <button type="button" class="small danger m-remove" aria-label={t('tm_remove_n', { name: label(x) })} onClick={() => remove(x)}>{t('tm_remove')}</button>
                </>}</td></tr>
            );
          })}</tbody></table>
      )}
      {note && <div class="once" role="status" id="member-note"><p>{note.text}</p>{note.link && <CopyField label={t('link')} value={note.link} />}</div>}
      <h3>{t('invitations')}</h3>
      <form onSubmit={invite} class="inline-form">
        <Field label={t('email')}><input type="email" dir="ltr" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></Field>
        <Field label={t('role')}><select value={inviteRole} onChange={(e) => setRole(e.currentTarget.value)}>{ROLES.map((r) => <option value={r}>{t(`role_${r}`)}</option>)}</select></Field>
        <button type="submit" class="primary">{t('invite')}</button>
      </form>
      {link && <div class="once" role="status"><p>{t('invite_link')}</p><CopyField label={t('link')} value={link} /></div>}
      {!inv.data?.items.length ? <Empty>{t('no_invitations')}</Empty> : (
        <ul class="plain">{inv.data.items.map((i) => (
          <li key={i.id}><span dir="ltr">{i.email ?? '—'}</span> · {t(`role_${i.role}` as 'role_owner')} · <small class="muted">{t('expires')} {f.date(i.expires_at)}</small>
            <button type="button" class="small" onClick={() => run(() => api('DELETE', `/v1/team/invitations/${i.id}`))}>{t('cancel')}</button></li>
        ))}</ul>
      )}
    </section>
  );
}

function Branding() {
  const { t, refreshBrand, api, get } = useStudio();
  const s = useLoad(() => get<Brand & { time_zone: string }>('/v1/settings'), [], 'team:settings');
  const [form, setForm] = useState({ name: '', logo_url: '', primary: '#2563eb', accent: '#d97706', time_zone: 'UTC' });
  const [msg, setMsg] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => { if (s.data) setForm({ name: s.data.name, logo_url: s.data.logo_url ?? '', primary: s.data.colors.primary, accent: s.data.colors.accent, time_zone: s.data.time_zone }); }, [s.data]);
  const save = async (e: Event) => {
    e.preventDefault(); setErr(null); setMsg(null);
    try {
      await api('PATCH', '/v1/settings', { name: form.name, logo_url: form.logo_url || null, colors: { primary: form.primary, accent: form.accent }, time_zone: form.time_zone });
      setMsg(t('saved')); refreshBrand();
    } catch (x) { setErr(problemText(t, x)); }
  };
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });
  return (
    <section class="panel">
      <h2>{t('branding')}</h2>
      {s.loading && !s.data ? <Loading /> : (
        <form onSubmit={save} id="branding">
          <Field label={t('tenant_name')}><input required maxLength={200} value={form.name} onInput={set('name')} /></Field>
          <Field label={t('logo_url')} hint={t('logo_hint')}><input type="url" dir="ltr" value={form.logo_url} onInput={set('logo_url')} /></Field>
          <div class="row"><Field label={t('primary_colour')}><input type="color" value={form.primary} onInput={set('primary')} /></Field>
            <Field label={t('accent_colour')}><input type="color" value={form.accent} onInput={set('accent')} /></Field></div>
          <Field label={t('time_zone')}><input dir="ltr" value={form.time_zone} onInput={set('time_zone')} /></Field>
          <Problem error={err ?? s.error} />
          {msg && <p role="status" class="ok">{msg}</p>}
          <button type="submit" class="primary">{t('save')}</button>
        </form>
      )}
    </section>
  );
}

interface AuditEntry extends AuditLine { id: string; at: string; ip: string | null }

function AuditLog() {
  const { t, f, get } = useStudio();
  const log = useLoad(() => get<{ items: AuditEntry[] }>('/v1/audit?limit=50'), [], 'team:audit');
  // Names of the people an entry is about (older entries carry only their id).
  const members = useLoad(() => get<{ items: Member[] }>('/v1/team/members'), [], 'team:members');
  const names = new Map((members.data?.items ?? []).map((x) => [x.user_id, x.name || x.email] as [string, string]));
  return (
    <section class="panel wide">
      <div class="row-between"><h2>{t('audit_log')}</h2><button type="button" class="small" onClick={log.reload}>{t('refresh')}</button></div>
      <Problem error={log.error} />
      {log.loading && !log.data ? <Loading /> : !log.data?.items.length ? <Empty>{t('no_audit')}</Empty> : (
        <table class="table" id="audit"><thead><tr><th>{t('when')}</th><th>{t('action')}</th><th>{t('who')}</th><th>IP</th></tr></thead>
          <tbody>{log.data.items.map((e) => (
            <tr key={e.id} data-action={e.action}><td><time dateTime={e.at}>{f.short(e.at)}</time></td><td class="au-text" title={`${t('au_code')}: ${e.action}`}>{auditText(t, e, names)}</td><td dir="auto">{e.actor.label || (e.actor.kind === 'key' ? t('api_key') : t('au_system'))}</td><td dir="ltr" class="muted">{e.ip ?? '—'}</td></tr>
          ))}</tbody></table>
      )}
    </section>
  );
}

/** The team and settings page. */
export function Team() {
  const { t, can } = useStudio();
  return (
    <>
      <PageHead title={t('nav_team')} />
      <div class="grid2">
        {can('team:manage') ? <Members /> : <p class="muted">{t('no_permission')}</p>}
        {can('tenant:settings') && <Branding />}
        {can('team:manage') && <AuditLog />}
      </div>
    </>
  );
}
