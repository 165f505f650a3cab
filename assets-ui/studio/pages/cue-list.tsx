/**
 * The cue list of the editor: per cue its number, times (left to right in both languages; a click plays from
 * there), reading speed and the limits it breaks, its text edited in place (direction from the text itself, so a
 * Hebrew cue reads right to left in an English studio) and, side by side, the other track's text for the same time.
 * Text is always a text node or a field value: a cue that holds markup shows it as characters.
 */
import { Component } from 'preact';
import { useStudio } from '../ctx';
import type { T } from '../i18n';
import { cps, tc, type Cue } from './subtitles-model';

/** Props of one row. */
interface RowProps {
  cue: Cue; n: number; selected: boolean; current: boolean; beside: string | null; lang: string; besideLang: string; gen: number;
  readOnly: boolean; t: T; fmtNum(n: number): string;
  onSelect(id: number): void; onSeek(ms: number): void; onText(id: number, text: string): void; onCaret(id: number, offset: number): void;
}

/** The words of a broken limit. */
function flagWords(t: T, f: string): string {
  const k = `se_flag_${f}` as Parameters<T>[0];
  const w = t(k);
  return w === k ? f : w;
}

/** One cue; redrawn only when what it shows changed. */
class CueRow extends Component<RowProps> {
  override shouldComponentUpdate(n: RowProps): boolean {
    const p = this.props;
    return n.cue !== p.cue || n.n !== p.n || n.selected !== p.selected || n.current !== p.current || n.beside !== p.beside || n.readOnly !== p.readOnly || n.t !== p.t || n.gen !== p.gen;
  }
  override render(p: RowProps) {
    const { cue, t } = p;
    const flags = cue.over_limit ?? [];
    const speed = cps(cue);
    const cls = `se-cue${p.selected ? ' sel' : ''}${p.current ? ' now' : ''}${flags.length ? ' over' : ''}`;
    return (
      <li id={`cue-${cue.id}`} class={cls} data-id={cue.id} aria-current={p.current ? 'true' : undefined} onClick={() => p.onSelect(cue.id)}>
        <div class="se-row-head">
          <span class="se-n">{p.n}</span>
          <button type="button" class="link se-tc" dir="ltr" aria-label={t('se_play_from', { t: tc(cue.start_ms) })} onClick={(e) => { e.stopPropagation(); p.onSelect(cue.id); p.onSeek(cue.start_ms); }}>
            <bdi dir="ltr">{tc(cue.start_ms)} → {tc(cue.end_ms)}</bdi>
          </button>
          <span class={`se-cps${flags.includes('reading_speed') ? ' bad' : ''}`} title={t('se_cps_title')}>{t('se_cps', { n: p.fmtNum(speed) })}</span>
          {flags.map((f) => <span class="se-flag" data-flag={f}>⚠ {flagWords(t, f)}</span>)}
        </div>
        <div class={`se-row-body${p.beside !== null ? ' two' : ''}`}>
          <textarea key={`${cue.id}:${cue.text}:${p.gen}`} class="se-text" dir="auto" lang={p.lang} rows={2} defaultValue={cue.text} readOnly={p.readOnly}
            aria-label={t('se_cue_text', { n: p.n })}
            onFocus={() => p.onSelect(cue.id)}
            onSelect={(e) => p.onCaret(cue.id, e.currentTarget.selectionStart)}
            onKeyUp={(e) => p.onCaret(cue.id, e.currentTarget.selectionStart)}
            onBlur={(e) => { const v = e.currentTarget.value; if (v !== cue.text && !p.readOnly) p.onText(cue.id, v); }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') { e.currentTarget.value = cue.text; e.currentTarget.blur(); }
              else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); e.currentTarget.blur(); }
            }} />
          {p.beside !== null && <div class="se-beside" dir="auto" lang={p.besideLang}>{p.beside || '—'}</div>}
        </div>
      </li>
    );
  }
}

/** The list; `beside(cue)` gives the side-by-side text (null: no second column). */
export function CueList(p: {
  cues: Cue[]; selected: number | null; current: number | null; lang: string; besideLang: string; beside: ((c: Cue) => string) | null; gen: number;
  readOnly: boolean; onSelect(id: number): void; onSeek(ms: number): void; onText(id: number, text: string): void; onCaret(id: number, offset: number): void;
}) {
  const { t, f } = useStudio();
  return (
    <ol id="cue-list" class="se-list" aria-label={t('se_cues')}>
      {p.cues.map((c, i) => (
        <CueRow key={c.id} cue={c} n={i + 1} selected={c.id === p.selected} current={c.id === p.current} beside={p.beside ? p.beside(c) : null}
          lang={p.lang} besideLang={p.besideLang} readOnly={p.readOnly} t={t} fmtNum={f.num} gen={p.gen}
          onSelect={p.onSelect} onSeek={p.onSeek} onText={p.onText} onCaret={p.onCaret} />
      ))}
    </ol>
  );
}
