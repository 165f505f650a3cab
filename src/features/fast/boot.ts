/**
 * FAST at start: the live engine is told which channels a schedule airs (a source factory: a started channel with
 * an enabled schedule runs a FastRuntime instead of its ingest inputs), and generated guides are kept ahead.
 */
import type { AppContext } from '../../kernel/context';
import { FastRuntime } from '../../live/fast-runtime';
import { setSourceFactory } from '../../live/fast-source';
import { syncGuides } from './guide-sync';
import { FastService } from './service';

/** How often generated guides are checked (a schedule change or a finished prep shows within this). */
const GUIDE_EVERY_MS = 5_000;

/** Registers the FAST source factory with the live engine (call before it starts) and starts the guide keeper. */
export function startFast(ctx: AppContext): void {
  const svc = new FastService(ctx);
  setSourceFactory(ctx.db, (ch, store) => {
    const s = svc.store.schedule(ch.id);
    return s?.enabled ? new FastRuntime(ctx, store, ch, () => svc.program(ch.id)) : null;
  });
  const timer = setInterval(() => syncGuides(ctx), GUIDE_EVERY_MS);
  ctx.onStop(() => { clearInterval(timer); setSourceFactory(ctx.db, null); });
}
