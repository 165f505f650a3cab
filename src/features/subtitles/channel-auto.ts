/**
 * Auto-subtitles for channel recordings (issue 43): every few seconds, programmes whose played end passed at least
 * SETTLE_MS ago (their last segments are indexed by then) get a recognition track per language the tenant's setting
 * names for recordings, unless they have one already, are excluded from catch-up, or have nothing recorded. The
 * position is durable (a named cursor holding epoch ms): a restart neither repeats nor loses programmes; the first
 * start begins from now (programmes that ended before are not recognised retroactively). A pass that finds nothing
 * only reads: the position is written with the tracks it creates, and otherwise at most once a minute (an idle
 * appliance made a write transaction and its WAL fsyncs on the event loop every 2 s here, as the guide clock once
 * did), so after a restart a pass looks back at most a minute further than it ran: over programmes it found none of
 * then (a programme added there since is recognised; `hasProgrammeTrack` never makes a second track).
 */
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { LazyCursor } from '../../kernel/events/cursors';
import { exclusionMatcher } from '../guide/exclusions';
import { exclusionRules, programmesEndingBetween } from '../guide/service';
import { autoRecordingLanguages } from './channel-engine';
import { ChannelSubtitleService } from './channel-service';
import { ChannelTrackStore } from './channel-store';

const CURSOR = 'subtitles-auto-recordings';
/** How long after a programme's end its recording is taken as complete. */
export const SETTLE_MS = 6_000;
const BATCH = 200;
const TICK_MS = 2_000;
/** How far the stored position may lag the in-memory one while no programme ends. */
const IDLE_SAVE_MS = 60_000;

/** Auto-subtitles over one database: `pass(now)` queues the due recognitions and returns how many tracks it created. */
export function channelAuto(ctx: AppContext): { pass(now?: number): number } {
  const cursor = new LazyCursor(ctx.db, CURSOR, IDLE_SAVE_MS);
  return {
    pass(now = ctx.clock.now()): number {
      const upto = now - SETTLE_MS;
      const last = cursor.position(upto);
      if (last === null || upto <= last) return 0;
      const { found, made, next } = passBetween(ctx, last, upto);
      // Written whenever the pass found programmes; a pass that found none only once a minute.
      if (found > 0) { cursor.write(next); cursor.committed(next); } else cursor.idle(next);
      return made;
    },
  };
}

/** The programmes ending in (from, upto]: how many, the tracks created for them, and the position to resume from. */
function passBetween(ctx: AppContext, from: number, upto: number): { found: number; made: number; next: number } {
  const rows = programmesEndingBetween(ctx, from, upto, BATCH);
  const svc = new ChannelSubtitleService(ctx), store = new ChannelTrackStore(ctx.db);
  const rules = new Map<string, (p: (typeof rows)[number]) => boolean>();
  let made = 0;
  for (const p of rows) {
    const langs = autoRecordingLanguages(ctx, p.tenant_id);
    if (!langs.length) continue;
    if (!rules.has(p.tenant_id)) rules.set(p.tenant_id, exclusionMatcher(exclusionRules(ctx, p.tenant_id)));
    if (rules.get(p.tenant_id)!(p)) continue;
    for (const language of langs) {
      if (store.hasProgrammeTrack(p.id, language)) continue;
      try { svc.create(p.tenant_id, p.channel_id, { language, programme_id: p.id }); made++; } catch (e) {
        // Nothing recorded (or the channel gone): nothing to recognise; anything else is a fault.
        if (!(e instanceof AppError)) throw e;
        ctx.log.debug('auto-subtitles: programme skipped', { programme: p.id, language, reason: e.detail });
      }
    }
  }
  // A full batch resumes after its last end (programmes ending at the same ms stay in one batch in practice).
  const last2 = rows[rows.length - 1];
  return { found: rows.length, made, next: rows.length === BATCH && last2 ? (last2.play_end_ms ?? last2.end_ms) : upto };
}

/** Runs a `channelAuto` pass every 2 s until shutdown. */
export function startChannelAutoSubtitles(ctx: AppContext): void {
  const auto = channelAuto(ctx);
  const timer = setInterval(() => {
    try { auto.pass(); } catch (e) { ctx.log.error('auto-subtitles for recordings failed', { error: String(e) }); }
  }, TICK_MS);
  ctx.onStop(() => clearInterval(timer));
}
