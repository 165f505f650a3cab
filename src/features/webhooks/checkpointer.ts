/**
 * WAL checkpoints of the metadata database on a worker thread, for the webhook dispatcher's bookkeeping commits.
 * SQLite checkpoints on the committing thread once the WAL passes 1,000 pages: copying ~4 MB of pages and two
 * fsyncs, 35-50 ms of the event loop on a quiet disk (measured: every 10th fan-out slice of 100 events x 4
 * endpoints), hundreds of ms on a busy one. The dispatcher commits with the automatic checkpoint off (lazyCommit
 * `{ checkpoint: false }`) and nudges this thread instead, which checkpoints PASSIVE on its own connection.
 * With `owner` (the process's main connection), no commit on that connection checkpoints while the thread runs
 * (wal_autocheckpoint 0, restored when it stops or fails), and the thread also runs every `everyMs`: under a burst
 * the WAL is never fully copied at the instant a writer starts, so it never restarts and stays past 1,000 pages,
 * and every other feature's commit then ran a checkpoint on the event loop (measured: the guide clock's once-a-second
 * commit took 55-140 ms, three fsyncs, during the webhook burst).
 */
import type { Database } from 'bun:sqlite';
import { checkpointWorkerMain } from './checkpoint-worker';

/** A running checkpoint thread: `nudge()` after a commit (coalesced), `stop()` ends it. */
export interface Checkpointer { nudge(): void; stop(): void; readonly running: boolean; /** Checkpoint runs started so far. */ readonly runs: number }

/** Optional: the connection whose own checkpoints this thread takes over, and how often it runs unprompted. */
export interface CheckpointerOptions { owner?: Database; everyMs?: number }

/**
 * Starts a checkpoint thread for the database file at `path`; checkpoints start at most every `gapMs` while commits
 * nudge it. `onError` hears failures (the next nudge tries again; SQLite's own checkpoint still runs on other commits,
 * and after 3 failures in a row the thread stops and hands the owner connection its automatic checkpoint back).
 */
export function startCheckpointer(path: string, gapMs = 100, onError: (e: string) => void = () => {}, opts: CheckpointerOptions = {}): Checkpointer {
  const url = URL.createObjectURL(new Blob([`(${checkpointWorkerMain.toString()})()`], { type: 'application/javascript' }));
  const w = new Worker(url);
  (w as Worker & { unref(): void }).unref(); // Bun's Worker; the DOM type lacks it
  let inFlight = false, pending = false, running = true, failures = 0, runs = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    if (!running || inFlight || !pending) return;
    pending = false;
    inFlight = true;
    runs++;
    w.postMessage({ run: true });
  };
  w.onmessage = (e: MessageEvent<{ done?: boolean; error?: string }>) => {
    if (!e.data?.done) return;
    inFlight = false;
    failures = e.data.error ? failures + 1 : 0;
    if (e.data.error) onError(e.data.error);
    if (failures >= 3) { onError('checkpoint thread stopped after 3 failures in a row'); stop(); return; }
    if (pending && running && !timer) timer = setTimeout(run, gapMs);
  };
  w.onerror = (e) => { onError(`checkpoint thread failed: ${e.message}`); stop(); };
  w.postMessage({ path });
  const owner = opts.owner;
  const ownerAuto = owner?.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint ?? 0;
  if (owner && ownerAuto > 0) owner.exec('PRAGMA wal_autocheckpoint = 0');
  // The unprompted run is skipped while nothing was committed on the owner since the last one (an idle appliance then
  // never wakes the thread: it cost ~0.6 % of a core in empty checkpoints). Without an owner it always runs.
  const ownerChanges = owner?.query<{ n: number }, []>('SELECT total_changes() AS n');
  let seenChanges: number | null = null;
  const every = opts.everyMs ? setInterval(() => {
    let n: number | null;
    try { n = ownerChanges?.get()?.n ?? null; } catch { return; } // the owner connection is closing: stop() follows
    if (n !== null && n === seenChanges) return;
    seenChanges = n;
    nudge();
  }, opts.everyMs) : null;
  (every as { unref?: () => void } | null)?.unref?.();
  function stop(): void {
    if (!running) return;
    running = false;
    if (timer) clearTimeout(timer);
    if (every) clearInterval(every);
    if (owner && ownerAuto > 0) {
      try { owner.exec(`PRAGMA wal_autocheckpoint = ${ownerAuto}`); } catch { /* connection already closed */ }
    }
    w.postMessage({ close: true });
    // Let the close message run (it only closes a connection), then end the thread.
    setTimeout(() => { w.terminate(); URL.revokeObjectURL(url); }, 50).unref?.();
  }
  function nudge(): void {
    if (!running) return;
    pending = true;
    if (!inFlight && !timer) timer = setTimeout(run, 0);
  }
  return { get running() { return running; }, get runs() { return runs; }, nudge, stop };
}
