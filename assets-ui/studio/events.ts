/** The tenant's event stream read with fetch (every event type, not only those EventSource was told), resumed after a drop. */
import { useEffect } from 'preact/hooks';

/** One server-sent frame: its event name, id (absent for stats frames) and parsed data. */
export interface Frame { event: string; id: string | null; data: unknown }

/** Opens /v1/events/stream while mounted and calls onFrame for each frame; reconnects with Last-Event-ID after a drop. */
export function useEventStream(onFrame: (f: Frame) => void, query = 'stats_s=5'): void {
  useEffect(() => {
    const stop = new AbortController();
    let last: string | null = null;
    const run = async () => {
      while (!stop.signal.aborted) {
        try {
          const headers: Record<string, string> = { accept: 'text/event-stream' };
          if (last) headers['last-event-id'] = last;
          const r = await fetch(`/v1/events/stream?${query}`, { credentials: 'same-origin', headers, signal: stop.signal });
          if (!r.ok || !r.body) { if (r.status === 401 || r.status === 403) return; throw new Error(String(r.status)); }
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
              onFrame({ event, id, data: parsed });
            }
          }
        } catch { /* dropped: try again */ }
        if (!stop.signal.aborted) await new Promise((res) => setTimeout(res, 2000));
      }
    };
    void run();
    return () => stop.abort();
  }, [query]);
}
