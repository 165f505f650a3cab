/** Our own player (/embed.js) inside the studio: the loader is fetched once, on the first page that shows video. */

type Registry = { create: (host: HTMLElement, attrs: Record<string, string>) => Promise<{ destroy?: () => void } | null> };
let loading: Promise<Registry> | null = null;

/** Loads /embed.js once and resolves with its registry (window.VSEmbed). */
export function loadPlayer(): Promise<Registry> {
  const w = window as unknown as { VSEmbed?: Registry };
  if (w.VSEmbed) return Promise.resolve(w.VSEmbed);
  return (loading ??= new Promise<Registry>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = '/embed.js';
    s.async = true;
    s.onload = () => (w.VSEmbed ? resolve(w.VSEmbed) : reject(new Error('player did not start')));
    s.onerror = () => { loading = null; reject(new Error('player could not be loaded')); };
    document.head.append(s);
  }));
}
