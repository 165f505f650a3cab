/**
 * Publishing a page with review: the draft and the live page side by side (sections marked added, changed or
 * removed), "request review" (an editor), publish now or at a time (a publisher), the pending change with cancel,
 * and the published versions with rollback.
 */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { errorWords } from '../api';
import { Problem, useLoad } from '../ui';
import { TypedField } from './guide-fields';
import { zone } from './guide-time';
import { diffSections, siteApi, type Doc, type Section, type Site, type SitePage, type Version } from './sites-model';

/** A short line for a section (its type, title and the start of its text or its items). */
function SecLine({ s, mark }: { s: Section; mark: string }) {
  const { t } = useStudio();
  const gist = s.text ?? (s.items?.length ? s.items.map((x) => x.slug).join(', ') : s.channel ?? '');
  return (
    <li class={`ws-cmp-sec m-${mark}`}>
      <span class="badge">{t(`ws_st_${s.type}`)}</span>{mark !== 'same' && <span class={`ws-mark m-${mark}`}>{t(`ws_mark_${mark as 'added'}`)}</span>}
      {s.title && <strong> <bdi>{s.title}</bdi></strong>}
      {gist && <span class="ws-gist"> <bdi>{gist.length > 140 ? `${gist.slice(0, 140)}…` : gist}</bdi></span>}
    </li>
  );
}

/** One side of the comparison. */
function Side({ id, head, doc, marks, removed }: { id: string; head: string; doc: Doc | null; marks?: string[]; removed?: Section[] }) {
  const { t } = useStudio();
  return (
    <div class="ws-cmp-side" id={id}>
      <h3>{head}</h3>
      {!doc ? <p class="muted">{t('ws_not_live')}</p> : <>
        <p class="ws-cmp-title"><bdi>{doc.title}</bdi></p>
        <ol class="ws-cmp-list">
          {doc.sections.map((s, i) => <SecLine key={s.id ?? i} s={s} mark={marks?.[i] ?? 'same'} />)}
          {(removed ?? []).map((s, i) => <SecLine key={`r${i}`} s={s} mark="removed" />)}
        </ol>
      </>}
    </div>
  );
}

