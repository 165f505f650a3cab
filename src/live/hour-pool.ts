/**
 * Lists and summarises hour directories on worker threads (startup reconciliation from nothing, where listing
 * every hour is the cost: 15.8 M names per channel-year, most of it the kernel's own htree readdir, ~0.45 µs per name
 * on ext4), beside the calling thread. Each thread lists with hour-list.ts (getdents64 into one buffer, names parsed
 * from the bytes) and the one summary rule (hours.ts `summarizeStarts`, the same code), and a worker answers only
 * four numbers per hour. Workers are unref'd, so they never keep the process alive, and the pool is closed when the
 * reconciliation is done. Whatever a worker fails to answer is listed on the calling thread instead
 * (`listHoursSync`): workers only speed it up, they never change a summary.
 */
import { availableParallelism } from 'node:os';
import { nameParsers } from './hours';
import { hourLister, type ListHour } from './hour-list';
import { hourWorkerMain } from './hour-worker';

/** Hours per message: small enough to balance two workers, large enough that messages cost nothing. */
const CHUNK = 6;
/** Below this many hours to list, workers are not worth starting (a worker starts in ~10-20 ms). */
export const MIN_HOURS_FOR_WORKERS = 48;

let url: string | null = null;

/** From this many hours on, a sync listing loads the native lister (~1 ms) rather than making strings of every name. */
const MIN_HOURS_FOR_NATIVE = 8;

/**
 * Summaries of `paths` listed on this thread: 4 numbers per path as hour-worker.ts answers them (hour-list.ts).
 * `listHour` is the thread's lister when the caller keeps one.
 */
export function listHoursSync(paths: string[], target: number, inits: number[], out = new Float64Array(paths.length * 4), at = 0, listHour?: ListHour): Float64Array {
  if (!paths.length) return out;
  const list = listHour ?? hourLister(nameParsers, paths.length >= MIN_HOURS_FOR_NATIVE).listHour;
  for (let i = 0; i < paths.length; i++) list(paths[i], target, inits, out, (at + i) * 4);
  return out;
}

interface Job { paths: string[]; at: number }
type Answer = { id: number; out?: Float64Array; error?: string };

/**
 * A pool of hour-listing workers (one per core beside the calling thread, 1 to 3; the calling thread lists too).
 * `close()` ends them.
 */
export class HourPool {
  private workers: Worker[] = [];
  private failed = false;
  /** This thread's lister (it lists beside the workers), loaded on first use. */
  private own: ListHour | null = null;

  constructor(private size = Math.max(1, Math.min(3, availableParallelism() - 1))) {}

  private start(): boolean {
    if (this.workers.length || this.failed) return !this.failed;
    try {
      url ??= URL.createObjectURL(new Blob([`(${hourWorkerMain.toString()})(${nameParsers.toString()}, ${hourLister.toString()})`], { type: 'application/javascript' }));
      for (let i = 0; i < this.size; i++) {
        const w = new Worker(url);
        (w as Worker & { unref(): void }).unref(); // Bun's Worker; the DOM type lacks it
        this.workers.push(w);
      }
    } catch {
      this.close();
      this.failed = true;
    }
    return !this.failed;
  }

  /**
   * Summaries of `paths` (4 numbers per path, in order), listed on the workers; chunks a worker did not answer
   * (it failed, crashed or could not start) are listed on this thread.
   */
  async list(paths: string[], target: number, inits: number[]): Promise<Float64Array> {
    const out = new Float64Array(paths.length * 4);
    const queue: Job[] = [];
    for (let at = 0; at < paths.length; at += CHUNK) queue.push({ paths: paths.slice(at, at + CHUNK), at });
    const leftover: Job[] = [];
    const drains = this.start() ? this.workers.map((w) => this.drain(w, queue, leftover, out, target, inits)) : [];
    const own = (this.own ??= hourLister(nameParsers).listHour);
    // This thread takes chunks from the same queue meanwhile (it is warm while the workers still start), yielding
    // between chunks so the workers' answers are taken in and they are given more.
    for (let j = queue.shift(); j; j = queue.shift()) {
      listHoursSync(j.paths, target, inits, out, j.at, own);
      await new Promise<void>((r) => setImmediate(r));
    }
    await Promise.all(drains);
    for (const j of leftover) listHoursSync(j.paths, target, inits, out, j.at, own);
    return out;
  }

  /** Feeds one worker chunks from the shared queue until it is empty (two in flight, so the worker never waits). */
  private drain(w: Worker, queue: Job[], leftover: Job[], out: Float64Array, target: number, inits: number[]): Promise<void> {
    return new Promise<void>((resolve) => {
      const inFlight = new Map<number, Job>();
      let nextId = 1, dead = false;
      const give = () => {
        const j = queue.shift();
        if (!j) return;
        const id = nextId++;
        inFlight.set(id, j);
        w.postMessage({ id, paths: j.paths, target, inits });
      };
      const finish = () => {
        w.removeEventListener('message', onMessage); w.removeEventListener('error', onFail); w.removeEventListener('close', onFail);
        resolve();
      };
      const onMessage = (e: MessageEvent<Answer>) => {
        const j = inFlight.get(e.data.id);
        if (!j || dead) return;
        inFlight.delete(e.data.id);
        if (e.data.out && e.data.out.length === j.paths.length * 4) out.set(e.data.out, j.at * 4);
        else leftover.push(j);
        give();
        if (!inFlight.size) finish();
      };
      const onFail = () => {
        // The worker is gone: what it held (and, with no worker left to take it, the queue) is listed here.
        dead = true;
        leftover.push(...inFlight.values());
        inFlight.clear();
        this.drop(w);
        if (!this.workers.length) leftover.push(...queue.splice(0));
        finish();
      };
      w.addEventListener('message', onMessage);
      w.addEventListener('error', onFail);
      w.addEventListener('close', onFail);
      give(); give();
      if (!inFlight.size) finish();
    });
  }

  private drop(w: Worker): void {
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    try { w.terminate(); } catch { /* already gone */ }
  }

  /** Ends the workers. */
  close(): void {
    for (const w of this.workers.splice(0)) try { w.terminate(); } catch { /* already gone */ }
  }
}
