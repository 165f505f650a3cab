import { constants, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../kernel/context';
import { tx } from '../kernel/db/sqlite';
import type { LiveChannel, LiveChannelStore } from './model';
import type { FastProgram, FastSlot, LiveSource } from './fast-source';
import { addMarker } from './fast-markers';
import { initTracks } from './mp4';
import { codecsOf, resolutionOf } from './playlist';
import { commitSegment } from './recorder';
import { leadTime, shiftTo, type Shift } from './rebase';
import { scratchDir } from './paths';
import { SegmentIndex } from './segment-index';

/** How far back a channel that starts (or resumes after a pause) fills its timeline, so players find a window at once. */
const BACKFILL_MS = 12_000;
/** How often the runtime looks for slots that have ended (a segment is listed at most this late). */
const TICK_MS = 250;
/** Segments aired per tick at most (a paused process catches up over a few ticks). */
const PER_TICK = 8;

type Tracks = Map<number, { timescale: number; kind: string }>;

/**
 * A channel aired from prepared library segments by wall clock (FAST, issue 48): no ingest, no encoder. Each tick
 * takes the slots whose end has passed from the programme and commits every rendition's segment into the
 * recording exactly as an ingest segment lands (copied, then its decode times rebased onto the channel's timeline
 * and indexed), so live playlists, start-over, catch-up, clips and statistics read it like any channel. Within an
 * airing the shift is kept (media time continuous); a join (another airing) takes a new shift and a new init, which
 * the index marks as a discontinuity. Break markers the slot carries are recorded for the playlists.
 */
export class FastRuntime implements LiveSource {
  private timer: ReturnType<typeof setInterval> | null = null;
  private index: SegmentIndex;
  private stopped = false;
  private prev: { airing: string; index: number; shift: Shift | null; initMs: number } | null = null;
  private tracks = new Map<string, Tracks | null>();
  private last: { bytes: number; ms: number; init: string } | null = null;
  private live = false;
  /** Where the next slot starts (the end of the last aired segment), once read from the index. */
  private next: number | null = null;
  private due: { at: number; prog: FastProgram; slot: FastSlot | null } | null = null;

  constructor(private ctx: AppContext, private store: LiveChannelStore, private ch: LiveChannel, private program: () => FastProgram | null) {
    this.index = new SegmentIndex(ctx.db, ctx.config.dataDir);
  }

  start(): void {
    mkdirSync(this.scratch(), { recursive: true });
    this.state(false);
    this.timer = setInterval(() => { try { this.tick(Date.now()); } catch (e) { this.ctx.log.error('fast tick failed', { channel: this.ch.id, error: String(e) }); } }, TICK_MS);
    try { this.tick(Date.now()); } catch (e) { this.ctx.log.error('fast tick failed', { channel: this.ch.id, error: String(e) }); }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    rmSync(join(this.scratch(), '..'), { recursive: true, force: true });
  }

  info() {
    if (!this.last) return null;
    let init: Uint8Array | null = null;
    try { init = readFileSync(this.last.init); } catch { /* gone */ }
    const codecs = init ? codecsOf(init) : null;
    return {
      bitrate_kbps: this.last.ms ? Math.round((this.last.bytes * 8) / this.last.ms) : null,
      resolution: init ? resolutionOf(init) : null,
      video_codec: codecs?.includes('avc1') ? 'h264' : null, audio_codec: codecs?.includes('mp4a') ? 'aac' : null,
    };
  }

  private scratch(): string { return scratchDir(this.ctx.config.dataDir, this.ch.id, 'fast'); }

  /** Airs every slot that has ended by `now` since the last aired segment (from `now - BACKFILL_MS` after a pause). */
  tick(now: number): void {
    if (this.stopped) return;
    const prog = this.program();
    if (!prog || !prog.renditions.length) { this.state(false); return; }
    // Never before the channel's creation: its media timeline starts there (decode time = wall clock since creation).
    const from = Math.max(now - BACKFILL_MS, this.ch.created_at);
    if (this.next === null) {
      const lastSeg = this.index.lastSegment(this.ch, prog.renditions[0]);
      this.next = lastSeg ? lastSeg.start_ms + lastSeg.duration_ms : from;
    }
    let next = this.next;
    if (next < from - 30_000) { next = from; this.prev = null; }
    for (let n = 0; n < PER_TICK && !this.stopped; n++) {
      // The slot due next is looked up once (ticks until it ends ask for the same one).
      const slot = this.due && this.due.at === next && this.due.prog === prog ? this.due.slot : prog.slotAt(next);
      this.due = { at: next, prog, slot };
      if (!slot) { this.state(false); return; }
      if (next + slot.durationMs > now) { this.next = next; return; }
      tx(this.ctx.db, () => this.air(prog, slot, next)); // one commit for the slot's renditions and markers
      next += slot.durationMs;
      this.next = next;
    }
  }

  private tracksOf(init: string): Tracks | null {
    if (!this.tracks.has(init)) {
      let t: Tracks | null = null;
      try { t = initTracks(readFileSync(init)); } catch { /* unreadable: kept as it is */ }
      this.tracks.set(init, t && t.size ? t : null);
    }
    return this.tracks.get(init) ?? null;
  }

  /** Commits one slot at `startMs`: every rendition's segment (the lead's decision of shift shared by all), its markers. */
  private air(prog: FastProgram, slot: FastSlot, startMs: number): void {
    const chained = !!this.prev && this.prev.airing === slot.airing && this.prev.index + 1 === slot.index;
    const initMs = chained ? this.prev!.initMs : startMs;
    let shift: Shift | null = chained ? this.prev!.shift : null;
    const leadFile = slot.files[prog.renditions[0]];
    if (!chained && leadFile) {
      const tracks = this.tracksOf(leadFile.init);
      const t = tracks && leadTime(readFileSync(leadFile.seg), tracks);
      shift = t ? shiftTo(startMs - this.ch.created_at, t.time, t.timescale) : null;
    }
    for (const r of prog.renditions) {
      const f = slot.files[r];
      if (!f) continue;
      const tmp = join(this.scratch(), `${r}-${startMs}.m4s`);
      try { copyFileSync(f.seg, tmp, constants.COPYFILE_FICLONE); } catch (e) { this.ctx.log.warn('fast segment unreadable', { channel: this.ch.id, file: f.seg, error: String(e) }); continue; }
      const tracks = shift && this.tracksOf(f.init);
      const s = shift;
      const done = commitSegment(this.index, this.ch, r, { file: tmp, startMs, durationMs: slot.durationMs, initFile: f.init, initMs, rebase: tracks && s ? { tracks, shift: () => s } : undefined });
      if (done && r === prog.renditions[0]) this.last = { bytes: done.row.bytes, ms: slot.durationMs, init: f.init };
    }
    for (const m of slot.markers) addMarker(this.ctx.db, { channel_id: this.ch.id, start_ms: startMs, id: m.id, kind: m.kind, planned_ms: m.plannedMs });
    this.prev = { airing: slot.airing, index: slot.index, shift, initMs };
    this.state(true);
  }

  /** The channel row follows what airs: `live` on the primary feed while segments air, `waiting` while nothing is scheduled. */
  private state(live: boolean): void {
    if (this.stopped || (live === this.live && live)) return;
    const prev = this.store.anyById(this.ch.id);
    if (!prev) return;
    const want = live ? { status: 'live', feed: 'primary', recording: 'on' } : { status: 'waiting', feed: 'none', recording: 'gap' };
    this.live = live;
    if (prev.status === want.status && prev.feed === want.feed && prev.recording === want.recording) return;
    this.store.update(this.ch.id, want, this.ctx.clock.now());
  }
}
