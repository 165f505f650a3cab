/** The upload panel: drop zone and file picker; one row per file with a progress bar and its outcome. */
import { useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { uploadFile, type Progress } from '../uploads';
import { AssetPlayer } from './asset-preview';

interface Row { id: number; file: File; p: Progress }

/** Uploads every dropped or picked file at once, each in its own row (parts in parallel); onDone after each. */
export function Uploader({ onDone }: { onDone: () => void }) {
  const { t, f, client } = useStudio();
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const next = useRef(1);
  // The upload finished last plays its preview in its row as soon as the appliance has one (no navigation).
  const [latest, setLatest] = useState<number | null>(null);
  const start = (files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const id = next.current++;
      setRows((r) => [...r, { id, file, p: { sent: 0, phase: 'starting' } }]);
      const report = (p: Progress) => setRows((r) => r.map((x) => (x.id === id ? { ...x, p } : x)));
      uploadFile(client, file, file.name.replace(/\.[^.]+$/, ''), report)
        .then(() => { setLatest(id); onDone(); }, (e) => report({ sent: 0, phase: 'failed', error: errorWords(e) }));
    }
  };
  return (
    <section class="panel upload" aria-label={t('upload')}>
      <div class={`drop${over ? ' over' : ''}`} id="drop"
        onDragOver={(e) => { e.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)}
        onDrop={(e) => { e.preventDefault(); setOver(false); if (e.dataTransfer?.files.length) start(e.dataTransfer.files); }}>
        <p>{t('drop_here')}</p>
        <button type="button" class="primary" onClick={() => input.current?.click()}>{t('choose_files')}</button>
        <input ref={input} id="file-input" type="file" multiple accept="video/*,audio/*,.mxf,.mkv,.ts" hidden onChange={(e) => { const fs = e.currentTarget.files; if (fs?.length) start(fs); e.currentTarget.value = ''; }} />
      </div>
      {rows.length > 0 && (
        <ul class="uploads" id="uploads">
          {rows.map((r) => {
            const pct = r.file.size ? Math.round((r.p.sent / r.file.size) * 100) : 100;
            return (
              <li key={r.id} class={`up up-${r.p.phase}`} data-file={r.file.name}>
                <span class="name">{r.file.name}</span>
                <progress max={100} value={pct} aria-label={`${r.file.name} ${pct}%`} />
                <span class="pct"><bdi>{pct}%</bdi></span>
                <span class="phase">{r.p.phase === 'done' && r.p.assetId ? <a href={`/studio/library/${encodeURIComponent(r.p.assetId)}`}>{t('up_done')}</a>
                  : r.p.phase === 'failed' ? <span role="alert">{t('up_failed')}: {r.p.error}</span> : t(`up_${r.p.phase}`)}</span>
                <span class="muted"><bdi>{f.bytes(r.file.size)}</bdi>{r.p.resumed ? ` · ${t('resumed')}` : ''}</span>
                {r.id === latest && r.p.assetId && <div class="up-preview"><AssetPlayer key={r.p.assetId} id={r.p.assetId} ready={false} autoplay hostId="upload-player"
                  waiting={<p class="player-wait">{t('processing')}</p>} /></div>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
