/**
 * WAL checkpoints of the metadata database on a worker thread, for the webhook dispatcher's bookkeeping commits.
 * SQLite checkpoints on the committing thread once the WAL passes 1,000 pages: copying ~4 MB of pages and two
 * fsyncs, 35-50 ms of the event loop on a quiet disk (measured: every 10th fan-out slice of 100 events x 4
 * endpoints), hundreds of ms on a busy one. The dispatcher commits with the automatic checkpoint off (lazyCommit
 * `{ checkpoint: false }`) and nudges this thread instead, which checkpoints PASSIVE on its own connection. Other
 * features' commits keep SQLite's automatic checkpoint (they rarely find 1,000 pages left to copy).
 */
import { checkpointWorkerMain } from './checkpoint-worker';

/** A running checkpoint thread: `nudge()` after a commit (coalesced), `stop()` ends it. */
export interface Checkpointer { nudge(): void; stop(): void; readonly running: boolean }

/**
 * Starts a checkpoint thread for the database file at `path`; checkpoints start at most every `gapMs` while commits
 * nudge it. `onError` hears failures (the next nudge tries again; SQLite's own checkpoint still runs on other commits).
 */
export function startCheckpointer(path: string, gapMs = 100, onError: (e: string) => void = () => {}): Checkpointer {
  const url = URL.createObjectURL(new Blob([`(${checkpointWorkerMain.toString()})()`], { type: 'application/javascript' }));
  const w = new Worker(url);
  (w as Worker & { unref(): void }).unref(); // Bun's Worker; the DOM type lacks it
  let inFlight = false, pending = false, running = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    if (!running || inFlight || !pending) return;
    pending = false;
    inFlight = true;
    w.postMessage({ run: true });
  };
  w.onmessage = (e: MessageEvent<{ done?: boolean; error?: string }>) => {
    if (!e.data?.done) return;
    inFlight = false;
    if (e.data.error) onError(e.data.error);
    if (pending && running && !timer) timer = setTimeout(run, gapMs);
  };
  w.onerror = (e) => { onError(`checkpoint thread failed: ${e.message}`); stop(); };
  w.postMessage({ path });
  function stop(): void {
    if (!running) return;
    running = false;
    if (timer) clearTimeout(timer);
    w.postMessage({ close: true });
    // Let the close message run (it only closes a connection), then end the thread.
    setTimeout(() => { w.terminate(); URL.revokeObjectURL(url); }, 50).unref?.();
  }
  return {
    get running() { return running; },
    nudge() {
      if (!running) return;
      pending = true;
      if (!inFlight && !timer) timer = setTimeout(run, 0);
    },
    stop,
  };
}
