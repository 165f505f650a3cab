import type { Db } from '../kernel/db/sqlite';
import type { FeedWarning } from './feed-health';
import type { InputCheckSettings, InputChecksNow } from './input-monitor';

/** Live facts about a channel's feed, measured by the ingest processes; `warnings` once the feed's streams are known. */
export interface FeedInfo { bitrate_kbps: number | null; /** Frames received per second (absent in facts stored before it was measured). */ fps?: number | null; resolution: string | null; video_codec: string | null; audio_codec: string | null; warnings?: FeedWarning[] }

/** What the channels service asks of the running live engine. */
/** One ingest input's health for monitors: media within the last seconds, restarts, damaged packets/slices. */
export interface InputHealth { alive: boolean; restarts: number; errors: number; /** What this input receives now (nulls when no media arrives). */ bitrate_kbps?: number | null; fps?: number | null; resolution?: string | null }

/** Why a push was refused: the channel takes the other protocol, or it is stopped. */
export type RefusalCode = 'wrong_protocol' | 'stopped';
/** A push refused at connect: when (ms), over which protocol, why (the words the encoder was sent) and from where. */
export interface Refusal { at: number; protocol: 'rtmp' | 'srt'; code: RefusalCode; reason: string; from: string }

export interface LiveControl {
  /** Starts (or restarts) the ingest, packaging and recording of a channel. */
  start(channelId: string): Promise<void>;
  /** Stops every process of a channel. */
  stop(channelId: string): Promise<void>;
  /** Measured feed facts (null when not running). */
  feedInfo(channelId: string): FeedInfo | null;
  /** stderr ring buffers of the channel's ingest processes (secrets redacted) and its restart count. */
  logs(channelId: string): { primary: string[]; backup: string[]; restarts: number };
  /** Per-input liveness, restart counts and damaged-input counts (null when not running); for monitors. */
  inputs?(channelId: string): { primary: InputHealth; backup: InputHealth } | null;
  /** The last push refused for the channel at connect (null: none since the engine started). */
  lastRefused?(channelId: string): Refusal | null;
  /** The input monitor's settings and conditions now (null: not running or no input check enabled; issue 48). */
  inputChecks?(channelId: string): { settings: InputCheckSettings; now: InputChecksNow } | null;
  /** Restarts a running channel's input monitor with its current settings. */
  applyInputChecks?(channelId: string): Promise<void>;
}

const engines = new WeakMap<Db, LiveControl>();

/** Registers the live engine of a database (one per running appliance). */
export function setLiveControl(db: Db, c: LiveControl | null): void {
  if (c) engines.set(db, c); else engines.delete(db);
}

/** The live engine of a database, or null when workers are not running. */
export function liveControl(db: Db): LiveControl | null {
  return engines.get(db) ?? null;
}
