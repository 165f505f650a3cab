import type { H264Encoder } from '../encoders';
import { feedFormat, feedHead, sourceUrl, type IngestSource } from './live-ingest';

/** One rendition of the live ABR ladder: height cap (null = the feed's own) and video bitrate. */
export interface LiveRung { name: string; height: number | null; kbps: number }

/** Options of a live encode run. */
export interface LiveEncodeArgs { ffmpeg: string; source: IngestSource; outDir: string; segmentS: number; encoder: H264Encoder; rungs: LiveRung[]; audio: boolean; vaapiDevice?: string }

function hwPrefix(e: H264Encoder, dev: string): string[] {
  // GPU encoders need their device opened before the input; frames are uploaded at the end of each chain.
  if (e === 'h264_vaapi') return ['-vaapi_device', dev];
  if (e === 'h264_qsv') return ['-init_hw_device', 'qsv=hw', '-filter_hw_device', 'hw'];
  return [];
}
const hwUpload = (e: H264Encoder) => (e === 'h264_vaapi' ? ',format=nv12,hwupload' : e === 'h264_qsv' ? ',hwupload=extra_hw_frames=16,format=qsv' : '');

/** Pure: decode once, 8-bit 4:2:0 once, split, then scale each rendition to its height cap (never up). */
export function liveFilter(rungs: LiveRung[], encoder: H264Encoder): string {
  const labels = rungs.map((_, i) => `[s${i}]`).join('');
  const head = `[0:v]format=yuv420p${rungs.length > 1 ? `,split=${rungs.length}${labels}` : '[s0]'}`;
  const tails = rungs.map((r, i) => `[s${i}]${r.height ? `scale=-2:'min(${r.height},ih)'` : 'null'}${hwUpload(encoder)}[v${i}]`);
  return [head, ...tails].join(';');
}

function codecArgs(encoder: H264Encoder, rungs: LiveRung[], segmentS: number): string[] {
  const rates = rungs.flatMap((r, i) => [`-b:v:${i}`, `${r.kbps}k`, `-maxrate:v:${i}`, `${Math.round(r.kbps * 1.2)}k`, `-bufsize:v:${i}`, `${r.kbps * 2}k`]);
  // Keyframes forced on the same timestamps in every rendition: segments are cut at the same times (aligned).
  const common = ['-c:v', encoder, '-force_key_frames:v', `expr:gte(t,n_forced*${segmentS})`];
  switch (encoder) {
    case 'libx264':
      // veryfast + zerolatency: real time on CPU with no lookahead or B-frame delay; no scene-cut keyframes (they
      // would misalign segments); closed GOPs so every segment starts independently.
      return [...common, '-preset', 'veryfast', '-tune', 'zerolatency', '-profile:v', 'high', '-sc_threshold', '0', '-flags:v', '+cgop', ...rates];
    case 'h264_nvenc':
      // p3 + low-latency tuning on the GPU; forced keyframes become IDR; no scene cuts.
      return [...common, '-preset', 'p3', '-tune', 'll', '-rc', 'cbr', '-profile:v', 'high', '-forced-idr', '1', '-no-scenecut', '1', ...rates];
    case 'h264_vaapi':
      // CBR on the GPU; the encoder places IDR frames where forced.
      return [...common, '-rc_mode', 'CBR', '-profile:v', 'high', ...rates];
    case 'h264_qsv':
      return [...common, '-preset', 'veryfast', '-profile:v', 'high', '-forced_idr', '1', ...rates];
  }
}

/**
 * Pure argv of a live ABR run for one input: receive the feed, encode every rung of the ladder in one process
 * (one decode), AAC audio muxed into each rendition, and write aligned CMAF segments per rendition into
 * `outDir/<rung>/` (playlist `index.m3u8`, init `init_<i>.mp4`), which the recorder watches.
 */
export function liveEncodeArgs(o: LiveEncodeArgs): string[] {
  return [
    ...feedHead(o.ffmpeg),
    ...hwPrefix(o.encoder, o.vaapiDevice ?? '/dev/dri/renderD128'),
    ...feedFormat(o.source),
    '-i', sourceUrl(o.source),
    '-filter_complex', liveFilter(o.rungs, o.encoder),
    ...o.rungs.flatMap((_, i) => ['-map', `[v${i}]`]),
    ...(o.audio ? o.rungs.flatMap(() => ['-map', '0:a:0']) : []), // the feed's first audio once per rendition
    ...codecArgs(o.encoder, o.rungs, o.segmentS),
    ...(o.audio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000'] : []), // AAC-LC stereo whatever the feed carries (MP2, AC-3...)
    '-map_metadata', '-1', '-dn', '-sn', // no data, subtitle or metadata streams into the segments
    '-f', 'hls', // segmenter that cuts on keyframes and lists finished segments per rendition
    '-hls_time', String(o.segmentS), // target segment duration (keyframes are forced on it)
    '-hls_segment_type', 'fmp4', // CMAF fragmented MP4 segments
    '-hls_fmp4_init_filename', 'init.mp4', // per rendition it becomes init_<i>.mp4
    '-hls_flags', 'temp_file+independent_segments', // segments written as .tmp and renamed when complete
    '-hls_list_size', '30', // the recorder reads finished segments from these lists
    '-var_stream_map', o.rungs.map((r, i) => `v:${i}${o.audio ? `,a:${i}` : ''},name:${r.name}`).join(' '), // one playlist per rung
    '-hls_segment_filename', `${o.outDir}/%v/s%d.m4s`,
    `${o.outDir}/%v/index.m3u8`,
  ];
}
