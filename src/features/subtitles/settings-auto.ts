/**
 * Auto subtitles of new assets: follows the outbox (durable cursor `subtitles-auto`) and, for each `asset.ready`, queues
 * a recognition track for every language in the tenant's `auto_subtitles.assets` that the asset has no track of yet
 * (a re-encode that announces the asset ready again adds none). Starts at the outbox head on first run: assets that
 * were ready before the feature existed are left alone.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { outboxCursor, outboxHead, setOutboxCursor } from '../../kernel/events/cursors';
import { eventsAfter, onOutbox } from '../../kernel/events/outbox';
import { AppError } from '../../kernel/errors';
import { autoLanguages } from './settings-service';
import { SubtitleService } from './service';

const CURSOR = 'subtitles-auto';
const BATCH = 200;

/** Handles the outbox events after the cursor (one batch); returns how many tracks it queued. */
export function autoSubtitlePass(ctx: AppContext): number {
  let seq = outboxCursor(ctx.db, CURSOR);
  // Never run (0): start at the head (-1 on an empty outbox, so its first event is still read).
  if (seq === 0) { setOutboxCursor(ctx.db, CURSOR, outboxHead(ctx.db) || -1); return 0; }
  const events = eventsAfter(ctx.db, seq, BATCH);
  if (!events.length) return 0;
  const svc = new SubtitleService(ctx);
  let queued = 0;
  tx(ctx.db, () => {
    for (const e of events) {
      seq = e.seq;
      if (e.type !== 'asset.ready') continue;
      const assetId = (e.data as { asset?: string } | null)?.asset;
      if (!assetId) continue;
      const langs = autoLanguages(ctx, e.tenant_id, 'assets');
      if (!langs.length) continue;
      let have: Set<string>;
      try { have = new Set(svc.list(e.tenant_id, assetId).map((t) => t.language)); } catch (err) {
        if (err instanceof AppError && err.status === 404) continue; // deleted since
        throw err;
      }
      for (const language of langs) {
        if (have.has(language)) continue;
        try {
          svc.createAsr(e.tenant_id, assetId, { language, kind: 'subtitles', label: null }, null);
          queued++;
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          ctx.log.warn('auto subtitles: no track queued', { asset: assetId, language, error: err.detail });
        }
      }
    }
    setOutboxCursor(ctx.db, CURSOR, seq);
  });
  return queued + (events.length === BATCH ? autoSubtitlePass(ctx) : 0);
}

/** Starts following the outbox for auto subtitles (woken by new events, and every 5 s); stops on shutdown. */
export function startAutoSubtitles(ctx: AppContext): void {
  let stopped = false, scheduled = false;
  const run = () => {
    scheduled = false;
    if (stopped) return;
    try { autoSubtitlePass(ctx); } catch (e) { ctx.log.error('auto subtitles failed', { error: String(e) }); }
  };
  const unsubscribe = onOutbox(() => { if (!scheduled && !stopped) { scheduled = true; setTimeout(run, 50); } });
  const timer = setInterval(run, 5000);
  run();
  ctx.onStop(() => { stopped = true; unsubscribe(); clearInterval(timer); });
}
