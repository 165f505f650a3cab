/** Ad cues of an asset: the editor's list (add at the player time, type a time, remove, sort) and the marker bar under the player. */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';

/** Most cues the API takes (metadata.ads.cues). */
export const MAX_CUES = 50;

/** Seconds as m:ss.s (h:mm:ss.s past an hour), for cue and frame times. */
export function clock(sec: number): string {
  const t = Math.max(0, Math.round(sec * 10) / 10);
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), s = (t % 60).toFixed(1).padStart(4, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Markers at each cue's place on a bar as wide as the video (time runs left to right in both languages). */
export function CueBar({ cues, duration, onSeek }: { cues: number[]; duration: number | null; onSeek(t: number): void }) {
  const { t } = useStudio();
  if (!duration || !cues.length) return null;
  return (
    <div id="cue-bar" role="group" aria-label={t('ap_cues_bar')} dir="ltr"
      style={{ position: 'relative', height: '14px', marginTop: '.5rem', background: 'var(--bg)', border: '1px solid var(--line)', borderRadius: '7px' }}>
      {cues.map((c) => (
        <button type="button" class="cue-mark" aria-label={t('ap_cue_at', { t: clock(c) })} title={clock(c)} onClick={() => onSeek(c)}
          style={{ position: 'absolute', top: '-3px', left: `calc(${Math.min(100, (c / duration) * 100)}% - 3px)`, width: '6px', height: '18px', padding: 0,
            minHeight: 0, border: 0, borderRadius: '2px', background: c > duration ? 'var(--bad)' : 'var(--accent, #f59e0b)', cursor: 'pointer' }} />
      ))}
    </div>
  );
}

/** The ad-cue part of the metadata form (state is the caller's: the bar under the player shows the same list). */
export function CueEditor(p: {
  cues: number[]; setCues(c: number[]): void; disabled: boolean; setDisabled(d: boolean): void;
  duration: number | null; playerTime(): number | null; onSeek(t: number): void; error: string | null;
}) {
  const { t, f } = useStudio();
  const [typed, setTyped] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const full = p.cues.length >= MAX_CUES;
  const add = (v: number) => {
    if (!Number.isFinite(v) || v < 0) { setLocal(t('ap_err_cue')); return; }
    const r = Math.round(v * 1000) / 1000;
    setLocal(null);
    if (!p.cues.includes(r)) p.setCues([...p.cues, r].sort((a, b) => a - b));
  };
  const sorted = p.cues.every((c, i) => i === 0 || p.cues[i - 1] <= c);
  const err = local ?? p.error;
  return (
    <fieldset id="ads-editor" style={{ border: '1px solid var(--line)', borderRadius: '8px', padding: '.6rem .8rem', margin: '0 0 .8rem' }}>
      <legend>{t('ap_ads_title')}</legend>
      <label class="check"><input type="checkbox" id="ads-disabled" checked={p.disabled} onChange={(e) => p.setDisabled(e.currentTarget.checked)} />{t('ap_ads_disabled')}</label>
      <div class="actions" style={{ marginBottom: '.5rem' }}>
        <button type="button" id="cue-add-player" disabled={full} onClick={() => { const now = p.playerTime(); if (now === null) setLocal(t('ap_no_player')); else add(now); }}>{t('ap_add_cue_player')}</button>
        <input id="cue-seconds" type="number" min={0} step={0.1} inputMode="decimal" aria-label={t('ap_cue_seconds')} placeholder={t('ap_cue_seconds')} value={typed}
          style={{ width: '10rem' }} onInput={(e) => setTyped(e.currentTarget.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); if (typed.trim()) { add(Number(typed)); setTyped(''); } } }} />
        <button type="button" id="cue-add" disabled={full || !typed.trim()} onClick={() => { add(Number(typed)); setTyped(''); }}>{t('ap_add_cue')}</button>
        <button type="button" id="cue-sort" disabled={sorted} onClick={() => p.setCues([...p.cues].sort((a, b) => a - b))}>{t('ap_sort_cues')}</button>
        <span class="muted" id="cue-count" aria-live="polite">{t('ap_n_cues', { n: f.num(p.cues.length), max: MAX_CUES })}</span>
      </div>
      {full && <p class="muted">{t('ap_cues_max', { n: MAX_CUES })}</p>}
      {err && <p class="problem" role="alert" id="ads-error">{err}</p>}
      {!p.cues.length ? <p class="muted">{t('ap_no_cues')}</p> : (
        <ol id="cue-list" class="plain" style={{ display: 'flex', flexWrap: 'wrap', gap: '.4rem', flexDirection: 'row' }}>
          {p.cues.map((c, i) => (
            <li class="cue" style={{ display: 'inline-flex', gap: '.2rem', alignItems: 'center', border: '1px solid var(--line)', borderRadius: '99px', padding: '.1rem .2rem .1rem .5rem' }}>
              <button type="button" class="link" aria-label={t('ap_seek', { t: clock(c) })} onClick={() => p.onSeek(c)}><bdi dir="ltr">{clock(c)}</bdi></button>
              {p.duration !== null && c > p.duration && <span class="warn" title={t('ap_cue_past_end')}>⚠</span>}
              <button type="button" class="small cue-remove" aria-label={t('ap_remove_cue', { t: clock(c) })} onClick={() => p.setCues(p.cues.filter((_, j) => j !== i))}>×</button>
            </li>
          ))}
        </ol>
      )}
    </fieldset>
  );
}