/** The publish panel; `dirty`: the editor holds unsaved changes (publishing takes the saved draft). */
export function PublishPanel({ site, page, dirty, onChanged }: { site: Site; page: SitePage; dirty: boolean; onChanged: (p: SitePage) => void }) {
  const { t, f, get, api, can } = useStudio();
  const versions = useLoad(() => get<{ items: Version[] }>(siteApi(site.id, `/pages/${page.id}/versions`)), [site.id, page.id, page.live_version]);
  const z = zone(site.time_zone);
  const [at, setAt] = useState(() => z.localInput(Math.ceil((Date.now() + 3600_000) / 900_000) * 900_000));
  const [action, setAction] = useState<'publish' | 'unpublish'>('publish');
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = siteApi(site.id, `/pages/${page.id}`);
  const run = async (fn: () => Promise<SitePage>, ok: string) => {
    setBusy(true); setErr(null); setNote(null);
    try { onChanged(await fn()); setNote(ok); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const diff = diffSections(page.draft.sections, page.live?.sections ?? null);
  const same = !!page.live && JSON.stringify(page.live) === JSON.stringify(page.draft);
  const schedule = () => {
    const ms = z.fromLocalInput(at);
    if (!Number.isFinite(ms) || ms <= Date.now()) { setErr(t('ws_future_needed')); return; }
    const when = new Date(ms).toISOString();
    const act = page.live ? action : 'publish';
    void run(() => api<SitePage>('POST', `${base}/${act}`, { at: when }), t(act === 'publish' ? 'ws_scheduled_ok' : 'ws_scheduled_off', { when: f.short(when) }));
  };
  const publisher = can('sites:publish');
  return (
    <div class="panel ws-publish" id="ws-publish">
      <h2>{t('ws_publish')}</h2>
      <p id="ws-pub-state">
        <span class={`badge b-${page.status}`}>{t(`st_${page.status}`)}</span>{' '}
        {page.live_version ? t('ws_live_version', { v: page.live_version }) : t('ws_never_published')}
        {page.review && <> · <span class="badge b-waiting" id="ws-review-badge">{t('ws_in_review')}</span> <span id="ws-review-who">{page.review.requested_by_name ? t('ws_review_by', { who: page.review.requested_by_name, when: f.short(page.review.requested_at) }) : t('ws_review_since', { when: f.short(page.review.requested_at) })}</span></>}
        {page.schedule && <> · <span id="ws-sched-note">{t(page.schedule.action === 'publish' ? 'ws_sched_publish_at' : 'ws_sched_unpublish_at', { when: f.short(page.schedule.at) })}</span></>}
      </p>
      <div class="ws-cmp" id="ws-compare" aria-label={t('ws_compare')}>
        <Side id="ws-cmp-draft" head={t('ws_draft')} doc={page.draft} marks={diff.draft} removed={diff.removed} />
        <Side id="ws-cmp-live" head={t('ws_live')} doc={page.live} />
      </div>
      {same && <p class="muted">{t('ws_no_changes')}</p>}
      {dirty && <p class="warn" id="ws-dirty">{t('ws_save_first')}</p>}
      <div class="actions ws-pub-actions">
        {can('sites:write') && !page.review && <button type="button" id="ws-request-review" disabled={busy || dirty || same} onClick={() => void run(() => api<SitePage>('POST', `${base}/review`), t('ws_review_requested'))}>{t('ws_request_review')}</button>}
        {can('sites:write') && page.review && <button type="button" id="ws-withdraw-review" disabled={busy} onClick={() => void run(() => api<SitePage>('DELETE', `${base}/review`), t('ws_review_withdrawn'))}>{publisher ? t('ws_decline') : t('ws_withdraw')}</button>}
        {publisher && <button type="button" class="primary" id="ws-publish-now" disabled={busy || dirty || same} onClick={() => void run(() => api<SitePage>('POST', `${base}/publish`), t('ws_published_ok'))}>{page.review ? t('ws_approve_publish') : t('ws_publish_now')}</button>}
        {publisher && page.live && <button type="button" class="danger" id="ws-unpublish" disabled={busy} onClick={() => { if (confirm(t('ws_confirm_unpublish'))) void run(() => api<SitePage>('POST', `${base}/unpublish`), t('ws_unpublished_ok')); }}>{t('ws_unpublish')}</button>}
      </div>
      {!publisher && <p class="muted">{t('ws_publish_scope')}</p>}
      {publisher && (
        <div class="inline-form ws-schedule" id="ws-schedule">
          {page.live && (
            <label class="field ws-sched-action"><span>{t('ws_sched_action')}</span>
              <select id="ws-sched-action" value={action} onChange={(e) => setAction(e.currentTarget.value as 'publish' | 'unpublish')}>
                <option value="publish">{t('ws_act_publish')}</option><option value="unpublish">{t('ws_act_unpublish')}</option>
              </select></label>
          )}
          <TypedField id="ws-sched-at" kind="datetime" label={t('ws_schedule_at')} hint={t('g_zone', { tz: site.time_zone })} value={at} onValue={setAt} />
          <button type="button" id="ws-schedule-btn" disabled={busy || (dirty && (action === 'publish' || !page.live))} onClick={schedule}>{t('ws_schedule')}</button>
          {page.schedule && <button type="button" class="small" id="ws-sched-cancel" disabled={busy} onClick={() => void run(() => api<SitePage>('DELETE', `${base}/schedule`), t('ws_sched_cancelled'))}>{t('ws_sched_cancel')}</button>}
        </div>
      )}
      {note && <p class="saved" role="status" id="ws-pub-note">{note}</p>}
      <Problem error={err} />
      <h3>{t('ws_versions')}</h3>
      {!(versions.data?.items.length) ? <p class="muted">{t('ws_no_versions')}</p> : (
        <ul class="plain" id="ws-versions">
          {versions.data.items.map((v) => (
            <li key={v.version}>
              <span>{t('ws_version_n', { v: v.version })}</span><span class="muted">{f.short(v.published_at)}</span>
              {v.live ? <span class="badge b-published">{t('ws_current')}</span> : publisher && (
                <button type="button" class="small" disabled={busy} onClick={() => { if (confirm(t('ws_confirm_rollback', { v: v.version }))) void run(() => api<SitePage>('POST', `${base}/rollback`, { version: v.version }), t('ws_rolled_back', { v: v.version })); }}>{t('ws_rollback')}</button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
