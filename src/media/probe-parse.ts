/** Video stream facts the ladder and the encoder need. */
export interface VideoInfo {
  codec: string; width: number; height: number;
  /** Size after rotation (what a viewer sees). */
  displayWidth: number; displayHeight: number;
  rotation: number; fps: number; pixFmt: string; bitDepth: number; hdr: boolean; profile: string | null;
}
/** Audio stream facts. */
export interface AudioInfo { codec: string; channels: number; layout: string | null; sampleRate: number }
/** What probing a source found. */
export interface MediaInfo {
  format: string; durationS: number; sizeBytes: number | null; bitRate: number | null;
  video: VideoInfo | null; audio: AudioInfo | null; streams: number;
}

type S = Record<string, any>;

function rate(r: unknown): number {
  const m = /^(\d+)\/(\d+)$/.exec(String(r ?? ''));
  if (!m || Number(m[2]) === 0) return 0;
  return Number(m[1]) / Number(m[2]);
}

/** Pure: a display rotation in degrees (any sign, any turn) as the quarter turn 0, 90, 180 or 270 the pipeline uses. */
export function quarterTurn(deg: number): number {
  return ((Math.round(deg / 90) * 90) % 360 + 360) % 360;
}

function rotationOf(s: S): number {
  const side = (s.side_data_list ?? []).find((d: S) => typeof d.rotation === 'number');
  return quarterTurn(side ? Number(side.rotation) : Number(s.tags?.rotate ?? 0));
}

function depthOf(pixFmt: string, bitsRaw: unknown): number {
  const n = Number(bitsRaw);
  if (n > 0) return n;
  const m = /p(9|10|12|14|16)(le|be)?$/.exec(pixFmt);
  return m ? Number(m[1]) : 8;
}

/** Pure: turns ffprobe JSON into MediaInfo; returns an error string when the file has nothing to play. */
export function parseProbe(json: string): MediaInfo | { error: string } {
  let doc: S;
  try { doc = JSON.parse(json); } catch { return { error: 'not a media file (probe output unreadable)' }; }
  const streams: S[] = Array.isArray(doc.streams) ? doc.streams : [];
  const fmt: S = doc.format ?? {};
  if (!fmt.format_name && !streams.length) return { error: 'not a media file' };
  const v = streams.find((s) => s.codec_type === 'video' && !(s.disposition?.attached_pic) && Number(s.width) > 0);
  const a = streams.find((s) => s.codec_type === 'audio');
  if (!v && !a) return { error: 'no video and no audio stream' };
  let video: VideoInfo | null = null;
  if (v) {
    const rotation = rotationOf(v);
    const w = Number(v.width), h = Number(v.height);
    const swap = rotation === 90 || rotation === 270;
    const sar = rate(String(v.sample_aspect_ratio ?? '1:1').replace(':', '/')) || 1;
    const dispW = Math.round(w * sar);
    const pixFmt = String(v.pix_fmt ?? 'unknown');
    const fps = rate(v.avg_frame_rate) || rate(v.r_frame_rate) || 25;
    video = {
      codec: String(v.codec_name ?? 'unknown'), width: w, height: h,
      displayWidth: swap ? h : dispW, displayHeight: swap ? dispW : h, rotation,
      fps: fps > 0 && fps <= 240 ? fps : 25, pixFmt, bitDepth: depthOf(pixFmt, v.bits_per_raw_sample),
      hdr: ['smpte2084', 'arib-std-b67'].includes(String(v.color_transfer ?? '')), profile: v.profile ? String(v.profile) : null,
    };
  }
  const audio: AudioInfo | null = a ? {
    codec: String(a.codec_name ?? 'unknown'), channels: Number(a.channels ?? 0), layout: a.channel_layout ? String(a.channel_layout) : null,
    sampleRate: Number(a.sample_rate ?? 0),
  } : null;
  const durations = [Number(fmt.duration), ...streams.map((s) => Number(s.duration))].filter((d) => Number.isFinite(d) && d > 0);
  const durationS = Number.isFinite(Number(fmt.duration)) && Number(fmt.duration) > 0 ? Number(fmt.duration) : Math.max(0, ...durations);
  if (!(durationS > 0)) return { error: 'unknown or zero duration' };
  return {
    format: String(fmt.format_name ?? 'unknown'), durationS, sizeBytes: fmt.size ? Number(fmt.size) : null,
    bitRate: fmt.bit_rate ? Number(fmt.bit_rate) : null, video, audio, streams: streams.length,
  };
}
