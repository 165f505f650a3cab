/**
 * Alerts and monitors: the tenant's monitors with each check's state, create/edit/delete, snooze and lift; alert
 * destinations (e-mail, Telegram); the recent alerts. Monitors and destinations need notifications:manage (admins);
 * others see the recent alerts only.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { useEventStream } from '../events';
import type { Key } from '../i18n';
import { Badge, Empty, Loading, PageHead, Problem, useLoad } from '../ui';
import { MonitorForm, type CheckType, type Destination, type Monitor } from './alerts-form';
import { Destinations } from './alerts-destinations';
import { alertWords } from '../alert-words';

interface Alert { id: string; monitor_name: string; check: string; severity: string; state: string; summary: string; detail?: Record<string, unknown>; started_at: string; resolved_at: string | null; muted: string | null }

/** Snooze choices in minutes. */
const SNOOZES = [15, 60, 240, 1440];

/** The alerts page. */
export function AlertsPage() {
  const { t, f, can, api, get } = useStudio();
  const admin = can('notifications:manage');
  const mons = useLoad(() => (admin ? get<{ items: Monitor[] }>('/v1/monitors?limit=200') : Promise.resolve({ items: [] })), [admin], 'alerts:monitors');
  const cat = useLoad(() => (admin ? get<{ checks: CheckType[] }>('/v1/monitors/checks') : Promise.resolve({ checks: [] })), [admin], 'alerts:cat');
  const dests = useLoad(() => (admin ? get<{ items: Destination[] }>('/v1/alert-destinations?limit=200') : Promise.resolve({ items: [] })), [admin], 'alerts:dests');
  const chans = useLoad(() => get<{ items: { id: string; name: string }[] }>('/v1/channels?limit=200'), [], 'alerts:channels');
  const hist = useLoad(() => get<{ items: Alert[] }>('/v1/alerts?limit=30'), [], 'alerts:history');
  const [editing, setEditing] = useState<Monitor | 'new' | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEventStream((fr) => { if (fr.event === 'alert.firing' || fr.event === 'alert.resolved') { hist.reload(); mons.reload(); } }, 'types=alert.firing,alert.resolved');
  const chName = (id: string | null) => chans.data?.items.find((c) => c.id === id)?.name ?? id ?? '';
  const act = async (fn: () => Promise<unknown>) => { setErr(null); try { await fn(); mons.reload(); } catch (x) { setErr(errorWords(x)); } };
  const remove = (m: Monitor) => { if (confirm(t('al_confirm_delete', { name: m.name }))) void act(() => api('DELETE', `/v1/monitors/${encodeURIComponent(m.id)}`)); };
  const snooze = (m: Monitor, minutes: number) => act(() => api('POST', `/v1/monitors/${encodeURIComponent(m.id)}/snooze`, { minutes }));
  const unsnooze = (m: Monitor) => act(() => api('DELETE', `/v1/monitors/${encodeURIComponent(m.id)}/snooze`));
  const ready = mons.data && cat.data && dests.data && chans.data;
  return (
    <>
      <PageHead title={t('al_title')}>
        {admin && !editing && <button type="button" class="primary" id="new-monitor" disabled={!ready} onClick={() => setEditing('new')}>{t('al_new')}</button>}
      </PageHead>
      <Problem error={err} />
      <div class="grid2 alerts-page">
        {editing && ready && (
          <MonitorForm monitor={editing === 'new' ? null : editing} cat={cat.data!.checks} channels={chans.data!.items} dests={dests.data!.items}
            onSaved={() => { setEditing(null); mons.reload(); }} onClose={() => setEditing(null)} />
        )}
        {admin ? (
          <section class="panel wide" id="monitors-panel">
            <h2>{t('al_monitors')}</h2>
            {mons.loading && !mons.data ? <Loading /> : mons.error && !mons.data ? <Problem error={mons.error} onRetry={mons.reload} /> : !mons.data?.items.length ? <Empty>{t('al_none')}</Empty> : (
              <ul class="monitor-list" id="monitors">
                {mons.data.items.map((m) => (
                  <li key={m.id} class="monitor" data-id={m.id}>
                    <div class="monitor-head">
                      <strong class="monitor-name" dir="auto">{m.name}</strong>
                      <span class="muted">{m.target_kind === 'channel' ? `${t('al_target_channel')}: ${chName(m.target_id)}` : t('al_target_tenant')}</span>
                      {m.snooze && <span class="badge b-waiting snoozed">{t('al_snoozed_until', { t: f.short(m.snooze.until) })}</span>}
                    </div>
                    <ul class="monitor-checks">
                      {m.checks.map((c) => (
                        <li class={`check-state s-${c.state}`}>
                          <span class={`badge ${c.state === 'firing' ? 'b-firing' : c.state === 'pending' ? 'b-pending' : 'b-ready'}`}>{t(`al_state_${c.state}` as Key)}</span>{' '}
                          {t(`ck_${c.type}` as Key)} <small class="muted">· {t(`st_${c.severity}` as Key)}{c.params.during_programme ? ` · ${t('al_during_programme')}` : ''}</small>
                        </li>
                      ))}
                    </ul>
                    <div class="actions">
                      <button type="button" class="small edit-monitor" onClick={() => setEditing(m)}>{t('al_edit')}</button>
                      {m.snooze ? <button type="button" class="small unsnooze" onClick={() => unsnooze(m)}>{t('al_unsnooze')}</button> : (
                        <label class="snooze">
                          <span>{t('al_snooze_for')}</span>
                          <select class="snooze-select" value="" onChange={(e) => { const n = Number(e.currentTarget.value); if (n) void snooze(m, n); }}>
                            <option value="">—</option>
                            {SNOOZES.map((n) => <option value={n}>{n < 60 ? t('al_minutes', { n }) : t('al_hours', { n: n / 60 })}</option>)}
                          </select>
                        </label>
                      )}
                      <button type="button" class="small danger delete-monitor" onClick={() => remove(m)}>{t('al_delete')}</button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ) : <p class="muted wide">{t('al_admins_only')}</p>}
        {admin && dests.data && <Destinations items={dests.data.items} onChange={dests.reload} />}
        <section class="panel" id="alert-history-panel">
          <h2>{t('al_history')}</h2>
          {hist.loading && !hist.data ? <Loading /> : hist.error && !hist.data ? <Problem error={hist.error} onRetry={hist.reload} /> : !hist.data?.items.length ? <Empty>{t('al_no_alerts')}</Empty> : (
            <ul class="health" id="alert-history">
              {hist.data.items.map((a) => (
                <li key={a.id} class={`alert-${a.state}`}>
                  <Badge status={a.severity} /> <strong dir="auto">{a.monitor_name}</strong> · {t(`ck_${a.check}` as Key)}
                  <div dir="auto" class="alert-summary">{alertWords(t, a)}</div>
                  <small class="muted">{a.state === 'firing' ? t('al_firing_since', { t: f.short(a.started_at) }) : t('al_resolved', { t: f.short(a.resolved_at) })}
                    {a.muted ? ` · ${t(a.muted === 'snooze' ? 'al_muted_snooze' : 'al_muted_quiet')}` : ''}</small>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
