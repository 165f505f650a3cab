/** Review mode: the staged draft against the published guide (added, changed, removed), then publish or discard. */
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import type { Change, Prog } from './guide-model';
import type { Zone } from './guide-time';

/** The list of staged changes with publish and discard. */
export function Review({ changes, z, busy, canPublish, canWrite, onPublish, onDiscard }: {
  changes: Change[]; z: Zone; busy: boolean; canPublish: boolean; canWrite: boolean; onPublish: () => void; onDiscard: () => void;
}) {
  const { t, lang } = useStudio();
  const dayFmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const when = (p: Prog) => <><bdi>{dayFmt.format(new Date(`${z.dayKey(p.start_ms)}T12:00:00Z`))}</bdi> <bdi dir="ltr">{z.hhmm(p.start_ms)}–{z.hhmm(p.end_ms)}</bdi></>;
  const count = (m: Change['mark']) => changes.filter((c) => c.mark === m).length;
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
                <span><strong><bdi>{c.after!.title}</bdi></strong>{c.before!.title !== c.after!.title && <> <s><bdi>{c.before!.title}</bdi></s></>}{' '}
                  <s>{when(c.before!)}</s> {lang === 'he' ? '←' : '→'} {when(c.after!)}</span>
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
