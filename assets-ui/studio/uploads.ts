/**
 * Multipart upload of one file through /v1/uploads with the session: parts in parallel (3 at a time), each retried
 * after a network drop, finished parts remembered in localStorage so the same file dropped again after a reload
 * resumes where it stopped.
 */
import { ApiError, type ApiClient } from './api';

/** Answer of POST /v1/uploads. */
interface Session { upload_id: string; key: string; part_size: number; parts: { part_number: number; url: string }[]; expires_at: string }
/** What is remembered of an unfinished upload. */
interface Saved { s: Session; done: Record<number, string> }

/** Progress of one file: bytes sent and the phase. */
export interface Progress { sent: number; phase: 'starting' | 'uploading' | 'completing' | 'done' | 'failed' | 'retrying'; assetId?: string; error?: string; resumed?: boolean }

const PARALLEL = 3;
const TRIES = 6;
/**
 * The storage key of a file: name, size and a SHA-256 of its first and last 64 KiB (the same file picked again
 * after a reload matches even when the browser hands it over as a fresh copy; another file of that name does not).
 */
async function storeKey(f: File): Promise<string> {
  const edge = 65_536;
  const bytes = await new Blob([f.slice(0, edge), f.slice(Math.max(edge, f.size - edge))]).arrayBuffer();
  const hex = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].slice(0, 12).map((b) => b.toString(16).padStart(2, '0')).join('');
  return `vs_up:${f.name}:${f.size}:${hex}`;
}

function load(key: string): Saved | null {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null') as Saved | null;
    return v && Date.parse(v.s.expires_at) > Date.now() + 60_000 ? v : null;
  } catch { return null; }
}
function save(key: string, v: Saved | null): void {
  try { if (v) localStorage.setItem(key, JSON.stringify(v)); else localStorage.removeItem(key); } catch { /* storage full or off */ }
}

/** Uploads a file and completes it into an asset titled after the file; reports progress; resolves with the asset id. */
export async function uploadFile(client: ApiClient, file: File, title: string, report: (p: Progress) => void, signal?: AbortSignal): Promise<string> {
  const key = await storeKey(file);
  let saved = load(key);
  const resumed = !!saved;
  if (!saved) {
    report({ sent: 0, phase: 'starting' });
    const s = await client.api<Session>('POST', '/v1/uploads', { filename: file.name, size_bytes: file.size, content_type: file.type || undefined });
    saved = { s, done: {} };
    save(key, saved);
  }
  const { s, done } = saved;
  const partBytes = (n: number) => Math.min(s.part_size, file.size - (n - 1) * s.part_size);
  const inFlight = new Map<number, number>();
  const doneBytes = () => Object.keys(done).reduce((a, n) => a + partBytes(Number(n)), 0);
  const tell = (phase: Progress['phase']) => report({ sent: doneBytes() + [...inFlight.values()].reduce((a, b) => a + b, 0), phase, resumed });
  tell('uploading');
  const queue = s.parts.filter((p) => !done[p.part_number]);
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      const blob = file.slice((p.part_number - 1) * s.part_size, (p.part_number - 1) * s.part_size + partBytes(p.part_number));
      const u = new URL(p.url, location.href);
      for (let attempt = 1; ; attempt++) {
        try {
          const r = await client.putBytes<{ etag: string }>(u.pathname + u.search, blob, (sent) => { inFlight.set(p!.part_number, sent); tell('uploading'); }, signal);
          inFlight.delete(p.part_number);
          done[p.part_number] = r.etag;
          save(key, saved);
          tell('uploading');
          break;
        } catch (e) {
          inFlight.delete(p.part_number);
          const transient = e instanceof ApiError && (e.status === 0 || e.status === 409 || e.status >= 500 || e.status === 429);
          if (!transient || attempt >= TRIES || signal?.aborted) throw e;
          tell('retrying');
          await new Promise((res) => setTimeout(res, Math.min(8000, 500 * 2 ** attempt)));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length || 1) }, worker));
  tell('completing');
  const parts = s.parts.map((p) => ({ part_number: p.part_number, etag: done[p.part_number] }));
  const asset = await client.api<{ id: string }>('POST', `/v1/uploads/${encodeURIComponent(s.upload_id)}/complete`, { key: s.key, parts, title });
  save(key, null);
  report({ sent: file.size, phase: 'done', assetId: asset.id, resumed });
  return asset.id;
}
