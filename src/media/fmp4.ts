import { readdirSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Segment files of one representation in a packaged dir, in order. */
export function segmentsOf(dir: string, rep: number): string[] {
  const re = new RegExp(`^seg_${rep}_(\\d+)\\.m4s$`);
  return readdirSync(dir).filter((f) => re.test(f)).sort((a, b) => Number(re.exec(a)![1]) - Number(re.exec(b)![1]));
}

/**
 * Joins a representation's init segment and media segments into one fragmented MP4 file (a valid fMP4), with
 * asynchronous reads and writes: tens of MB of segments never block the event loop.
 */
export async function joinRepresentation(dir: string, rep: number, out: string): Promise<void> {
  const fh = await open(out, 'w');
  try {
    for (const f of [`init_${rep}.m4s`, ...segmentsOf(dir, rep)]) await fh.write(await readFile(join(dir, f)));
  } finally { await fh.close(); }
}
