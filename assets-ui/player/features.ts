/** One thumbnail cue of a sprite VTT: time range and the sprite rectangle. */
export interface ThumbCue { start: number; end: number; url: string; x: number; y: number; w: number; h: number }

const ts = (s: string) => { const p = s.trim().split(':').map(Number); return p.reduce((a, v) => a * 60 + v, 0); };

/** Parses a sprite thumbnails WebVTT (cue text `sprite.jpg#xywh=x,y,w,h`, relative to the VTT's address). */
export function parseThumbVtt(text: string, base: string): ThumbCue[] {
  const out: ThumbCue[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*([\d:.]+)\s+-->\s+([\d:.]+)/.exec(lines[i]);
    if (!m) continue;
    const ref = (lines[i + 1] ?? '').trim();
    const h = /^(.*?)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(ref);
    if (!h) continue;
    out.push({ start: ts(m[1]), end: ts(m[2]), url: new URL(h[1], base).href, x: +h[2], y: +h[3], w: +h[4], h: +h[5] });
  }
  return out;
}

/** Parses a chapters WebVTT into {start, title}. */
export function parseChapterVtt(text: string): { start: number; title: string }[] {
  const out: { start: number; title: string }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*([\d:.]+)\s+-->/.exec(lines[i]);
    if (m && lines[i + 1]) out.push({ start: ts(m[1]), title: lines[i + 1].trim() });
  }
  return out;
}

/** Remembered playback positions (resume), keyed by content. */
export const resumeStore = {
  get(key: string): number | null {
    try { const v = Number(localStorage.getItem(`vs:pos:${key}`)); return v > 0 ? v : null; } catch { return null; }
  },
  set(key: string, pos: number): void { try { localStorage.setItem(`vs:pos:${key}`, String(Math.floor(pos))); } catch { /* storage off */ } },
  clear(key: string): void { try { localStorage.removeItem(`vs:pos:${key}`); } catch { /* storage off */ } },
};

/** A playback session answer from POST /v1/playback/session. */
export interface SessionAnswer { src: string; token: string; sid: string; expires_at: string; protected: boolean; thumbs?: string }

/** Opens a playback session (the hosted pages' way to get a tokenised URL); throws with `.status` (and `.reason`) on refusal. */
export async function openSession(api: string, tenant: string, target: Record<string, unknown>): Promise<SessionAnswer> {
  const r = await fetch(`${api}/v1/playback/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenant, ...target, page_origin: location.origin }),
  });
  // `reason`: why the issuer refused (`blackout`: a geo blackout; the player shows its slate).
  if (!r.ok) throw Object.assign(new Error(`session ${r.status}`), { status: r.status, reason: r.headers.get('x-vs-refusal') });
  return r.json() as Promise<SessionAnswer>;
}
