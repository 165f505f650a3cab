/**
 * The FAST programme: the schedule turned into cycles of pieces (one prepared segment each) and looked up by wall
 * clock. Each playlist (the default one and each daypart's) is a cycle: its items in order, each aired `loops`
 * times, every airing split at the first segment boundary at or after each of the asset's ad cues, where a break
 * airs (the slate's segments, looped or cut to the break length) or, without a slate, only markers are placed
 * (SCTE35-OUT at the cue, SCTE35-IN at the first boundary the break length later). The default playlist's cycles
 * run from the schedule's anchor for ever; a daypart's from the block's start each day. A slot is the piece whose
 * start is nearest to the asked time, so consecutive asks (each at the previous slot's end) walk the pieces in
 * order and a block change cuts over at a segment boundary. Pure apart from Intl's time zone data.
 */
import { join } from 'node:path';
import type { FastProgram, FastSlot, SlotFile, SlotMarker } from '../../live/fast-source';
import { blockAt, todFormatter } from './dayparts';
import type { Daypart, FastItem, PrepSegments } from './model';

/** What the programme needs of an asset: its title, ad cues (s) and prepared segments (null: not ready). */
export interface ProgramAsset { title: string; cues: number[]; prep: PrepSegments | null }

/** The schedule as the programme reads it. */
export interface ProgramInput {
  dataDir: string; timezone: string; anchorMs: number; renditions: string[];
  items: FastItem[]; dayparts: Daypart[]; slateAssetId: string | null; breakMs: number | null;
  assets: Map<string, ProgramAsset>;
}

interface PieceMarker { id: string; kind: 'out' | 'in'; plannedMs: number; prevCycle?: boolean }
interface Piece { airing: string; index: number; ms: number; /** Where its shorter track ends (its length when an airing is cut after it). */ cut: number; files: Record<string, SlotFile>; markers: PieceMarker[]; kind: 'asset' | 'break'; assetId: string | null; title: string }
interface Cycle { pieces: Piece[]; offsets: number[]; ms: number }

/** One entry of a walk over the programme: an airing of an asset or a break, with its wall-clock span. */
export interface WalkEntry { kind: 'asset' | 'break'; assetId: string | null; title: string; startMs: number; endMs: number; daypart: string | null; airing: string }

const DEFAULT_BREAK_MS = 30_000;

/** A schedule's programme (implements the live layer's FastProgram). */
export class Program implements FastProgram {
  readonly renditions: string[];
  private cycles: (Cycle | null)[];
  private fmt: Intl.DateTimeFormat;

  constructor(private p: ProgramInput) {
    this.renditions = p.renditions;
    this.fmt = todFormatter(p.timezone);
    this.cycles = [p.items, ...p.dayparts.map((d) => d.items)].map((items) => this.cycle(items));
  }

  private files(prep: PrepSegments, k: number): Record<string, SlotFile> | null {
    const out: Record<string, SlotFile> = {};
    for (const r of this.renditions) {
      const seg = prep.segs[r]?.[k], init = prep.init[r];
      if (!seg || !init) return null;
      out[r] = { seg: join(this.p.dataDir, seg), init: join(this.p.dataDir, init) };
    }
    return out;
  }

  /** The cycle of one playlist (null when none of its assets is prepared). */
  private cycle(items: FastItem[]): Cycle | null {
    const pieces: Piece[] = [];
    const slate = this.p.slateAssetId ? this.p.assets.get(this.p.slateAssetId) : undefined;
    let pendingIn: string | null = null;
    const push = (x: Piece) => {
      if (pendingIn && x.kind === 'asset') { x.markers.push({ id: pendingIn, kind: 'in', plannedMs: 0 }); pendingIn = null; }
      pieces.push(x);
    };
    items.forEach((item, ii) => {
      const a = this.p.assets.get(item.asset_id);
      if (!a?.prep || !a.prep.ms.length) return;
      const prep = a.prep;
      const offs: number[] = [0];
      for (const ms of prep.ms) offs.push(offs[offs.length - 1] + ms);
      const total = offs[offs.length - 1];
      const bounds = [...new Set(a.cues.filter((c) => c > 0 && c * 1000 < total).map((c) => offs.findIndex((o) => o >= c * 1000)).filter((k) => k > 0))].sort((x, y) => x - y);
      for (let loop = 0; loop < item.loops; loop++) {
        let part = 0, bi = 0;
        let markerIn: { id: string; at: number } | null = null;
        let markerOut: PieceMarker | null = null;
        for (let k = 0; k <= prep.ms.length; k++) {
          if (bounds.includes(k)) {
            const id = `${ii}-${loop}-${bi++}`;
            if (slate?.prep && slate.prep.ms.length) {
              part++;
              for (const x of this.slatePieces(slate, id, `${ii}:${loop}:b${bi}`)) pieces.push(x);
              pendingIn = id;
            } else if (k < prep.ms.length) {
              const planned = this.p.breakMs ?? DEFAULT_BREAK_MS;
              markerIn = { id, at: offs[k] + planned };
              markerOut = { id, kind: 'out', plannedMs: planned };
            }
          }
          if (k === prep.ms.length) break;
          const files = this.files(prep, k);
          if (!files) return;
          const piece: Piece = { airing: `${ii}:${loop}:${part}`, index: k, ms: prep.ms[k], cut: prep.cut?.[k] ?? prep.ms[k], files, markers: [], kind: 'asset', assetId: item.asset_id, title: a.title };
          if (markerOut) { piece.markers.push(markerOut); markerOut = null; }
          else if (markerIn && offs[k] >= markerIn.at) { piece.markers.push({ id: markerIn.id, kind: 'in', plannedMs: 0 }); markerIn = null; }
          push(piece);
        }
        if (markerIn) pendingIn = markerIn.id;
      }
    });
    if (!pieces.length) return null;
    if (pendingIn) pieces[0].markers.push({ id: pendingIn, kind: 'in', plannedMs: 0, prevCycle: true });
    // A piece after which another airing starts (a join) lasts until its shorter track ends: the next airing starts
    // there, so neither track has a hole at the join (the longer one's last moment is overlapped instead).
    pieces.forEach((x, i) => { const y = pieces[(i + 1) % pieces.length]; if (y.airing !== x.airing || y.index !== x.index + 1) x.ms = x.cut; });
    const offsets: number[] = [];
    let ms = 0;
    for (const x of pieces) { offsets.push(ms); ms += x.ms; }
    return { pieces, offsets, ms };
  }

