/**
 * Asking for a draft from the studio: pick a channel, see its programmes of the last two days that have ended, and
 * draft one (POST /v1/programmes/{id}/article); the page waits for the job and opens the draft's review page. A
 * programme without subtitles or still on air is refused in words (the API's 422 / 409).
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { Problem, useLoad } from '../ui';

interface Prog { id: string; title: string; start_at: string; end_at: string }
interface Answer { job: { status: string; progress: number | null; error: string | null } | null; artifact: { id: string } | null }

/** The "draft an article" panel of the inbox. */
export function RequestDraft() {
  const { t, f, get, api } = useStudio();
  const chans = useLoad(() => get<{ items: { id: string; name: string }[] }>('/v1/channels?limit=200'), [], 'articles:channels');
  const [channel, setChannel] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const now = Date.now();
  const progs = useLoad(() => (channel
    ? get<{ items: Prog[] }>(`/v1/channels/${channel}/programmes?from=${new Date(now - 2 * 86_400_000).toISOString()}&to=${new Date(now).toISOString()}`)
    : Promise.resolve({ items: [] as Prog[] })), [channel]);
  const ended = (progs.data?.items ?? []).filter((p) => Date.parse(p.end_at) <= Date.now()).reverse();
  const draft = async (p: Prog) => {
    setBusy(p.id); setErr(null);
    try {
      await api('POST', `/v1/programmes/${p.id}/article`, {});
      for (;;) {
        const a = await get<Answer>(`/v1/programmes/${p.id}/article`);
        if (a.job?.status === 'failed') throw new Error(a.job.error ?? 'failed');
        if (a.job?.status === 'succeeded' && a.artifact) { navigate(`/articles/${a.artifact.id}`); return; }
        await new Promise((r) => setTimeout(r, 1000));
      }
    } catch (e) { setErr(errorWords(e)); } finally { setBusy(null); }
  };
  return (
    <details class="panel ar-request" id="ar-request">
      <summary>{t('ar_request')}</summary>
      <label class="field"><span>{t('channel')}</span>
        <select id="ar-channel" value={channel} onChange={(e) => setChannel((e.target as HTMLSelectElement).value)}>
          <option value="">—</option>
          {(chans.data?.items ?? []).map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select></label>
      <Problem error={err} />
      {channel && !progs.loading && !ended.length && <p class="muted">{t('ar_no_ended')}</p>}
      <ul class="ar-progs">
        {ended.map((p) => (
          <li key={p.id}><bdi>{p.title}</bdi> <span class="muted">{f.short(p.start_at)}</span>{' '}
            <button type="button" class="small" id={`ar-draft-${p.id}`} disabled={busy !== null} onClick={() => void draft(p)}>{busy === p.id ? t('ar_drafting') : t('ar_draft_it')}</button></li>
        ))}
      </ul>
    </details>
  );
}
