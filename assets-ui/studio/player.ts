/** Our own player (/embed.js) inside the studio: the loader is fetched once, on the first page that shows video. */

type Registry = { create: (host: HTMLElement, attrs: Record<string, string>) => Promise<{ destroy?: () => void } | null> };
const ID = 'vs-studio-embed';

/** Loads /embed.js once (the script element is the only record) and resolves with its registry (window.VSEmbed). */
export function loadPlayer(): Promise<Registry> {
  const w = window as unknown as { VSEmbed?: Registry };
  if (w.VSEmbed) return Promise.resolve(w.VSEmbed);
  return new Promise<Registry>((resolve, reject) => {
    let s = document.getElementById(ID) as HTMLScriptElement | null;
    if (!s) {
      s = document.createElement('script');
      s.id = ID; s.src = '/embed.js'; s.async = true;
      document.head.append(s);
    }
    const el = s;
    el.addEventListener('load', () => (w.VSEmbed ? resolve(w.VSEmbed) : reject(new Error('player did not start'))), { once: true });
    el.addEventListener('error', () => { el.remove(); reject(new Error('player could not be loaded')); }, { once: true });
  });
}
