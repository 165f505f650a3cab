/** Bitrate of a live channel measured from what it delivers: the newest segment's bytes over its duration (HLS playlists). */

/** kb/s of the newest segment of the first variant of a master playlist, or null when it cannot be read. */
export async function segmentKbps(master: string): Promise<number | null> {
  try {
    const m = await (await fetch(master)).text();
    const variant = m.split('\n').find((l) => l && !l.startsWith('#'));
    if (!variant) return null;
    const vUrl = new URL(variant.trim(), master).href;
    const media = (await (await fetch(vUrl)).text()).split('\n');
    for (let i = media.length - 1; i > 0; i--) {
      const uri = media[i].trim();
      if (!uri || uri.startsWith('#')) continue;
      const inf = media.slice(0, i).reverse().find((l) => l.startsWith('#EXTINF:'));
      const dur = inf ? Number(/#EXTINF:([\d.]+)/.exec(inf)?.[1]) : NaN;
      const head = await fetch(new URL(uri, vUrl).href, { method: 'HEAD' });
      const bytes = Number(head.headers.get('content-length'));
      return dur > 0 && bytes > 0 ? Math.round((bytes * 8) / dur / 1000) : null;
    }
    return null;
  } catch { return null; }
}
