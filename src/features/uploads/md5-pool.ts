/**
 * MD5 of byte ranges of files on worker threads, so hashing a part runs beside the thread that receives and
 * writes it. Workers read back what was written (page cache), never hold part bytes in the process heap, and are
 * unref'd so they never keep the process alive.
 */
import { availableParallelism } from 'node:os';
import { md5WorkerMain } from './md5-worker';

interface Pending { resolve?(hex: string): void; reject?(e: Error): void; error?: string }
interface PoolWorker { w: Worker; jobs: Map<number, Pending> }

/** Workers: one per spare core, at least 2 (measured on 2 cores: the hash of 1 GiB, ~2.2 CPU-s, was the tail). */
const SIZE = Math.max(2, Math.min(4, availableParallelism() - 1));
const pool: PoolWorker[] = [];
let url: string | null = null;
let nextId = 1;

function spawn(): PoolWorker {
  url ??= URL.createObjectURL(new Blob([`(${md5WorkerMain.toString()})()`], { type: 'application/javascript' }));
  const pw: PoolWorker = { w: new Worker(url), jobs: new Map() };
  pw.w.onmessage = (e: MessageEvent<{ id: number; hex?: string; error?: string }>) => {
    const p = pw.jobs.get(e.data.id);
    if (!p) return;
    if (!p.resolve || !p.reject) { p.error = e.data.error ?? 'md5 worker failed'; return; } // reported at finish
    pw.jobs.delete(e.data.id);
    if (e.data.hex !== undefined) p.resolve(e.data.hex);
    else p.reject(new Error(e.data.error ?? 'md5 worker failed'));
  };
  pw.w.onerror = (e) => {
    const i = pool.indexOf(pw);
    if (i >= 0) pool.splice(i, 1);
    for (const p of pw.jobs.values()) { p.error = `md5 worker crashed: ${e.message}`; p.reject?.(new Error(p.error)); }
    pw.w.terminate();
  };
  (pw.w as Worker & { unref(): void }).unref(); // Bun's Worker; the DOM type lacks it
  pool.push(pw);
  return pw;
}

/** The least busy worker, starting another while the pool is below its size. */
function pick(): PoolWorker {
  const idle = pool.find((p) => p.jobs.size === 0);
  if (idle) return idle;
  if (pool.length < SIZE) return spawn();
  return pool.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
}

/** A running MD5 of a file range: report written bytes with `progress`, then `finish` for the hex digest. */
export interface RangeHash { progress(length: number): void; finish(length: number): Promise<string>; abort(): void }

/** Starts hashing `file` from `offset`; bytes count only once `progress`/`finish` says they are written. */
export function hashRange(file: string, offset: number): RangeHash {
  const pw = pick();
  const id = nextId++;
  const job: Pending = {};
  pw.jobs.set(id, job);
  pw.w.postMessage({ id, file, at: offset });
  let open = true;
  return {
    progress(length) { if (open) pw.w.postMessage({ id, to: offset + length }); },
    finish(length) {
      if (!open) return Promise.reject(new Error('hash already finished'));
      open = false;
      return new Promise<string>((resolve, reject) => {
        if (job.error !== undefined) { pw.jobs.delete(id); return reject(new Error(job.error)); }
        job.resolve = resolve;
        job.reject = reject;
        pw.w.postMessage({ id, to: offset + length, end: true });
      });
    },
    abort() {
      if (!open) return;
      open = false;
      pw.jobs.delete(id);
      pw.w.postMessage({ id, drop: true });
    },
  };
}
