import { statfsSync, mkdirSync } from 'node:fs';
import { loadConfig } from '../kernel/config/load';
import { openStats } from '../kernel/stats';
import { locateFfmpeg } from '../media/locate';
import { bestEncoder, detectEncoders, ffmpegFacts } from '../media/encoders';
import { secretsFacts } from './doctor-secrets';
import type { Cli } from './args';
import { frontFacts } from '../delivery-front/public-front';

/** `viewstream doctor`: ffmpeg, SRT, usable encoders (by trial encode), DuckDB and disk. Exit 1 when a must-have fails. */
export async function doctor(flags: Cli['flags']): Promise<number> {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const report: Record<string, unknown> = {};
  let ok = true;
  const tools = locateFfmpeg({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath });
  if (!tools) { report.ffmpeg = { ok: false, detail: 'ffmpeg/ffprobe not found on PATH (apt-get install ffmpeg)' }; ok = false; }
  else {
    const facts = await ffmpegFacts(tools);
    const encoders = await detectEncoders(tools);
    report.ffmpeg = { ok: true, path: tools.ffmpeg, ffprobe: tools.ffprobe, version: facts.version };
    report.srt = { ok: facts.srt };
    report.encoders = encoders;
    report.encoder = bestEncoder(encoders);
    if (!report.encoder) ok = false;
  }
  try {
    const stats = await openStats(':memory:');
    report.duckdb = { ok: true, version: await stats.version() };
    await stats.close();
  } catch (e) { report.duckdb = { ok: false, detail: String(e) }; ok = false; }
  try {
    mkdirSync(config.dataDir, { recursive: true });
    const fs = statfsSync(config.dataDir);
    report.disk = { ok: true, path: config.dataDir, free_bytes: fs.bavail * fs.bsize, total_bytes: fs.blocks * fs.bsize };
  } catch (e) { report.disk = { ok: false, detail: String(e) }; ok = false; }
  Object.assign(report, secretsFacts(config.dataDir));
  report.front = frontFacts(process.env);
  report.ok = ok;
  if (flags.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    const f = report.ffmpeg as { ok: boolean; path?: string; version?: string; detail?: string };
    const lines = [
      `ffmpeg   ${f.ok ? `ok   ${f.path} — ${f.version}` : `FAIL ${f.detail}`}`,
      `srt      ${(report.srt as { ok: boolean } | undefined)?.ok ? 'ok' : 'missing'}`,
      ...((report.encoders as { encoder: string; usable: boolean; detail: string }[] | undefined) ?? []).map((e) => `encoder  ${e.usable ? 'ok  ' : 'no  '} ${e.encoder}${e.usable ? '' : ` (${e.detail})`}`),
      `choice   ${report.encoder ?? 'none'}`,
      `duckdb   ${(report.duckdb as { ok: boolean; version?: string }).ok ? `ok   ${(report.duckdb as { version: string }).version}` : 'FAIL'}`,
      `secrets  ${(report.secrets as { ok: boolean }).ok ? 'ok  ' : 'WARN'} ${(report.secrets as { detail: string }).detail}`,
      `front    ${(report.front as { ok: boolean }).ok ? 'ok  ' : 'WARN'} ${(report.front as { detail: string }).detail}`,
      `srt-pass ${(report.srt_passphrase as { ok: boolean }).ok ? 'ok  ' : 'WARN'} ${(report.srt_passphrase as { detail: string }).detail}`,
      `disk     ${(report.disk as { ok: boolean; free_bytes?: number }).ok ? `ok   ${Math.round(((report.disk as { free_bytes: number }).free_bytes) / 2 ** 30)} GiB free in ${config.dataDir}` : 'FAIL'}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  return ok ? 0 : 1;
}
