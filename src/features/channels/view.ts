import { iso } from '../../kernel/clock';
import type { ChannelRow } from './store';
import type { FeedInfo } from '../../live/registry';

/** The public channel object (never secrets). */
export function channelView(r: ChannelRow, tenantSlug: string, cdnBaseUrl: string, live: FeedInfo | null) {
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
      resolution: running ? info.resolution ?? null : null,
      video_codec: running ? info.video_codec ?? null : null,
      audio_codec: running ? info.audio_codec ?? null : null,
    },
    ingest: { protocol: r.protocol, srt_ports: { primary: r.srt_port_primary, backup: r.srt_port_backup }, latency_ms: r.srt_latency_ms, failover_s: r.failover_s },
    ladder: r.ladder.startsWith('[') ? (JSON.parse(r.ladder) as { height: number; video_kbps: number }[]) : r.ladder,
    segment_s: r.segment_s,
    recording_settings: { enabled: !!r.recording_enabled, retention_hours: r.retention_hours },
    dvr_window_s: r.dvr_window_s,
    timezone: r.timezone,
    playback: { hls: `${cdnBaseUrl}/live/${tenantSlug}/${r.slug}/master.m3u8` },
    created_at: iso(r.created_at), updated_at: iso(r.updated_at),
  };
}

/** The SRT caller URL for encoders (the passphrase is a secret). Latency is negotiated: the listener's applies. */
export function srtCallerUrl(host: string, port: number, passphrase: string): string {
  return `srt://${host}:${port}?passphrase=${encodeURIComponent(passphrase)}&pbkeylen=16`;
}
