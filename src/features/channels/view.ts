import { iso } from '../../kernel/clock';
import type { ChannelRow } from './store';
import type { FeedInfo, InputHealth, Refusal } from '../../live/registry';

/** One ingest input as answered: media arriving now and what it measures (nulls when nothing arrives). */
function inputView(h: InputHealth | undefined) {
  return { connected: !!h?.alive, bitrate_kbps: h?.bitrate_kbps ?? null, fps: h?.fps ?? null, resolution: h?.resolution ?? null, restarts: h?.restarts ?? 0 };
}

/** The public channel object (never secrets); `inputs` is the running engine's per-input health (null when not running), `refused` its last refused push. */
export function channelView(r: ChannelRow, tenantSlug: string, cdnBaseUrl: string, live: FeedInfo | null, inputs: { primary: InputHealth; backup: InputHealth } | null = null, refused: Refusal | null = null) {
  const stored = JSON.parse(r.feed_info || '{}') as Partial<FeedInfo>;
  const running = r.status === 'live';
  const info = live ?? (running ? stored : {});
  return {
    id: r.id, slug: r.slug, name: r.name,
    status: r.status as 'stopped' | 'waiting' | 'live' | 'failed',
    started: r.desired === 'started',
    feed: r.feed as 'primary' | 'backup' | 'none',
    recording: r.recording as 'on' | 'off' | 'gap',
    input: {
      bitrate_kbps: running ? info.bitrate_kbps ?? null : null,
      fps: running ? info.fps ?? null : null,
      resolution: running ? info.resolution ?? null : null,
      video_codec: running ? info.video_codec ?? null : null,
      audio_codec: running ? info.audio_codec ?? null : null,
      /** Why the feed may not play everywhere (passthrough of a codec, profile or pixel format browsers cannot decode). */
      warnings: running ? info.warnings ?? [] : [],
    },
    inputs: { primary: inputView(inputs?.primary), backup: inputView(inputs?.backup) },
    ingest: {
      protocol: r.protocol, srt_ports: { primary: r.srt_port_primary, backup: r.srt_port_backup }, latency_ms: r.srt_latency_ms, failover_s: r.failover_s,
      last_refused: refused ? { at: iso(refused.at), protocol: refused.protocol, code: refused.code, reason: refused.reason, from: refused.from } : null,
    },
    ladder: r.ladder.startsWith('[') ? (JSON.parse(r.ladder) as { height: number; video_kbps: number }[]) : r.ladder,
    segment_s: r.segment_s,
    recording_settings: { enabled: !!r.recording_enabled, retention_hours: r.retention_hours },
    dvr_window_s: r.dvr_window_s,
    timezone: r.timezone,
    playback: { hls: `${cdnBaseUrl}/live/${tenantSlug}/${r.slug}/master.m3u8` },
    created_at: iso(r.created_at), updated_at: iso(r.updated_at),
  };
}

/**
 * The SRT caller URL for encoders (the passphrase is a secret): `mode=caller` (we listen), the receive `latency` in
 * milliseconds as SRT's own URI convention has it (srt-live-transmit, GStreamer, vMix; ffmpeg-based encoders read
 * microseconds there, which is harmless: SRT applies the larger of both sides' latencies, so ours still holds),
 * AES `passphrase` and `pbkeylen`, and `streamid` when one is given.
 */
export function srtCallerUrl(o: { host: string; port: number; passphrase: string; latencyMs: number; pbkeylen?: number; streamId?: string }): string {
  const host = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
  const q = [`mode=caller`, `latency=${o.latencyMs}`, `passphrase=${encodeURIComponent(o.passphrase)}`, `pbkeylen=${o.pbkeylen ?? 16}`];
  if (o.streamId) q.push(`streamid=${encodeURIComponent(o.streamId)}`);
  return `srt://${host}:${o.port}?${q.join('&')}`;
}