  /** A break's pieces: the slate's segments from its start, looped, until the break length (at least one segment). */
  private slatePieces(slate: ProgramAsset, id: string, airing: string): Piece[] {
    const prep = slate.prep!;
    const total = prep.ms.reduce((a, b) => a + b, 0);
    const want = this.p.breakMs ?? total;
    const out: Piece[] = [];
    let ms = 0;
    for (let i = 0; ms < want || !out.length; i++) {
      const k = i % prep.ms.length;
      const files = this.files(prep, k);
      if (!files) return [];
      out.push({ airing: `${airing}:${Math.floor(i / prep.ms.length)}`, index: k, ms: prep.ms[k], cut: prep.cut?.[k] ?? prep.ms[k], files, markers: [], kind: 'break', assetId: this.p.slateAssetId, title: slate.title });
      ms += prep.ms[k];
    }
    out[0].markers.push({ id, kind: 'out', plannedMs: ms });
    return out;
  }

  /** The block at `t` and its cycle (a daypart whose assets are not ready falls back to the default playlist). */
  private block(t: number) {
    const b = blockAt(this.fmt, this.p.dayparts, this.p.anchorMs, t);
    const c = this.cycles[b.part + 1];
    if (c) return { ...b, cycle: c };
    const d = this.cycles[0];
    return d ? { part: -1, startMs: this.p.anchorMs, endMs: b.endMs, cycle: d } : null;
  }

  /** The piece nearest to `t` in a block (its cycle number and index). */
  private pieceIn(b: { startMs: number; cycle: Cycle }, t: number): { n: number; i: number; startMs: number } {
    const c = b.cycle;
    const rel = t - b.startMs;
    let n = Math.floor(rel / c.ms);
    const pos = rel - n * c.ms;
    let lo = 0, hi = c.offsets.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (c.offsets[mid] <= pos) lo = mid; else hi = mid - 1; }
    let i = lo;
    if (pos - c.offsets[i] > c.pieces[i].ms / 2) { i++; if (i === c.pieces.length) { i = 0; n++; } }
    return { n, i, startMs: b.startMs + n * c.ms + c.offsets[i] };
  }

  slotAt(atMs: number): FastSlot | null {
    const b = this.block(atMs);
    if (!b) return null;
    const { n, i } = this.pieceIn(b, atMs);
    const x = b.cycle.pieces[i];
    const key = `${b.part}.${b.startMs}`;
    const markers: SlotMarker[] = x.markers.map((m) => ({ id: `brk-${key}.${n - (m.prevCycle ? 1 : 0)}.${m.id}`, kind: m.kind, plannedMs: m.plannedMs }));
    return { airing: `${key}.${n}.${x.airing}`, index: x.index, durationMs: x.ms, files: x.files, markers };
  }

  /** Airings from `fromMs` to `toMs` as the runtime would air them (consecutive pieces of one airing merged); at most `max`. */
  walk(fromMs: number, toMs: number, max: number): { entries: WalkEntry[]; truncated: boolean } {
    const entries: WalkEntry[] = [];
    const first = this.block(fromMs);
    let t = first ? this.pieceIn(first, fromMs).startMs : fromMs; // on the programme's own segment grid
    while (t < toMs) {
      const b = this.block(t);
      if (!b) break;
      const name = b.part >= 0 ? this.p.dayparts[b.part].name : null;
      while (t < toMs && t < b.endMs) {
        const { n, i } = this.pieceIn(b, t);
        const x = b.cycle.pieces[i];
        const airing = `${b.part}.${b.startMs}.${n}.${x.airing.split(':').slice(0, x.kind === 'break' ? 3 : 2).join(':')}`;
        const last = entries[entries.length - 1];
        if (last && last.airing === airing && last.endMs === t) last.endMs = t + x.ms;
        else {
          if (entries.length >= max) return { entries, truncated: true };
          entries.push({ kind: x.kind, assetId: x.assetId, title: x.title, startMs: t, endMs: t + x.ms, daypart: name, airing });
        }
        t += x.ms;
      }
    }
    return { entries, truncated: false };
  }
}
