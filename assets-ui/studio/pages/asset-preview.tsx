/**
 * Our player for one asset in the studio. A ready asset plays through a studio preview session (POST
 * /v1/playback/preview), so its beacons are marked as studio playback and never count as audience. An asset still
 * processing plays its upload's preview the moment one exists: `asset.preview_ready` on the event stream, or already
 * there when the stream connects; the player then stays on that address through ready (it answers the ladder's master).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { ASSET_EVENTS, subscribeEvents, type Envelope } from '../events';
import { loadPlayer } from '../player';

type Source = { src: string; studio: boolean };

/** The studio's player of asset `id`: `ready` when the asset is ready (a studio session), else it waits for the preview. */
export function AssetPlayer(p: { id: string; ready: boolean; poster?: string; title?: string; autoplay?: boolean; hostId?: string; waiting?: ComponentChildren; onError?: (e: string) => void }) {
  const { me, api } = useStudio();
  const tenant = me?.current_tenant ?? null;
  const host = useRef<HTMLDivElement>(null);
  const [source, setSource] = useState<Source | null>(null);
  const [state, setState] = useState<'waiting' | 'preview' | 'playing'>('waiting');
  const started = useRef(false);
  // A ready asset: one studio session. A working one: the preview address once it answers.
  useEffect(() => {
    if (!tenant || started.current) return;
    let gone = false;
    void loadPlayer().catch(() => {}); // the player's script loads while the preview is being made
    if (p.ready) {
      api<{ src: string }>('POST', '/v1/playback/preview', { asset: p.id })
        .then((r) => { if (!gone && !started.current) { started.current = true; setSource({ src: r.src, studio: true }); } }, (e) => p.onError?.(errorWords(e)));
      return () => { gone = true; };
    }
    const url = `/m/${encodeURIComponent(tenant.id)}/assets/${encodeURIComponent(p.id)}/preview/master.m3u8`;
    const take = () => { if (!gone && !started.current) { started.current = true; setSource({ src: url, studio: false }); } };
    const probe = () => { void fetch(url, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' }).then((r) => { if (r.ok) take(); }, () => {}); };
    const off = subscribeEvents(ASSET_EVENTS, (f) => {
      const d = (f.data as Envelope | null)?.data;
      if (d?.asset === p.id && (f.event === 'asset.preview_ready' || f.event === 'asset.ready')) take();
    }, probe);
    return () => { gone = true; off(); };
  }, [p.id, p.ready, tenant?.id]);
  useEffect(() => {
    if (!source || !host.current || !tenant) return;
    let player: { destroy?: () => void } | null = null;
    let gone = false;
    host.current.replaceChildren();
    // The preview of a working asset has no session to bind beacons to: it reports nothing.
    const attrs: Record<string, string> = { src: source.src, tenant: tenant.slug, poster: p.poster ?? '', title: p.title ?? '' };
    if (!source.studio) { attrs.beacon = '0'; attrs.muted = '1'; }
    if (p.autoplay || !source.studio) attrs.autoplay = '1';
    loadPlayer().then((reg) => reg.create(host.current!, attrs))
      .then((pl) => { if (gone) pl?.destroy?.(); else { player = pl; setState(source.studio ? 'playing' : 'preview'); } }, (e) => p.onError?.(errorWords(e)));
    return () => { gone = true; player?.destroy?.(); };
  }, [source]);
  return (
    <>
      {!source && p.waiting}
      <div ref={host} class="player-host" id={p.hostId} hidden={!source} data-asset={p.id} data-state={state} data-studio={source?.studio ? '1' : '0'} />
    </>
  );
}
