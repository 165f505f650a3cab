import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PID_FILE = 'serve.pid';

/** Records that this process serves `dataDir` (DATA/serve.pid, 0600); the returned function removes the mark. */
export function markServing(dataDir: string): () => void {
  const path = join(dataDir, PID_FILE);
  writeFileSync(path, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    try { if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path); } catch { /* already gone */ }
  };
}

/** The pid of another live process serving `dataDir`, or null (no mark, a stale one, or this process). */
export function servingPid(dataDir: string): number | null {
  const path = join(dataDir, PID_FILE);
  if (!existsSync(path)) return null;
  const pid = Number(readFileSync(path, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try { process.kill(pid, 0); return pid; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : null; }
}
