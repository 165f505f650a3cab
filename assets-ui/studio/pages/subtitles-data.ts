/**
 * The cue editor's data: a track's cues (every page, in time order), its ETag, its revisions, and writes sent with
 * `If-Match` (docs/subtitles.md). After a write the cues and revisions are read again, so what the editor shows is
 * what the API holds; a 412 (someone else changed the track) reads them again and says so.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Cue, Revision, WriteAnswer } from './subtitles-model';

/** Most cues read for one track (1,000 a page). */
const MAX_PAGES = 100;

/** Reads every cue of a track (following `next_cursor`); resolves with them and the track's ETag. */
export async function readAllCues(get: <T>(p: string) => Promise<T>, trackPath: string): Promise<{ cues: Cue[]; etag: string }> {
  const cues: Cue[] = [];
  let cursor: string | null = null, etag = '';
  for (let i = 0; i < MAX_PAGES; i++) {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page: { items: Cue[]; next_cursor: string | null; etag?: string } = await get(`${trackPath}/cues?limit=1000${q}`);
    cues.push(...page.items);
    if (page.etag) etag = page.etag;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  cues.sort((a, b) => a.start_ms - b.start_ms || a.id - b.id);
  return { cues, etag };
}

/** State and actions of one track's cues in the editor. */
export function useTrackCues(trackPath: string | null) {
  const { api, get, t } = useStudio();
  const [cues, setCues] = useState<Cue[]>([]);
  const [revisions, setRevisions] = useState<Revision[]>([]);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  /** Counts 412s: the list redraws its text fields from the track as read again (typing there was not saved). */
  const [conflicts, setConflicts] = useState(0);
  const etag = useRef('');
  const seq = useRef(0);

  const reload = useCallback(async () => {
    if (!trackPath) { setCues([]); setRevisions([]); return; }
    const n = ++seq.current;
    setLoading(true);
    try {
      const [c, r] = await Promise.all([
        readAllCues(get, trackPath),
        get<{ items: Revision[] }>(`${trackPath}/revisions?limit=50`).then((x) => x.items, () => [] as Revision[]),
      ]);
      if (n !== seq.current) return;
      etag.current = c.etag; setCues(c.cues); setRevisions(r); setError(null);
    } catch (e) {
      if (n === seq.current) setError(errorWords(e));
    } finally { if (n === seq.current) setLoading(false); }
  }, [trackPath]);
  useEffect(() => { setCues([]); setRevisions([]); setNote(null); setError(null); void reload(); }, [reload]);

  /** Sends one write (path relative to the track) with If-Match; reads the track again after it. */
  const write = useCallback(async (method: string, rel: string, body?: unknown): Promise<WriteAnswer | null> => {
    if (!trackPath) return null;
    setBusy(true); setError(null); setNote(null);
    try {
      const r = await api<WriteAnswer>(method, `${trackPath}${rel}`, body, { headers: { 'if-match': etag.current || '*' } });
      if (r?.etag) etag.current = r.etag;
      await reload();
      return r;
    } catch (e) {
      if (e instanceof ApiError && e.status === 412) { setNote(t('se_changed_elsewhere')); await reload(); setConflicts((n) => n + 1); } else setError(errorWords(e));
      return null;
    } finally { setBusy(false); }
  }, [trackPath, reload]);

  return { cues, revisions, loading, busy, error, note, conflicts, setError, setNote, reload, write, etag: () => etag.current };
}
