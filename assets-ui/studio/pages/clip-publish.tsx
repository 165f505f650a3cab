/**
 * Publish-to-VOD progress of one programme: the remux job (GET /v1/jobs/{id}), then the library asset's own
 * processing (GET /v1/assets/{id} and its jobs), until the catch-up item says `published` (or `failed`).
 */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';

/** The catch-up item fields this page reads. */
export interface CatchupItem {
  id: string; title: string; start_at: string; end_at: string; play_start: string; play_end: string; airing: boolean; coverage: number; status: string;
  vod: { asset_id: string | null; status: string; asset_status: string | null; error?: string } | null; playback: { hls: string };
}
interface Job { status: string; progress: number | null; error?: string | null }
type Stage = { state: 'remux' | 'library' | 'published' | 'failed'; pct: number; asset: string | null; error?: string; live?: boolean };

/** Follows a programme's publishing every 1.5 s while mounted; `onDone` hears the end (to refresh the list). */
export function VodProgress({ channelId, item, jobId, onDone }: { channelId: string; item: CatchupItem; jobId: string | null; onDone: () => void }) {
  const { t, get } = useStudio();
  const [st, setSt] = useState<Stage>({ state: 'remux', pct: 0, asset: item.vod?.asset_id ?? null });
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const win = `from=${encodeURIComponent(item.start_at)}&to=${encodeURIComponent(new Date(Math.max(Date.parse(item.end_at), Date.parse(item.start_at) + 1000)).toISOString())}`;
    const tick = async () => {
      try {
        const list = await get<{ items: CatchupItem[] }>(`/v1/channels/${channelId}/catchup?${win}`);
        const vod = list.items.find((i) => i.id === item.id)?.vod ?? null;
        let next: Stage;
        if (vod?.status === 'published') {
          // In the library: say whether the video is published (public) or a draft.
          const a = vod.asset_id ? await get<{ published: boolean }>(`/v1/assets/${encodeURIComponent(vod.asset_id)}`).catch(() => null) : null;
          next = { state: 'published', pct: 100, asset: vod.asset_id, live: a?.published };
        }
        else if (vod?.status === 'failed') next = { state: 'failed', pct: 100, asset: vod.asset_id, error: vod.error };
        else if (vod?.asset_id) {
          // The remux is done: the asset goes through the library's own processing (half to full).
          const jobs = await get<{ items: Job[] }>(`/v1/jobs?subject=${encodeURIComponent(vod.asset_id)}&limit=5`);
          const run = jobs.items.find((j) => j.status === 'running');
          next = { state: 'library', pct: 50 + Math.round((run?.progress ?? 0) / 2), asset: vod.asset_id };
        } else {
          const job = jobId ? await get<Job>(`/v1/jobs/${jobId}`) : null;
          if (job?.status === 'failed') next = { state: 'failed', pct: 100, asset: null, error: job.error ?? undefined };
          else next = { state: 'remux', pct: Math.round((job?.progress ?? 0) / 2), asset: null };
        }
        if (stop) return;
        setSt((s) => ({ ...next, pct: next.state === 'failed' ? next.pct : Math.max(s.pct, next.pct) }));
        if (next.state === 'published' || next.state === 'failed') { onDone(); return; }
      } catch (e) { if (!stop) setSt((s) => ({ ...s, error: errorWords(e) })); }
      if (!stop) timer = setTimeout(tick, 1500);
    };
    void tick();
    return () => { stop = true; if (timer) clearTimeout(timer); };
  }, [item.id, jobId]);
  const words = { remux: t('c_vod_remux'), library: t('c_vod_library'), published: t(st.live === true ? 'c_vod_published' : st.live === false ? 'c_vod_draft' : 'c_vod_ready'), failed: t('c_vod_failed') }[st.state];
  return (
    <div class="c-vod" id={`vod-${item.id}`} data-state={st.state} role="status" aria-live="polite">
      <progress max={100} value={st.pct} aria-label={t('c_publish_progress')} />
      <span>{words} <bdi dir="ltr">{st.pct}%</bdi></span>
      {st.state === 'published' && st.asset && <a href={`/studio/library/${st.asset}`} class="c-open">{t('c_open_asset')}</a>}
      {st.error && <small class="c-err">{st.error}</small>}
    </div>
  );
}
