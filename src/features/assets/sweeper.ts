import type { AppContext } from '../../kernel/context';
import { AssetService } from './service';

/** Purges trashed assets past their tenant's retention, at start and every ten minutes. */
export function startTrashSweeper(ctx: AppContext): void {
  const svc = new AssetService(ctx);
  const run = () => {
    try {
      const n = svc.sweepTrash();
      if (n) ctx.log.info('trash retention purged assets', { assets: n });
    } catch (e) { ctx.log.warn('trash sweep failed', { error: String(e) }); }
  };
  run();
  const timer = setInterval(run, 600_000);
  ctx.onStop(() => clearInterval(timer));
}
