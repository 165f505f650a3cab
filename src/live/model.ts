/**
 * The shapes the live layer works with, declared here so the layer depends on nothing above it: the channel row it
 * runs (stored by the channels feature, which satisfies this shape), the recorded segment row, and the small store
 * interface the engine is handed at start.
 */

/** A channel as the live engine runs it (the channels feature stores rows of this shape). */
export interface LiveChannel {
  seq: number; id: string; tenant_id: string; slug: string; name: string; protocol: string;
  srt_port_primary: number; srt_port_backup: number; srt_passphrase: string; srt_latency_ms: number;
  rtmp_key_primary: string; rtmp_key_backup: string; ladder: string; segment_s: number; failover_s: number;
  recording_enabled: number; retention_hours: number; dvr_window_s: number; timezone: string;
  desired: string; status: string; feed: string; recording: string; feed_info: string;
  created_at: number; updated_at: number;
}

/** One indexed recording segment. */
export interface SegmentRow {
  channel_id: string; rendition: string; start_ms: number; duration_ms: number; bytes: number; path: string;
  discontinuity: number; init_ms: number; seq: number; disc_seq: number;
}

/** The channel fields the segment index needs. */
export interface IndexedChannel { id: string; tenant_id: string; segment_s: number }

/** Columns a PATCH or a runtime update may change. */
export type LiveChannelPatch = Partial<Omit<LiveChannel, 'seq' | 'id' | 'tenant_id' | 'created_at'>>;

/** The channel storage the live engine needs, handed to it at start (implemented by the channels feature). */
export interface LiveChannelStore {
  /** Every channel (with its tenant slug), for reconciliation and retention. */
  all(): LiveChannel[];
  /** Channels the operator asked to run. */
  started(): LiveChannel[];
  /** One channel by id, any tenant. */
  anyById(id: string): LiveChannel | null;
  /** The channel owning an RTMP stream key. */
  byStreamKey(key: string): LiveChannel | null;
  /** Writes runtime state (status, feed, recording, feed facts). */
  update(id: string, patch: LiveChannelPatch, at: number): void;
}
