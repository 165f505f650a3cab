import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Prefix of the private directory holding the main process's Unix socket (one per running appliance). */
export const SOCKET_DIR_PREFIX = 'vs-dw-';
/** The socket's name inside that directory. */
export const SOCKET_NAME = 'main.sock';

/** True when something accepts connections on the Unix socket `path`; false only when it is refused or missing. */
async function answers(path: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(true), timeoutMs); // no verdict in time: treat it as alive, never remove it
    Bun.connect({ unix: path, socket: { open(s) { s.end(); }, data() {}, error() {} } })
      .then(() => { clearTimeout(t); resolve(true); })
      .catch(() => { clearTimeout(t); resolve(false); });
  });
}

/**
 * Removes socket directories left in `root` by appliances that were killed (SIGKILL or a crash skips their cleanup):
 * only this user's `vs-dw-*` directories older than `minAgeMs` whose socket refuses connections or is missing. A
 * directory another appliance is still setting up is younger than that; one whose socket answers, or does not answer
 * in time, is kept. Returns the directories removed.
 */
export async function sweepStaleSocketDirs(root: string, minAgeMs = 60_000, now = Date.now()): Promise<string[]> {
  const uid = process.getuid?.();
  const removed: string[] = [];
  let names: string[];
  try { names = readdirSync(root); } catch { return removed; }
  for (const name of names) {
    if (!name.startsWith(SOCKET_DIR_PREFIX)) continue;
    const dir = join(root, name);
    try {
      const st = lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || now - st.mtimeMs < minAgeMs) continue;
    } catch { continue; }
    if (await answers(join(dir, SOCKET_NAME), 1000)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
