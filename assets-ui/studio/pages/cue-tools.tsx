/** The cue editor's tools: shift all / following cues, find and replace with glossary suggestions, and the revisions with undo. */
import { useMemo, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { glossaryHints, matching, tc, type Counts, type Cue, type GlossaryEntry, type Revision, type WriteAnswer } from './subtitles-model';

type Write = (method: string, rel: string, body?: unknown) => Promise<WriteAnswer | null>;

/** Shift all cues, or the selected one and every later one, by a number of milliseconds (±). */
export function ShiftTool(p: { selected: number | null; busy: boolean; write: Write }) {
  const { t } = useStudio();
  const [ms, setMs] = useState('');
  const [scope, setScope] = useState<'all' | 'following'>('all');
  const [err, setErr] = useState<string | null>(null);
  const n = Number(ms.replace(/\u2212/g, '-'));
  const ok = ms.trim() !== '' && Number.isInteger(n) && n !== 0;
  return (
    <form id="shift-form" class="se-tool" onSubmit={async (e) => {
      e.preventDefault();
      if (!ok) { setErr(t('se_shift_err')); return; }
      if (scope === 'following' && p.selected === null) { setErr(t('se_pick_cue')); return; }
      setErr(null);
      const r = await p.write('POST', '/cues/shift', scope === 'all' ? { by_ms: n, scope } : { by_ms: n, scope, from_id: p.selected });
      if (r) setMs('');
    }}>
      <h3>{t('se_shift')}</h3>
      <div class="se-inline">
        <input id="shift-ms" dir="ltr" inputMode="numeric" aria-label={t('se_shift_ms')} placeholder={t('se_shift_ms')} value={ms} onInput={(e) => setMs(e.currentTarget.value)} />
        <select id="shift-scope" aria-label={t('se_shift_scope')} value={scope} onChange={(e) => setScope(e.currentTarget.value as 'all' | 'following')}>
          <option value="all">{t('se_shift_all')}</option>
          <option value="following">{t('se_shift_following')}</option>
        </select>
        <button type="submit" id="shift-apply" disabled={p.busy}>{t('se_shift_apply')}</button>
      </div>
      {err && <p class="problem" role="alert">{err}</p>}
    </form>
  );
}

/** What a replace or glossary pass changed, in words. */
function countsWords(t: ReturnType<typeof useStudio>['t'], c: Counts | null | undefined): string {
  if (!c || !c.replacements) return t('se_replaced_none');
  const terms = (c.terms ?? []).map((x) => `${x.term} ×${x.count}`).join(', ');
  return t('se_replaced', { n: c.replacements, cues: c.cues }) + (terms ? ` (${terms})` : '');
}

/** Find (the matching cues, next/previous) and replace in every cue; glossary variants found in the text offered as pairs. */
export function FindReplace(p: { cues: Cue[]; glossary: GlossaryEntry[]; busy: boolean; write: Write; onFound(c: Cue): void; selected: number | null }) {
  const { t } = useStudio();
  const [find, setFind] = useState('');
  const [repl, setRepl] = useState('');
  const [whole, setWhole] = useState(true);
  const [matchCase, setMatchCase] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const hits = useMemo(() => matching(p.cues, find, matchCase), [p.cues, find, matchCase]);
  const hints = useMemo(() => glossaryHints(p.cues, p.glossary), [p.cues, p.glossary]);
  const next = (dir: 1 | -1) => {
    if (!hits.length) return;
    const at = hits.findIndex((c) => c.id === p.selected);
    p.onFound(hits[(at + dir + hits.length) % hits.length]!);
  };
  return (
    <form id="find-form" class="se-tool" onSubmit={async (e) => {
      e.preventDefault();
      if (!find) return;
      const r = await p.write('POST', '/replace', { find, replace: repl, whole_word: whole, match_case: matchCase });
      if (r) setSaid(countsWords(t, r.counts ?? r.revision?.counts));
    }}>
      <h3>{t('se_find')}</h3>
      <div class="se-inline">
        <input id="find-text" dir="auto" aria-label={t('se_find_text')} placeholder={t('se_find_text')} value={find} onInput={(e) => { setFind(e.currentTarget.value); setSaid(null); }} />
        <input id="replace-text" dir="auto" list="glossary-terms" aria-label={t('se_replace_text')} placeholder={t('se_replace_text')} value={repl} onInput={(e) => setRepl(e.currentTarget.value)} />
        <datalist id="glossary-terms">{p.glossary.map((g) => <option value={g.term} />)}</datalist>
      </div>
      <div class="se-inline">
        <label class="check"><input type="checkbox" id="find-whole" checked={whole} onChange={(e) => setWhole(e.currentTarget.checked)} />{t('se_whole_word')}</label>
        <label class="check"><input type="checkbox" id="find-case" checked={matchCase} onChange={(e) => setMatchCase(e.currentTarget.checked)} />{t('se_match_case')}</label>
        <span class="muted" id="find-count" aria-live="polite">{find ? t('se_found', { n: hits.length }) : ''}</span>
      </div>
      <div class="actions">
        <button type="button" id="find-prev" disabled={!hits.length} onClick={() => next(-1)}>{t('se_find_prev')}</button>
        <button type="button" id="find-next" disabled={!hits.length} onClick={() => next(1)}>{t('se_find_next')}</button>
        <button type="submit" id="replace-all" disabled={p.busy || !find}>{t('se_replace_all')}</button>
        <button type="button" id="apply-glossary" disabled={p.busy} onClick={async () => { const r = await p.write('POST', '/apply-glossary', {}); if (r) setSaid(countsWords(t, r.counts ?? r.revision?.counts)); }}>{t('se_apply_glossary')}</button>
      </div>
      {said && <p class="muted" id="replace-said" role="status">{said}</p>}
      {hints.length > 0 && (
        <div id="glossary-hints">
          <p class="muted">{t('se_glossary_hints')}</p>
          <ul class="plain">{hints.map((h) => (
            <li><button type="button" class="link glossary-hint" onClick={() => { setFind(h.variant); setRepl(h.entry.term); setWhole(true); setSaid(null); }}>
              <bdi dir="auto">{h.variant}</bdi> → <bdi dir="auto">{h.entry.term}</bdi></button> <span class="muted">{t('se_in_cues', { n: h.cues })}</span></li>
          ))}</ul>
        </div>
      )}
    </form>
  );
}

/** The first changed text of a revision, as before → after. */
function gist(r: Revision): string {
  const b = r.before[0]?.text.split('\n').join(' ') ?? '', a = r.after[0]?.text.split('\n').join(' ') ?? '';
  const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);
  return b && a ? `${cut(b)} → ${cut(a)}` : cut(a || b);
}

