import { join } from 'node:path';
import { readFileSync } from 'node:fs';
// Embedded into the compiled binary (type: 'file'); the committed stand-in says "placeholder" and development builds on first use.
import prebuilt from '../../../assets-ui/studio/prebuilt/bundle.txt' with { type: 'file' };

/** One served file of the studio bundle: bytes, gzip, strong ETag and content type. */
export interface StudioFile { name: string; body: Uint8Array; gzip: Uint8Array; etag: string; type: string }
/** The bundle as a map of file names (content-hashed) plus the names the page links to. */
export interface StudioBundle { files: Map<string, StudioFile>; entry: string; css: string }

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/** Bundles assets-ui/studio (Preact SPA, code-split so uPlot loads with the first chart) into {name: text}. */
export async function buildStudioFiles(root = join(import.meta.dir, '../../..')): Promise<Record<string, string>> {
  const r = await Bun.build({
    entrypoints: [join(root, 'assets-ui/studio/main.tsx')], minify: true, target: 'browser', format: 'esm', splitting: true,
    naming: { entry: 'studio-[hash].[ext]', chunk: 'chunk-[hash].[ext]', asset: 'asset-[hash].[ext]' },
  });
  if (!r.success) throw new Error(`studio bundle failed: ${r.logs.map(String).join('\n')}`);
  const out: Record<string, string> = {};
  for (const o of r.outputs) out[o.path.replace(/^.*\//, '')] = await o.text();
  // One stylesheet: uPlot's own rules, then the studio's.
  const css = readFileSync(join(root, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8') + readFileSync(join(root, 'assets-ui/studio/studio.css'), 'utf8');
  out[`studio-${Bun.hash(css).toString(36)}.css`] = css;
  return out;
}

/** Turns {name: text} into served files (gzip once, ETag from the content). */
export function toBundle(texts: Record<string, string>): StudioBundle {
  const files = new Map<string, StudioFile>();
  let entry = '';
  let css = '';
  for (const [name, text] of Object.entries(texts)) {
    const body = new TextEncoder().encode(text);
    const ext = name.slice(name.lastIndexOf('.') + 1);
    files.set(name, { name, body, gzip: Bun.gzipSync(body, { level: 9 }), etag: `"${Bun.hash(body).toString(36)}"`, type: TYPES[ext] ?? 'application/octet-stream' });
    if (/^studio-.*\.js$/.test(name)) entry = name;
    if (ext === 'css') css = name;
  }
  return { files, entry, css };
}

/** The studio's files: prebuilt in the binary, bundled on first use in development (once per process). */
export class StudioFiles {
  private bundle: Promise<StudioBundle> | null = null;

  /** The bundle (built or read once). */
  get(): Promise<StudioBundle> {
    return (this.bundle ??= (async () => {
      const doc = JSON.parse(await Bun.file(prebuilt).text()) as { placeholder?: boolean; files: Record<string, string> };
      return toBundle(doc.placeholder ? await buildStudioFiles() : doc.files);
    })());
  }
}
