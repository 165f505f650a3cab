/**
 * The tenant's event stream read with fetch (every event type, not only those EventSource was told), resumed after a
 * drop. Every subscriber of the same query shares one connection (the appliance caps open streams per session).
 */
import { useEffect, useRef } from 'preact/hooks';

/** One server-sent frame: its event name, id (absent for stats frames) and parsed data. */
export interface Frame { event: string; id: string | null; data: unknown }

/** The webhook envelope an event frame carries (`data` is the event's own data). */
export interface Envelope { id: string; type: string; at: string; data?: Record<string, unknown> }

/** The asset events the library, the uploader and the asset page follow. */
export const ASSET_EVENTS = 'types=asset.preview_ready,asset.ready,asset.failed,asset.published';

interface Listener { frame: (f: Frame) => void; open?: () => void }
interface Shared { listeners: Set<Listener>; stop: AbortController; open: boolean }
const shared = new Map<string, Shared>();

/** Reads one stream until stopped: reconnects after a drop with Last-Event-ID; gives up on 401/403. */
async function run(query: string, s: Shared): Promise<void> {
  let last: string | null = null;
  while (!s.stop.signal.aborted) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (last) headers['last-event-id'] = last;
      const r = await fetch(`/v1/events/stream?${query}`, { credentials: 'same-origin', headers, signal: s.stop.signal });
      if (!r.ok || !r.body) { if (r.status === 401 || r.status === 403) return; throw new Error(String(r.status)); }
      // Connected: the server has fixed where this stream starts, so a state read now misses no later event.
      s.open = true;
      for (const l of [...s.listeners]) l.open?.();
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
          let event = 'message'; let id: string | null = null; const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (!data.length) continue;
          if (id) last = id;
          let parsed: unknown = null;
          try { parsed = JSON.parse(data.join('\n')); } catch { parsed = data.join('\n'); }
          for (const l of [...s.listeners]) l.frame({ event, id, data: parsed });
        }
      }
    } catch { /* dropped: try again */ }
    s.open = false;
    if (!s.stop.signal.aborted) await new Promise((res) => setTimeout(res, 2000));
  }
}

/**
 * Subscribes to the stream of `query` (one shared connection per query, closed with its last subscriber); `onOpen`
 * runs once the stream is connected (at once when it already is) and after every reconnect, so a subscriber can read
 * the current state without missing an event in between. Returns the unsubscribe function.
 */
export function subscribeEvents(query: string, onFrame: (f: Frame) => void, onOpen?: () => void): () => void {
  let s = shared.get(query);
  if (!s) {
    s = { listeners: new Set(), stop: new AbortController(), open: false };
    shared.set(query, s);
    void run(query, s);
  }
  const l: Listener = { frame: onFrame, open: onOpen };
  s.listeners.add(l);
  if (s.open) onOpen?.();
  const mine = s;
  return () => {
    mine.listeners.delete(l);
    if (!mine.listeners.size) { mine.stop.abort(); if (shared.get(query) === mine) shared.delete(query); }
  };
}

/** Follows /v1/events/stream while mounted and calls onFrame (its latest version) for each frame. */
export function useEventStream(onFrame: (f: Frame) => void, query = 'stats_s=5', onOpen?: () => void): void {
  const frame = useRef(onFrame);
  const open = useRef(onOpen);
  frame.current = onFrame;
  open.current = onOpen;
  useEffect(() => subscribeEvents(query, (f) => frame.current(f), () => open.current?.()), [query]);
}
