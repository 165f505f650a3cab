/**
 * Review mode: the staged draft against the published guide (added, changed, removed), then publish or discard. A
 * changed programme says what changed: its times (before → after), title, series, episode, or that its description did.
 */
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import type { Change, ChangedField, Prog } from './guide-model';
import type { Zone } from './guide-time';

/** The list of staged changes with publish and discard. */
export function Review({ changes, z, busy, canPublish, canWrite, onPublish, onDiscard }: {
  changes: Change[]; z: Zone; busy: boolean; canPublish: boolean; canWrite: boolean; onPublish: () => void; onDiscard: () => void;
}) {
  const { t, lang } = useStudio();
  const dayFmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const when = (p: Prog) => <><bdi>{dayFmt.format(new Date(`${z.dayKey(p.start_ms)}T12:00:00Z`))}</bdi> <bdi dir="ltr">{z.hhmm(p.start_ms)}–{z.hhmm(p.end_ms)}</bdi></>;
  const count = (m: Change['mark']) => changes.filter((c) => c.mark === m).length;
  const arrow = lang === 'he' ? '←' : '→';
  const text = (v: string | null) => (v ? <bdi>{v}</bdi> : <span class="muted">{t('g_f_none')}</span>);
  /** One changed field in words: "Time: 18:00–19:00 → 18:30–19:30", "Title: A → B", "Description changed". */
  const field = (f: ChangedField, b: Prog, a: Prog) => {
    if (f === 'time') return <><b>{t('g_f_time')}</b> <s>{when(b)}</s> {arrow} {when(a)}</>;
    if (f === 'description') return <b>{t(!b.description ? 'g_f_description_added' : !a.description ? 'g_f_description_removed' : 'g_f_description_changed')}</b>;
    const k = f === 'title' ? 'g_f_title' : f === 'series' ? 'g_f_series' : 'g_f_episode';
    return <><b>{t(k)}</b> <s>{text(b[f])}</s> {arrow} {text(a[f])}</>;
  };
  return (
    <section class="panel greview" id="guide-review" aria-labelledby="review-h">
      <div class="row-between">
        <h2 id="review-h">{t('g_review')}</h2>
        <p class="muted">{t('g_review_counts', { a: count('added'), c: count('changed'), r: count('removed') })}</p>
      </div>
      {!changes.length ? <p class="muted">{t('g_review_none')}</p> : (
        <ul class="plain gchanges">
          {changes.map((c) => (
            <li class={`m-${c.mark}`} data-mark={c.mark}>
              <span class={`badge gm-${c.mark}`}>{t(`g_mark_${c.mark}` as Key)}</span>
              {c.mark === 'changed' ? (
                <span><strong><bdi>{c.after!.title}</bdi></strong>{!c.fields.includes('time') && <> {when(c.after!)}</>}{' '}
                  <span class="gfields">{c.fields.map((f, i) => <span data-field={f}>{i ? ' · ' : '— '}{field(f, c.before!, c.after!)}</span>)}</span></span>
              ) : c.mark === 'added' ? <span><strong><bdi>{c.after!.title}</bdi></strong> {when(c.after!)}</span>
                : <span><s><bdi>{c.before!.title}</bdi></s> {when(c.before!)}</span>}
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        {canPublish && <button type="button" class="primary" id="guide-publish" disabled={busy} onClick={onPublish}>{t('publish_guide')}</button>}
        {canWrite && <button type="button" class="danger" id="guide-discard" disabled={busy} onClick={onDiscard}>{t('g_discard')}</button>}
      </div>
    </section>
  );
}
