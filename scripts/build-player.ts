/**
 * Build step of the player (called by scripts/build.ts): bundles assets-ui/player/embed.ts into
 * assets-ui/player/prebuilt/embed.js so `bun build --compile` embeds it; returns a function that puts the committed
 * stand-in back (development builds the loader on first request instead).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildPlayer } from '../src/features/player/bundle';

const PREBUILT = 'assets-ui/player/prebuilt/embed.js';

/** Writes the bundled loader over the stand-in; the returned function restores the stand-in. */
export async function preparePlayer(): Promise<() => void> {
  const standIn = readFileSync(PREBUILT, 'utf8');
  const js = await buildPlayer(process.cwd());
  writeFileSync(PREBUILT, js);
  console.log(`player loader: ${(js.length / 1024).toFixed(1)} KB, ${(Bun.gzipSync(Buffer.from(js)).length / 1024).toFixed(1)} KB gzipped`);
  return () => writeFileSync(PREBUILT, standIn);
}
