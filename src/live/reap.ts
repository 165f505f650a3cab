import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Kills ingest ffmpeg processes left by a previous server that was killed (-9): their pid files live in the
 * scratch tree; a pid is only killed when its command line still names that scratch directory.
 */
export function reapOrphans(scratchRoot: string): number {
  let n = 0;
  if (!existsSync(scratchRoot)) return 0;
  for (const ch of readdirSync(scratchRoot)) {
    let names: string[] = [];
    try { names = readdirSync(join(scratchRoot, ch)); } catch { continue; }
    for (const f of names.filter((x) => x.endsWith('.pid'))) {
      const pid = Number(readFileSync(join(scratchRoot, ch, f), 'utf8'));
      const dir = join(scratchRoot, ch, f.slice(0, -4));
      let cmd = '';
      try { cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
      if (!cmd.includes('ffmpeg') || !cmd.includes(dir)) continue;
      try { process.kill(-pid, 'SIGKILL'); n++; } catch { try { process.kill(pid, 'SIGKILL'); n++; } catch { /* gone */ } }
    }
  }
  return n;
}
