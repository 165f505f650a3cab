/**
 * Segment sources that are not an ingest (issue 48, FAST channels): the live engine runs a channel either from its
 * SRT/RTMP inputs (ChannelRuntime) or from a source a feature registers here, which hands it finished CMAF segments
 * by wall clock. The live layer declares the shapes; the feature above implements them (layers point down).
 */
import type { Db } from '../kernel/db/sqlite';
import type { LiveChannel, LiveChannelStore } from './model';

/** One media segment of one rendition that a source airs: the file to take (never moved) and the init it needs. */
export interface SlotFile { seg: string; init: string }

/** An ad-break marker at the start of a slot: `out` opens a break of `plannedMs`, `in` closes break `id`. */
export interface SlotMarker { id: string; kind: 'out' | 'in'; plannedMs: number }

/**
 * What airs from `startMs` on: one segment per rendition (same duration), its airing (a run of consecutive
 * segments of one prepared asset: same `airing` and `index + 1` continue it; anything else is a join, with a new
 * init and a discontinuity) and the markers that start with it.
 */
export interface FastSlot { airing: string; index: number; durationMs: number; files: Record<string, SlotFile>; markers: SlotMarker[] }

/** A source's programme: its renditions and the slot that airs at wall-clock `atMs` (null: nothing scheduled). */
export interface FastProgram {
  renditions: string[];
  slotAt(atMs: number): FastSlot | null;
}

/** A running non-ingest source of a channel, as the engine keeps it. */
export interface LiveSource {
  start(): void;
  stop(): Promise<void>;
  /** What the channel airs now (resolution, codecs), for the channel view and monitors; null before the first segment. */
  info(): { bitrate_kbps: number | null; resolution: string | null; video_codec: string | null; audio_codec: string | null } | null;
}

/** Builds the source of a channel when it is not an ingest (null: run the channel's inputs). */
export type SourceFactory = (ch: LiveChannel, store: LiveChannelStore) => LiveSource | null;

const factories = new WeakMap<Db, SourceFactory>();

/** Registers the feature that turns some channels into non-ingest sources (one per database; null removes it). */
export function setSourceFactory(db: Db, f: SourceFactory | null): void {
  if (f) factories.set(db, f); else factories.delete(db);
}

/** The non-ingest source of a channel, or null when the channel runs its ingest inputs. */
export function sourceFor(db: Db, ch: LiveChannel, store: LiveChannelStore): LiveSource | null {
  return factories.get(db)?.(ch, store) ?? null;
}
