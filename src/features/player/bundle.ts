import { join } from 'node:path';
// Embedded into the compiled binary (type: 'file'); paths on disk in development.
import prebuilt from '../../../assets-ui/player/prebuilt/embed.js' with { type: 'file' };
import hlsPath from '../../../node_modules/hls.js/dist/hls.min.mjs' with { type: 'file' };
import dashPath from '../../../node_modules/dashjs/dist/modern/esm/dash.all.min.js' with { type: 'file' };
import vastPath from '../../../node_modules/@dailymotion/vast-client/dist/vast-client.min.js' with { type: 'file' };

/** Marker of the committed stand-in for the bundled player (replaced by scripts/build.ts before compiling). */
export const PLACEHOLDER = '/*VS-PLACEHOLDER';

/** Bundles the player loader from assets-ui/player with Bun (minified, one IIFE; engines stay separate lazy files). */
export async function buildPlayer(root = join(import.meta.dir, '../../..')): Promise<string> {
  const r = await Bun.build({ entrypoints: [join(root, 'assets-ui/player/embed.ts')], minify: true, target: 'browser', format: 'iife' });
  if (!r.success) throw new Error(`player bundle failed: ${r.logs.map(String).join('\n')}`);
  return r.outputs[0].text();
}

/** The player's files: the loader (prebuilt in the binary, built on first use in development) and the lazy engines. */
export class PlayerFiles {
  private loader: Promise<string> | null = null;

  /** The loader script text. */
  embedJs(): Promise<string> {
    return (this.loader ??= (async () => {
      const text = await Bun.file(prebuilt).text();
      return text.startsWith(PLACEHOLDER) ? buildPlayer() : text;
    })());
  }

  /** A lazily loaded engine file by its served name, or null. */
  engine(name: string): string | null {
    return name === 'hls.mjs' ? hlsPath : name === 'dash.mjs' ? dashPath : name === 'vast.mjs' ? vastPath : null;
  }
}
