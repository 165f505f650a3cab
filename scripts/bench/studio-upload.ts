/**
 * `bun scripts/bench/studio.ts --upload [--rounds 3]`: from choosing a file in the studio's library to the first
 * frame playing in the upload's row, against the appliance's own preview-ready time (the `asset.preview_ready` event)
 * measured in the same run, for a 30 s 720p H.264/AAC upload (issue 42 item 4: the studio took 18.2 s while the API had
 * a preview 0.46 s after completion). An in-process appliance with its workers (probe, remux, ladder) and Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../../test/helpers/server';
import { makeClip } from '../../test/e2e/transcode-helpers';
import { startStudio, studioTab } from '../../test/e2e/studio-helpers';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** Runs the upload rounds and prints each and the medians. */
export async function uploadBench(rounds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-studio-upload-'));
  let s: TestServer | null = null;
  let browser: Browser | null = null;
  try {
    ({ s, browser } = await startStudio({ env: { VS_LOG_LEVEL: 'error' } }));
    const srv = s;
    const eventAt = (type: string, asset: string) => srv.ctx.db.query<{ at: number }, [string, string]>(`SELECT at FROM events WHERE type = ? AND json_extract(data, '$.asset') = ?`).get(type, asset)?.at ?? null;
    const rows: { upload: number; preview: number; frame: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      const clip = await makeClip(join(dir, `bulletin-${i}.mp4`), { size: '1280x720', seconds: 30, extra: ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', '-pix_fmt', 'yuv420p'] });
      const page = await studioTab(browser, s);
      try {
        await page.goto(`${s.url}/studio/library`);
        await page.waitForSelector('#drop');
        const picked = Date.now();
        await page.setInputFiles('#file-input', clip);
        const link = await page.waitForSelector('#uploads li.up-done .phase a', { timeout: 120_000 });
        const id = decodeURIComponent((await link.getAttribute('href'))!.split('/').pop()!);
        await page.waitForFunction(() => { const v = document.querySelector('#upload-player video') as HTMLVideoElement | null; return !!v && v.currentTime > 0 && v.readyState >= 2 && !v.paused; }, undefined, { timeout: 120_000, polling: 20 });
        const frame = Date.now();
        const created = s.ctx.db.query<{ created_at: number }, [string]>('SELECT created_at FROM assets WHERE id = ?').get(id)!.created_at;
        const preview = eventAt('asset.preview_ready', id);
        if (preview === null) throw new Error('no asset.preview_ready event');
        rows.push({ upload: created - picked, preview: preview - created, frame: frame - created });
        console.log(`round ${i + 1}: chosen→upload complete ${created - picked} ms; complete→API preview ${preview - created} ms; complete→first frame in the studio ${frame - created} ms (chosen→first frame ${frame - picked} ms)`);
      } finally { await page.context().close(); }
    }
    const m = (k: keyof (typeof rows)[number]) => median(rows.map((r) => r[k]));
    console.log(`upload section, median of ${rounds} (30 s 720p): API preview ${m('preview')} ms after completion; studio first frame ${m('frame')} ms after completion = ${(m('frame') - m('preview'))} ms after the API's preview (issue 42: 18.2 s from choosing the file)`);
  } finally {
    await browser?.close();
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
