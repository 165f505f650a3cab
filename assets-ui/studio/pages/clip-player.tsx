/** Our player (/embed.js) for a clip, a programme or a previewed range: re-created when the source changes. */
import { useEffect, useRef } from 'preact/hooks';
import { useStudio } from '../ctx';
import { loadPlayer } from '../player';

/** Pauses every other video of the page when one starts playing: one player plays at a time. */
function onlyOne(host: HTMLElement): () => void {
  const play = (e: Event) => {
    document.querySelectorAll('video').forEach((v) => { if (v !== e.target && !v.paused) v.pause(); });
  };
  host.addEventListener('play', play, true);
  return () => host.removeEventListener('play', play, true);
}

/** A player host playing `src` muted (the studio shows, the person unmutes); starting it pauses the page's other players. */
export function RangePlayer({ src, id }: { src: string; id: string }) {
  const { me } = useStudio();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => onlyOne(host.current!), []);
  useEffect(() => {
    let p: { destroy?: () => void } | null = null;
    let gone = false;
    loadPlayer().then((r) => r.create(host.current!, { src, tenant: me?.current_tenant?.slug ?? '', muted: '1', autoplay: '1' }))
      .then((x) => { if (gone) x?.destroy?.(); else p = x; }, () => {});
    return () => { gone = true; p?.destroy?.(); host.current?.replaceChildren(); };
  }, [src]);
  return <div ref={host} class="player-host" id={id} />;
}

/** The catch-up address of a recorded range of a channel, built from the channel's live address (same delivery host). */
export function rangeUrl(liveHls: string, slug: string, tenant: string, from: number, to: number): string {
  const cut = liveHls.indexOf('/live/');
  const base = cut >= 0 ? liveHls.slice(0, cut) : '';
  return `${base}/m/catchup/${encodeURIComponent(slug)}/${Math.round(from)}/${Math.round(to)}/master.m3u8?c=${encodeURIComponent(tenant)}`;
}
