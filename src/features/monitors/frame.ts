/**
 * The last good frame before a recorder gap: the last recorded segment before the hole (joined with its init
 * segment) is decoded once by ffmpeg into `DATA/media/<tenant>/alerts/<alert_id>.jpg`, served with the alert.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { lastFrameArgs } from '../../media/args/frame';

/** Files of the segment to grab from (internal paths; never answered). */
export interface FrameSource { segment: string; init: string }

/** Where an alert's thumbnail lives. */
export function alertThumbPath(ctx: AppContext, tenantId: string, alertId: string): string {
  return join(ctx.config.dataDir, 'media', tenantId, 'alerts', `${alertId}.jpg`);
}

/** Writes the alert's thumbnail (once; failures are logged, the alert stands without it). */
export async function grabLastFrame(ctx: AppContext, tenantId: string, alertId: string, src: FrameSource): Promise<boolean> {
  const out = alertThumbPath(ctx, tenantId, alertId);
  if (existsSync(out)) return true;
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools || !existsSync(src.segment) || !existsSync(src.init)) return false;
  const dir = join(ctx.config.dataDir, 'media', tenantId, 'alerts');
  mkdirSync(dir, { recursive: true });
  const joined = join(dir, `${alertId}.src.mp4`), tmp = join(dir, `${alertId}.tmp.jpg`);
  try {
    writeFileSync(joined, Buffer.concat([readFileSync(src.init), readFileSync(src.segment)]));
    const r = await runTool(lastFrameArgs(tools.ffmpeg, joined, tmp), { timeoutMs: 20_000 }).done;
    if (r.code !== 0 || !existsSync(tmp)) { ctx.log.warn('alert thumbnail failed', { alert: alertId, error: r.stderrTail.join(' | ') }); return false; }
    renameSync(tmp, out);
    return true;
  } finally {
    rmSync(joined, { force: true });
    rmSync(tmp, { force: true });
  }
}
