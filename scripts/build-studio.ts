/**
 * Build step of the studio (called by scripts/build.ts): bundles assets-ui/studio into
 * assets-ui/studio/prebuilt/bundle.txt (JSON {files}) so `bun build --compile` embeds it; returns a function that puts
 * the committed stand-in back (development bundles on first request instead).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildStudioFiles } from '../src/features/studio/bundle';

const PREBUILT = 'assets-ui/studio/prebuilt/bundle.txt';

/** Writes the bundled studio over the stand-in; the returned function restores the stand-in. */
export async function prepareStudio(): Promise<() => void> {
  const standIn = readFileSync(PREBUILT, 'utf8');
  const files = await buildStudioFiles(process.cwd());
  writeFileSync(PREBUILT, JSON.stringify({ files }));
  const gz = Object.values(files).reduce((a, t) => a + Bun.gzipSync(Buffer.from(t)).length, 0);
  console.log(`studio: ${Object.keys(files).length} files, ${(gz / 1024).toFixed(1)} KB gzipped in all`);
  return () => writeFileSync(PREBUILT, standIn);
}
