/** The editor's track controls: pick the track (and one to show beside it), publish toggle, downloads, and new tracks by speech recognition or from a WebVTT/SRT file. */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { TRACK_LANGUAGES, type Track } from './subtitles-model';

/** A language's name in the studio's language ("Hebrew" / "עברית"), else the tag. */
export function langName(lang: string, ui: string): string {
  try { return new Intl.DisplayNames([ui === 'he' ? 'he' : 'en'], { type: 'language' }).of(lang) ?? lang; } catch { return lang; }
}

/** A track's name for people: its label, else its language; with its source. */
export function trackName(tr: Track, ui: string, t: ReturnType<typeof useStudio>['t']): string {
  const srcKey = `se_src_${tr.source}` as Parameters<typeof t>[0];
  const src = t(srcKey) === srcKey ? tr.source : t(srcKey);
  return `${tr.label || langName(tr.language, ui)} · ${src}`;
}

/** The track picker row. */
export function TrackBar(p: {
  base: string; tracks: Track[]; track: Track | null; beside: string; busy: boolean;
  onPick(id: string): void; onBeside(id: string): void; onChanged(): void; setError(e: string | null): void; onTranslated(t: Track): void;
}) {
  const { t, lang, api, can } = useStudio();
  const tr = p.track;
  const path = tr ? `${p.base}/${encodeURIComponent(tr.id)}` : '';
  // The toggle shows the asked state until the track read again says it.
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => { if (pending !== null && tr?.published === pending) setPending(null); }, [tr?.published, pending]);
  useEffect(() => setPending(null), [tr?.id]);
  const [into, setInto] = useState('');
  const targets = TRACK_LANGUAGES.filter((l) => l !== tr?.language);
  return (
    <div class="se-tracks">
      <label class="field"><span>{t('se_track')}</span>
        <select id="track-pick" value={tr?.id ?? ''} onChange={(e) => p.onPick(e.currentTarget.value)}>
          {p.tracks.map((x) => <option value={x.id}>{trackName(x, lang, t)}</option>)}
        </select>
      </label>
      <label class="field"><span>{t('se_beside')}</span>
        <select id="beside-pick" value={p.beside} onChange={(e) => p.onBeside(e.currentTarget.value)}>
          <option value="">{t('se_beside_none')}</option>
          {p.tracks.filter((x) => x.id !== tr?.id && x.status === 'ready').map((x) => <option value={x.id}>{trackName(x, lang, t)}</option>)}
        </select>
      </label>
      {tr && (
        <div class="actions se-track-actions">
          {tr.status === 'ready' && can('assets:write') && (
            <label class="check"><input type="checkbox" id="track-published" checked={pending ?? tr.published} disabled={p.busy || pending !== null}
              onChange={async (e) => {
                const on = e.currentTarget.checked;
                p.setError(null); setPending(on);
                try { await api('POST', `${path}/${on ? 'publish' : 'unpublish'}`); } catch (x) { p.setError(errorWords(x)); setPending(null); }
                p.onChanged();
              }} />{t('se_published')}</label>
          )}
          {tr.status === 'ready' && <a class="button small" id="download-vtt" href={`${path}.vtt`} download>{t('se_download', { f: 'WebVTT' })}</a>}
          {tr.status === 'ready' && <a class="button small" id="download-srt" href={`${path}.srt`} download>{t('se_download', { f: 'SRT' })}</a>}
          {tr.status === 'ready' && can('assets:write') && (
            <span class="se-inline" id="translate">
              <select id="translate-into" aria-label={t('se_translate_into')} value={into || targets[0]} onChange={(e) => setInto(e.currentTarget.value)}>
                {targets.map((l) => <option value={l}>{langName(l, lang)}</option>)}
              </select>
              <button type="button" id="translate-go" disabled={p.busy} onClick={async () => {
                p.setError(null);
                try { p.onTranslated(await api<Track>('POST', `${path}/translations`, { language: into || targets[0] })); } catch (x) { p.setError(errorWords(x)); }
              }}>{t('se_translate')}</button>
            </span>
          )}
        </div>
      )}
    </div>
  );
}

/** New track: speech recognition in a language, or a WebVTT/SRT file. */
export function CreateTrack(p: { base: string; onCreated(t: Track): void }) {
  const { t, lang, api } = useStudio();
  const [language, setLanguage] = useState('he');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const create = async (body: Record<string, unknown>) => {
    setBusy(true); setErr(null);
    try { p.onCreated(await api<Track>('POST', p.base, { language, ...body })); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  return (
    <div id="create-track" class="se-create">
      <div class="se-inline">
        <label class="field"><span>{t('se_language')}</span>
          <select id="new-language" value={language} onChange={(e) => setLanguage(e.currentTarget.value)}>
            {TRACK_LANGUAGES.map((l) => <option value={l}>{langName(l, lang)}</option>)}
          </select>
        </label>
        <button type="button" id="recognise" disabled={busy} onClick={() => create({})}>{t('se_recognise')}</button>
        <label class="button" id="upload-label">{t('se_upload')}
          <input type="file" id="upload-file" accept=".vtt,.srt,text/vtt,application/x-subrip" hidden disabled={busy}
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (!file) return;
              if (file.size > 10 * 1024 * 1024) { setErr(t('se_file_too_big')); return; }
              const text = await file.text();
              await create({ content: text, format: /\.srt$/i.test(file.name) ? 'srt' : /\.vtt$/i.test(file.name) ? 'vtt' : undefined, label: undefined });
            }} />
        </label>
      </div>
      {err && <p class="problem" role="alert" id="create-error">{err}</p>}
    </div>
  );
}
