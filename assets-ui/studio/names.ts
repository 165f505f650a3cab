/**
 * Words for what the appliance reports by code: event types, job types, audit actions and problem codes, from the
 * catalogues (lang/*-names.ts, lang/*-people.ts). Unknown codes fall back to a catalogue word, never the raw code alone.
 */
import { ApiError } from './api';
import type { Key, T } from './i18n';

const keyOf = (prefix: string, code: string) => `${prefix}${code.replace(/[^a-z0-9]+/gi, '_')}` as Key;
/** The translation of `key`, or null when the catalogue has no such key. */
const has = (t: T, k: Key, vars?: Record<string, string | number>): string | null => { const s = t(k, vars); return s === k ? null : s; };

/** An event type in words (`asset.ready` → "Video ready"); a family `asset.*` → "All video events". */
export function eventName(t: T, type: string): string {
  if (type.endsWith('.*')) { const fam = type.slice(0, -2); return t('ev_family', { name: has(t, keyOf('evf_', fam)) ?? fam }); }
  return has(t, keyOf('ev_', type)) ?? type;
}

/** A job type in words (`asset.process` → "Checking the source"). */
export function jobName(t: T, type: string): string { return has(t, keyOf('job_', type)) ?? t('job_other'); }

/** A short line about an event's subject: the title of the video, clip or channel it names (looked up in `titles`), its status or error. */
export function eventLine(t: T, data: unknown, titles: Map<string, string>): string {
  if (!data || typeof data !== 'object') return '';
  const d = data as Record<string, unknown>;
  const parts: string[] = [];
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const asset = str(d.asset), clip = str(d.clip), channel = str(d.channel_id) ?? str(d.channel);
  if (asset) parts.push(t('ev_of_asset', { title: titles.get(asset) ?? t('ev_unknown_asset') }));
  if (clip) parts.push(t('ev_of_clip', { title: titles.get(clip) ?? str(d.title) ?? '—' }));
  if (channel && !asset && !clip) parts.push(t('ev_of_channel', { title: titles.get(channel) ?? str(d.slug) ?? str(d.monitor_name) ?? '—' }));
  if (str(d.title) && !clip) parts.push(String(d.title));
  if (str(d.monitor_name) && !channel) parts.push(String(d.monitor_name));
  const st = str(d.status);
  if (st) { const w = has(t, keyOf('st_', st)); parts.push(t('ev_status', { s: w ?? st })); }
  if (str(d.error)) parts.push(t('ev_error', { e: String(d.error) }));
  return parts.join(' · ');
}

/** An audit entry as the audit log reads it. */
export interface AuditLine { action: string; actor: { kind: string; label: string }; target: string | null; details?: Record<string, unknown> }

/** An audit entry in words: whose role changed from what to what, which video was published, and so on. */
export function auditText(t: T, e: AuditLine, names: Map<string, string>): string {
  const d = e.details ?? {};
  const s = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  const role = (r: unknown) => (typeof r === 'string' ? has(t, keyOf('role_', r)) ?? r : '');
  const who = s(d.name) || s(d.email) || (e.target ? names.get(e.target) ?? '' : '') || (e.action === 'member.added' ? e.actor.label : '') || '—';
  const vars = { who, role: role(d.role), from: role(d.from), to: role(d.to), title: s(d.title) || '—', name: s(d.name) || '—', v: s(d.version), n: s(d.purged) };
  if (e.action === 'invitation.created') vars.who = s(d.email) || '—';
  if (e.action === 'programme.to_library') return t(d.publish ? 'au_programme_to_library_pub' : 'au_programme_to_library');
  return has(t, keyOf('au_', e.action), vars) ?? t('au_other');
}

/** Problem reasons in the person's language by stable code (server details are English); field errors stay as detail. */
export function problemText(t: T, e: unknown): string {
  if (!(e instanceof ApiError)) return t('pr_network');
  if (e.status === 0) return t('pr_network');
  switch (e.code) {
    case 'rate_limited': return e.retryAfter ? t('pr_rate_limited', { s: e.retryAfter }) : t('pr_rate_limited_soon');
    case 'validation_error':
      if (/password/i.test(e.detail) || e.fields.some((f) => f.field.includes('password'))) return t('pr_weak_password');
      if (e.fields.some((f) => /e-?mail/.test(f.detail))) return t('pr_not_an_email');
      return t('pr_validation_error');
    case 'conflict': return /last owner/.test(e.detail) ? t('pr_last_owner') : t('pr_conflict');
    default: {
      const w = e.code ? has(t, keyOf('pr_', e.code)) : null;
      if (w) return w;
      return e.status >= 500 ? t('pr_server') : e.status === 404 ? t('pr_not_found') : e.status === 403 ? t('pr_forbidden') : t('pr_conflict');
    }
  }
}
