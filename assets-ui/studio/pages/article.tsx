/**
 * The review page of an AI article draft: the programme's video and its transcript beside the draft. Every chapter,
 * quote and transcript line plays its moment; headline, standfirst, summary and chapter texts are edited in place
 * and saved as corrections (PATCH, only the fields that changed); a quote's speaker can change or the quote can go,
 * its words cannot. Approve (publisher) or reject with a reason; published and rejected articles are read-only.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { Loading, PageHead, Problem, useLoad } from '../ui';
import { errorWords } from '../api';
import { RangePlayer } from './clip-player';
import { changedFields, clock, type Artifact, type Body, type Quote, type Transcript } from './article-model';

const ROLES: Quote['role'][] = ['presenter', 'guest', 'report'];
/** The words of a body field in a correction line. */
const FIELD: Record<string, 'ar_headline' | 'ar_standfirst' | 'ar_summary' | 'ar_chapters' | 'ar_quotes' | 'ar_entities' | 'ar_tags' | undefined> = {
  headline: 'ar_headline', standfirst: 'ar_standfirst', summary: 'ar_summary', chapters: 'ar_chapters', quotes: 'ar_quotes', entities: 'ar_entities', tags: 'ar_tags',
};

/** The review page (/studio/articles/:id). */
export function ArticlePage({ id }: { id: string }) {
  const { t, f, get, api, can } = useStudio();
  const art = useLoad(() => get<Artifact>(`/v1/ai/artifacts/${encodeURIComponent(id)}`), [id]);
  const tr = useLoad(() => get<Transcript>(`/v1/ai/artifacts/${encodeURIComponent(id)}/transcript`), [id]);
  const [draft, setDraft] = useState<Body | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => { if (art.data) setDraft(structuredClone(art.data.body)); }, [art.data]);
  if (art.error && !art.data) return <Problem error={art.error} onRetry={art.reload} />;
  const a = art.data;
  if (!a || !draft) return <Loading />;
  const editable = a.status === 'draft' && can('ai:write');
  const seek = (ms: number) => {
    const v = host.current?.querySelector('video');
    if (!v) return;
    v.currentTime = Math.max(0, ms / 1000);
    void v.play().catch(() => {});
  };
  const set = <K extends keyof Body>(k: K, v: Body[K]) => setDraft({ ...draft, [k]: v });
  const act = async (fn: () => Promise<Artifact>, ok: string) => {
    setBusy(true); setErr(null); setNote(null);
    try { const x = await fn(); art.set(x); setNote(ok); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const save = () => {
    const changes = changedFields(a.body, draft);
    if (!Object.keys(changes).length) { setNote(t('ar_nothing')); return; }
    void act(() => api<Artifact>('PATCH', `/v1/ai/artifacts/${a.id}`, { body: changes }), t('ar_saved'));
  };
  const approve = () => { if (confirm(t('ar_confirm_approve'))) void act(() => api<Artifact>('POST', `/v1/ai/artifacts/${a.id}/approve`), t(`ar_st_published`)); };
  const reject = () => {
    if (!reason.trim()) { setErr(t('ar_reason_needed')); return; }
    void act(() => api<Artifact>('POST', `/v1/ai/artifacts/${a.id}/reject`, { reason: reason.trim() }), t('ar_st_rejected')).then(() => setRejecting(false));
  };
  const playBtn = (ms: number, idp?: string) => (
    <button type="button" class="link" id={idp} aria-label={t('ar_play_at', { t: clock(ms) })} onClick={() => seek(ms)}><bdi dir="ltr">{clock(ms)}</bdi></button>
  );
  return (
    <section class="ar-page">
      <PageHead title={t('ar_review', { title: a.subject.title ?? a.body.headline })}>
        <a class="button small" href="/studio/articles">{t('ar_back')}</a>
      </PageHead>
      <p class="muted"><span class={`badge b-${a.status}`} id="ar-status">{t(`ar_st_${a.status}` as 'ar_st_draft')}</span>{' '}
        {t(a.engine === 'llm' ? 'ar_eng_llm' : 'ar_eng_extractive')} · {f.short(a.created_at)}</p>
      {a.status !== 'draft' && <p class="note" id="ar-readonly">{a.status === 'rejected' && a.reason ? t('ar_rejected_why', { reason: a.reason }) : t('ar_read_only', { status: t(`ar_st_${a.status}` as 'ar_st_draft') })}</p>}
      {a.warnings.length > 0 && (
        <details class="panel" id="ar-warnings"><summary>{t('ar_warnings')} ({a.warnings.length})</summary><ul>{a.warnings.map((w) => <li key={w} dir="ltr">{w}</li>)}</ul></details>
      )}
      <Problem error={err} />
      {note && <p class="saved" role="status" id="ar-note">{note}</p>}
      <div class="grid2 ar-grid">
        <div class="panel ar-media">
          <h2>{t('ar_video')}</h2>
          <div ref={host}>{tr.data?.video.hls ? <RangePlayer src={tr.data.video.hls} id="ar-player" /> : <Loading />}</div>
          <h2>{t('ar_transcript')}</h2>
          {tr.data && !tr.data.cues.length && <p class="muted">{t('ar_no_transcript')}</p>}
          <ol class="ar-transcript" id="ar-transcript">
            {(tr.data?.cues ?? []).map((c) => (
              <li key={c.id} id={`ar-cue-${c.id}`}>{playBtn(c.start_ms)} <bdi>{c.text}</bdi></li>
            ))}
          </ol>
        </div>
        <div class="panel ar-draft" id="ar-draft">
          <h2>{t('ar_draft')}</h2>
          <label class="field"><span>{t('ar_headline')}</span>
            <input id="ar-headline" value={draft.headline} disabled={!editable} onInput={(e) => set('headline', (e.target as HTMLInputElement).value)} /></label>
          <label class="field"><span>{t('ar_standfirst')}</span>
            <textarea id="ar-standfirst" rows={2} value={draft.standfirst} disabled={!editable} onInput={(e) => set('standfirst', (e.target as HTMLTextAreaElement).value)} /></label>
          <label class="field"><span>{t('ar_summary')}</span>
            <textarea id="ar-summary" rows={4} value={draft.summary} disabled={!editable} onInput={(e) => set('summary', (e.target as HTMLTextAreaElement).value)} /></label>
          <h3>{t('ar_chapters')}</h3>
          {draft.chapters.map((c, i) => (
            <fieldset key={i} class="ar-chapter" id={`ar-chapter-${i}`}>
              <legend>{t('ar_chapter_n', { n: i + 1 })} · {playBtn(c.start_ms, `ar-chapter-play-${i}`)}–<bdi dir="ltr">{clock(c.end_ms)}</bdi></legend>
              <label class="field"><span>{t('ar_ch_title')}</span>
                <input value={c.title} disabled={!editable} onInput={(e) => set('chapters', draft.chapters.map((x, j) => (j === i ? { ...x, title: (e.target as HTMLInputElement).value } : x)))} /></label>
              <label class="field"><span>{t('ar_ch_description')}</span>
                <textarea rows={2} value={c.description} disabled={!editable} onInput={(e) => set('chapters', draft.chapters.map((x, j) => (j === i ? { ...x, description: (e.target as HTMLTextAreaElement).value } : x)))} /></label>
              {c.paragraphs.map((p, k) => <p key={k} class="ar-para"><bdi>{p}</bdi></p>)}
            </fieldset>
          ))}
          <h3>{t('ar_quotes')}</h3>
          <p class="muted">{t('ar_verbatim')}</p>
          <ul class="ar-quotes" id="ar-quotes">
            {draft.quotes.map((q, i) => (
              <li key={`${q.start_ms}-${i}`} id={`ar-quote-${i}`}>
                <blockquote><bdi>{q.text}</bdi></blockquote>
                {playBtn(q.start_ms, `ar-quote-play-${i}`)}{' '}
                <label>{t('ar_quote_role')}{' '}
                  <select value={q.role} disabled={!editable} onChange={(e) => set('quotes', draft.quotes.map((x, j) => (j === i ? { ...x, role: (e.target as HTMLSelectElement).value as Quote['role'] } : x)))}>
                    {ROLES.map((r) => <option key={r} value={r}>{t(`ar_role_${r}` as 'ar_role_guest')}</option>)}
                  </select></label>{' '}
                {editable && <button type="button" class="small danger" onClick={() => set('quotes', draft.quotes.filter((_, j) => j !== i))}>{t('ar_remove_quote')}</button>}
              </li>
            ))}
          </ul>
          {draft.entities.length > 0 && <p><strong>{t('ar_entities')}:</strong> {draft.entities.map((e) => <bdi key={e} class="chip">{e}</bdi>)}</p>}
          {draft.tags.length > 0 && <p><strong>{t('ar_tags')}:</strong> {draft.tags.map((e) => <bdi key={e} class="chip">{e}</bdi>)}</p>}
          {a.status === 'draft' && (
            <div class="actions ar-actions">
              {editable && <button type="button" id="ar-save" disabled={busy} onClick={save}>{t('ar_save')}</button>}
              {can('ai:publish') ? <button type="button" class="primary" id="ar-approve" disabled={busy} onClick={approve}>{t('ar_approve')}</button> : <span class="muted">{t('ar_cannot_publish')}</span>}
              {can('ai:write') && <button type="button" class="danger" id="ar-reject" disabled={busy} onClick={() => setRejecting(!rejecting)}>{t('ar_reject')}</button>}
            </div>
          )}
          {rejecting && a.status === 'draft' && (
            <div class="ar-reject">
              <label class="field"><span>{t('ar_reject_reason')}</span><textarea id="ar-reason" rows={2} value={reason} onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)} /></label>
              <button type="button" class="danger" id="ar-reject-send" disabled={busy} onClick={reject}>{t('ar_reject_send')}</button>
            </div>
          )}
          <h3>{t('ar_corrections')}</h3>
          {!(a.corrections ?? []).length ? <p class="muted" id="ar-no-corrections">{t('ar_no_corrections')}</p> : (
            <ul id="ar-corrections">{(a.corrections ?? []).map((c, i) => <li key={i}>{t('ar_corr_line', { field: FIELD[c.field] ? t(FIELD[c.field]!) : c.field, who: c.who, at: f.short(c.at) })}</li>)}</ul>
          )}
        </div>
      </div>
    </section>
  );
}

/** Opens an article's review page. */
export const openArticle = (id: string) => navigate(`/articles/${id}`);
