/**
 * Guide entries generated from FAST schedules: every enabled schedule whose programme is prepared gets its next
 * `guide_hours` written into the channel's guide as one replace (source `fast`: one programme per airing of an
 * asset, its loops and breaks folded in), when its programme changed (a new schedule version, a prep finished) and
 * again once a quarter of the window has passed. Goes through the guide service, so review mode, the lock window and versions apply as to any import.
 */
import type { AppContext } from '../../kernel/context';
import { newId } from '../../kernel/ids';
import { slotKey } from '../../kernel/slots';
import { GuideService } from '../guide/service';
import type { Program, WalkEntry } from './program';
import { FastService } from './service';

/** When each channel's guide was last generated (schedule version and programme key) and how far. */
const SYNCED = slotKey<Map<string, { prog: Program; at: number }>>('fast.guide-synced');

/** Airings folded into guide programmes: breaks join the programme they interrupt, loops of one asset join. */
export function guideProgrammes(entries: WalkEntry[]): { title: string; startMs: number; endMs: number; assetId: string | null }[] {
  const out: { title: string; startMs: number; endMs: number; assetId: string | null }[] = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    if (last && last.endMs === e.startMs && (e.kind === 'break' || last.assetId === e.assetId)) { last.endMs = e.endMs; continue; }
    if (e.kind === 'break' && !last) continue;
    out.push({ title: e.title, startMs: e.startMs, endMs: e.endMs, assetId: e.assetId });
  }
  return out;
}

/** Writes one channel's generated guide for [now, now + guide_hours) when due; returns the programmes written (0: not due). */
export function syncGuide(ctx: AppContext, channelId: string, force = false): number {
  const fast = new FastService(ctx);
  const row = fast.store.schedule(channelId);
  if (!row?.enabled) return 0;
  const prog = fast.program(channelId);
  if (!prog) return 0;
  const done = ctx.slots.get(SYNCED, () => new Map());
  const now = ctx.clock.now();
  const last = done.get(channelId);
  if (!force && last && last.prog === prog && now - last.at < row.guide_hours * 900_000) return 0;
  const guide = new GuideService(ctx);
  const ch = guide.channel(row.tenant_id, channelId);
  const w = prog.walk(now, now + row.guide_hours * 3_600_000, 20_000);
  const progs = guideProgrammes(w.entries);
  if (!progs.length) return 0;
  const from = progs[0].startMs, to = progs[progs.length - 1].endMs;
  guide.submit(ch, {
    op: 'replace', kind: 'import', from, to,
    programmes: progs.map((p) => ({ id: newId(), title: p.title, description: null, series: null, episode: null, images: '{}', start_ms: p.startMs, end_ms: p.endMs, source: 'fast' })),
  }, 'fast');
  done.set(channelId, { prog, at: now });
  return progs.length;
}

/** Runs `syncGuide` over every enabled schedule (errors are logged, one channel never stops the others). */
export function syncGuides(ctx: AppContext): void {
  for (const r of new FastService(ctx).store.enabled()) {
    try { syncGuide(ctx, r.channel_id); } catch (e) { ctx.log.warn('FAST guide not generated', { channel: r.channel_id, error: String(e) }); }
  }
}
