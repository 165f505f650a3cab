/** One viewing event (fields documented in docs/beacons.md). */
export interface BeaconEvent { e: string; t: number; pos: number; buf: number; [k: string]: unknown }

const VID_KEY = 'vs:vid';

/** The anonymous viewer id (first-party storage; VSEmbed.resetViewer() forgets it). */
export function viewerId(): string {
  try {
    let v = localStorage.getItem(VID_KEY);
    if (!v) { v = crypto.randomUUID(); localStorage.setItem(VID_KEY, v); }
    return v;
  } catch { return crypto.randomUUID(); }
}

/** Forgets the anonymous viewer id. */
export function resetViewer(): void { try { localStorage.removeItem(VID_KEY); } catch { /* storage off */ } }

/**
 * The playback session of a tokenised source (`/t/v1.<payload>.<signature>/…`, a URL signed by POST
 * /v1/playback/tokens or a studio preview): its `sid` claim, which beacons must carry to be counted (the server binds
 * each beacon to the session the issuer created). Null for a source without a token.
 */
export function tokenSid(src: string | null): string | null {
  const m = src ? /\/t\/v1\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\//.exec(src) : null;
  if (!m) return null;
  try {
    const claims = JSON.parse(atob(m[1].replace(/-/g, '+').replace(/_/g, '/'))) as { s?: unknown };
    return typeof claims.s === 'string' ? claims.s : null;
  } catch { return null; }
}

/** Batches events and sends them with sendBeacon (fetch keepalive as fallback); flushes on pagehide. */
export class Beacon {
  private queue: BeaconEvent[] = [];
  private timer: ReturnType<typeof setInterval>;
  private onHide = () => this.flush();
  sid: string;
  constructor(private url: string, private head: { tenant: string | null; kind: string | null; id: string | null; src: string | null }, sid: string | null) {
    this.sid = sid ?? crypto.randomUUID();
    this.timer = setInterval(() => this.flush(), 10_000);
    addEventListener('pagehide', this.onHide);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'hidden') this.flush(); });
  }
  /** Queues an event; 50 queued events flush at once. */
  push(ev: BeaconEvent): void {
    this.queue.push(ev);
    if (this.queue.length >= 50) this.flush();
  }
  /** Sends what is queued. */
  flush(): void {
    if (!this.queue.length) return;
    const events = this.queue.splice(0, 200);
    const body = JSON.stringify({ v: 1, sid: this.sid, vid: viewerId(), tenant: this.head.tenant, host: location.host, url: location.href.slice(0, 2000), kind: this.head.kind, id: this.head.id, src: this.head.src, sent: Date.now(), events });
    let ok = false;
    try { ok = navigator.sendBeacon?.(this.url, new Blob([body], { type: 'text/plain' })) ?? false; } catch { ok = false; }
    if (!ok) void fetch(this.url, { method: 'POST', body, keepalive: true, mode: 'cors', credentials: 'omit', headers: { 'content-type': 'text/plain' } }).catch(() => {});
  }
  destroy(): void { this.flush(); clearInterval(this.timer); removeEventListener('pagehide', this.onHide); }
}