/** Revisions newest first: what changed, who and when; Undo on each (an undo is itself a revision). */
export function Revisions(p: { items: Revision[]; busy: boolean; write: Write }) {
  const { t, f } = useStudio();
  if (!p.items.length) return <div class="se-tool" id="revisions"><h3>{t('se_revisions')}</h3><p class="muted">{t('se_no_revisions')}</p></div>;
  return (
    <div class="se-tool" id="revisions">
      <h3>{t('se_revisions')}</h3>
      <ol class="plain se-revs">{p.items.slice(0, 30).map((r) => {
        const opKey = `se_op_${r.op}` as Parameters<typeof t>[0];
        const op = t(opKey) === opKey ? r.op : t(opKey);
        // A key's revision: the key in the studio's words and its id (the API's own label is English).
        const who = r.author?.kind === 'key' ? <>{t('se_author_key')} <code dir="ltr">{(r.author.id ?? '').slice(0, 8)}</code></>
          : r.author?.name || (r.author?.kind === 'system' ? t('se_system') : '—');
        const when = r.after[0] ?? r.before[0];
        return (
          <li class="se-rev" data-op={r.op} data-rev={r.id}>
            <span class="se-rev-op">{op}</span>
            {when && <bdi dir="ltr" class="muted">{tc(when.start_ms)}</bdi>}
            <bdi dir="auto" class="se-rev-gist">{gist(r)}</bdi>
            <span class="muted">{who} · {f.short(r.created_at)}</span>
            {r.undone_by ? <span class="muted">{t('se_undone')}</span>
              : <button type="button" class="small se-undo" disabled={p.busy} onClick={() => p.write('POST', `/revisions/${encodeURIComponent(r.id)}/undo`)}>{t('se_undo')}</button>}
          </li>
        );
      })}</ol>
    </div>
  );
}
