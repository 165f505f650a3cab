/**
 * Captions: the player draws the cues of the chosen text track itself (the track is `hidden`: the engine and the
 * browser keep loading its cues, nothing is drawn natively) so the cue box has the track's direction and language
 * (`dir="rtl"` for Hebrew and Arabic: punctuation and mixed Latin runs fall where a reader expects them) and cue text
 * is only ever text (`textContent`; markup dropped, WebVTT escapes decoded). The choice (a language, or off) is kept
 * in localStorage and applied to the tracks of every later video, as engines add them.
 */

const RTL = /^(?:he|iw|ar|fa|ur|yi)(?:-|$)/i;
const KEY = 'vs:cc';

/** True for a caption language written right to left. */
export const rtlLanguage = (lang: string) => RTL.test(lang);

/** Cue text as plain text: WebVTT tags (`<i>`, `<v Name>`, `<c.x>`, timestamps) dropped, its escapes decoded. */
export function cuePlainText(raw: string): string {
  return raw.replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, '\u00a0').replace(/&lrm;/g, '\u200e').replace(/&rlm;/g, '\u200f').replace(/&amp;/g, '&');
}

/** The remembered caption choice: a language tag, 'off', or null (never chosen). */
export const captionChoice = {
  get(): string | null { try { return localStorage.getItem(KEY); } catch { return null; } },
  set(v: string): void { try { localStorage.setItem(KEY, v); } catch { /* storage off */ } },
};

/** A video's caption tracks and the player's own cue box. */
export class Captions {
  readonly box: HTMLDivElement;
  private current: TextTrack | null = null;
  private chosenByViewer = false;

  constructor(private readonly video: HTMLVideoElement, host: HTMLElement, private readonly onChange: (t: TextTrack | null) => void) {
    this.box = document.createElement('div');
    this.box.className = 'vs-cues';
    this.box.setAttribute('aria-live', 'off');
    host.append(this.box);
    const tt = video.textTracks;
    // Engines add their tracks late (hls.js after the master playlist) and may set modes themselves: a remembered
    // choice is applied as tracks arrive; a track shown natively by someone else is taken over (drawn by us).
    tt.addEventListener('addtrack', () => this.restore());
    tt.addEventListener('change', () => this.adopt());
    this.restore();
  }

  /** Subtitle and caption tracks of the video. */
  tracks(): TextTrack[] { return Array.from(this.video.textTracks).filter((t) => t.kind === 'subtitles' || t.kind === 'captions'); }

  /** The chosen track (null: off). */
  selected(): TextTrack | null { return this.current; }

  /** Shows `tr` (null: off), remembers the choice and reports it. */
  select(tr: TextTrack | null, remember = true): void {
    for (const t of this.tracks()) if (t !== tr && t.mode !== 'disabled') t.mode = 'disabled';
    if (this.current) this.current.oncuechange = null;
    this.current = tr;
    if (tr) {
      tr.mode = 'hidden';
      tr.oncuechange = () => this.draw();
    }
    if (remember) { this.chosenByViewer = true; captionChoice.set(tr ? tr.language || tr.label : 'off'); }
    this.draw();
    this.onChange(tr);
  }

  private restore(): void {
    if (this.chosenByViewer) return;
    const want = captionChoice.get();
    if (!want || want === 'off') { this.adopt(); return; }
    const hit = this.tracks().find((t) => t.language === want) ?? this.tracks().find((t) => t.language.split('-')[0] === want.split('-')[0]) ?? this.tracks().find((t) => t.label === want);
    if (hit && hit !== this.current) this.select(hit, false);
  }

  /** A track another party set `showing` (a default track, an engine) is drawn by us instead. */
  private adopt(): void {
    const shown = this.tracks().find((t) => t.mode === 'showing');
    if (shown) this.select(shown, false);
    else if (this.current && this.current.mode === 'disabled') { this.current = null; this.draw(); }
  }

  /** Draws the active cues of the chosen track: one box per cue, lines kept, text only. */
  draw(): void {
    this.box.textContent = '';
    const tr = this.current;
    const active = tr?.activeCues;
    if (!tr || !active) return;
    const rtl = rtlLanguage(tr.language);
    for (const c of Array.from(active) as VTTCue[]) {
      const d = document.createElement('div');
      d.className = 'vs-cue';
      d.dir = rtl ? 'rtl' : 'auto';
      if (tr.language) d.lang = tr.language;
      d.textContent = cuePlainText(c.text ?? '');
      this.box.append(d);
    }
  }
}
