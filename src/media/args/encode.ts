import type { H264Encoder } from '../encoders';
import type { Plan } from '../ladder';
import { ffmpegHead, sourceInput } from './input';

/** Everything the one-pass ladder encode needs. */
export interface EncodeSpec {
  source: string;
  outDir: string;
  plan: Plan;
  encoder: H264Encoder;
  audio: boolean;
  vaapiDevice?: string;
  /** Poster cut from the same decode (no second pass after the encode); left out: ladder only. */
  stills?: Stills;
  /**
   * Also write the progressive download (DOWNLOAD_FILE: top rendition and audio, index up front) from the same
   * encoded packets, through the tee muxer: no join of segments and no remux in a second ffmpeg after the encode.
   */
  download?: boolean;
  /** A/B forensic watermark (args/watermark.ts `markFilter`): drawn on the decoded picture before the renditions are scaled. */
  mark?: string;
}

/**
 * The stills the encode writes beside the ladder: the poster (JPEG + WebP) at `posterAtS` and, with `tiles`, the
 * sprite's tiles (a frame every `intervalS`, scaled to `w`x`h`) as raw BGR frames in TILES_FILE; the sheet itself is
 * laid out after the encode (media/sprite-sheet.ts): ffmpeg 5.1 holds back its progress reports while a `tile=` output
 * has no frame yet (until the end), whereas the tiles output has its first frame at once.
 */
export interface Stills { posterAtS: number; posterWidth: number; tiles?: { intervalS: number; w: number; h: number } }

/** The sprite tiles the encode writes: headerless 24-bit BGR frames, one after another (work file, removed after packaging). */
export const TILES_FILE = '.tiles.bgr';

/** The progressive download MP4 the encode writes when `download` is set. */
export const DOWNLOAD_FILE = 'download.mp4';

/** Names of the files the packager writes (DASH-templated). */
export const SEG = { mpd: 'manifest.mpd', master: 'master.m3u8', init: 'init_$RepresentationID$.m4s', media: 'seg_$RepresentationID$_$Number%05d$.m4s' };

function hwPrefix(e: H264Encoder, vaapiDevice: string): string[] {
  // GPU encoders need their device opened before the input; frames are uploaded in the filter graph.
  if (e === 'h264_vaapi') return ['-vaapi_device', vaapiDevice];
  if (e === 'h264_qsv') return ['-init_hw_device', 'qsv=hw', '-filter_hw_device', 'hw'];
  return [];
}

function hwUpload(e: H264Encoder): string {
  if (e === 'h264_vaapi') return ',format=nv12,hwupload';
  if (e === 'h264_qsv') return ',hwupload=extra_hw_frames=16,format=qsv';
  return '';
}

/** Pure: the filter graph: one decode, frame-rate cap and 8-bit 4:2:0 once, then split and scale per rendition. */
export function ladderFilter(spec: Pick<EncodeSpec, 'plan' | 'encoder' | 'stills' | 'mark'>): string {
  const { plan } = spec;
  const n = plan.renditions.length;
  // fps only when the source rate is capped; yuv420p: 10-bit/4:2:2 sources become what every H.264 player decodes.
  // The watermark (when set) goes on the one decoded picture, so every rendition carries the same mark.
  const pre = [...(plan.fpsDivisor > 1 ? [`fps=${+plan.fps.toFixed(3)}`] : []), 'format=yuv420p', ...(spec.mark ? [spec.mark] : [])].join(',');
  const st = spec.stills;
  const outs = n + (st ? 1 : 0) + (st?.tiles ? 1 : 0);
  const labels = plan.renditions.map((_, i) => `[s${i}]`).join('') + (st ? '[ps]' : '') + (st?.tiles ? '[sp]' : '');
  const head = `[0:v]${pre}${outs > 1 ? `,split=${outs}${labels}` : '[s0]'}`;
  // setsar: even sizes cannot always hit the aspect exactly (854x480 for 16:9); the SAR keeps the display aspect
  // identical across renditions, which the DASH muxer requires within an adaptation set (max=: no rounding of N/D to 2-digit terms).
  const tails = plan.renditions.map((r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=bicubic,setsar=${r.sar === '1' ? '1' : `${r.sar}:max=1000000`}${hwUpload(spec.encoder)}[v${i}]`);
  if (st) {
    // Poster: only the first frame at or after posterAtS passes select (none selected before it: every later frame is
    // dropped before the scaler); `\\,` escapes the commas inside the graph. Scaled once, written twice.
    tails.push(`[ps]select=gte(t\\,${st.posterAtS.toFixed(3)})*isnan(prev_selected_t),scale=${st.posterWidth}:-2,split=2[pj][pw]`);
    // Sprite tiles: fps keeps one frame per interval (the frame nearest each multiple of it, from 0), scaled to the
    // tile size straight from the decoded source (no second decode of a rendition after the encode).
    // bgr24: the pixel layout of the sheet's bitmap, so laying the tiles out is a copy of rows.
    if (st.tiles) tails.push(`[sp]fps=1/${st.tiles.intervalS},scale=${st.tiles.w}:${st.tiles.h},format=bgr24[st]`);
  }
  return [head, ...tails].join(';');
}

/** Pure: the still outputs after the ladder's own output (each output's options precede its file name). */
function stillOutputs(outDir: string, st: Stills): string[] {
  return [
    // -q:v 3: good JPEG quality; -update 1: a single image, not a numbered sequence; one frame each.
    '-map', '[pj]', '-frames:v', '1', '-q:v', '3', '-update', '1', `${outDir}/poster.jpg`,
    // libwebp lossy at quality 80.
    '-map', '[pw]', '-frames:v', '1', '-c:v', 'libwebp', '-quality', '80', '-update', '1', `${outDir}/poster.webp`,
    // Tiles uncompressed (at most 100 small frames: ~4 MB), so the sheet's JPEG is the only lossy step; no container:
    // every frame has the same size, so the file is read back by offsets and nothing parses it.
    ...(st.tiles ? ['-map', '[st]', '-c:v', 'rawvideo', '-f', 'rawvideo', `${outDir}/${TILES_FILE}`] : []),
  ];
}

function videoCodecArgs(spec: EncodeSpec): string[] {
  const { plan, encoder } = spec;
  const g = String(plan.gopFrames);
  const perStream = plan.renditions.flatMap((r, i) => [
    `-b:v:${i}`, `${r.video_k}k`, `-maxrate:v:${i}`, `${r.maxrate_k}k`, `-bufsize:v:${i}`, `${r.bufsize_k}k`,
  ]);
  // Keyframes forced on the same timestamps in every rendition: segments line up for ABR switching.
  const common = ['-c:v', encoder, '-g', g, '-force_key_frames:v', `expr:gte(t,n_forced*${plan.ladder.keyframe_s})`];
  switch (encoder) {
    case 'libx264':
      // high profile; no scene-cut keyframes (they would misalign segments); closed GOPs (+cgop).
      return [...common, '-preset', plan.ladder.x264_preset, '-profile:v', 'high', '-keyint_min', g, '-sc_threshold', '0', '-flags:v', '+cgop', ...perStream];
    case 'h264_nvenc':
      // p4 = balanced NVENC preset; vbr with the caps above; forced keyframes become IDR; no scene cuts.
      return [...common, '-preset', 'p4', '-rc', 'vbr', '-profile:v', 'high', '-forced-idr', '1', '-no-scenecut', '1', ...perStream];
    case 'h264_vaapi':
      // VBR rate control on the GPU; the encoder places IDR frames where forced.
      return [...common, '-rc_mode', 'VBR', '-profile:v', 'high', ...perStream];
    case 'h264_qsv':
      return [...common, '-preset', 'medium', '-profile:v', 'high', '-forced_idr', '1', ...perStream];
  }
}

/** Pure: escapes a string for one level of ffmpeg's av_get_token (tee's slave list, then each slave's options). */
export function teeEscape(s: string): string {
  return s.replace(/[\\'|[\]:=\s]/g, (c) => `\\${c}`);
}

/** Pure: the ladder's output: the DASH packager, or (with `download`) the tee muxer feeding it and the download MP4. */
function ladderOutput(spec: EncodeSpec): string[] {
  const { plan } = spec;
  const dash: [string, string][] = [
    // DASH muxer writes fMP4 (CMAF) segments once and HLS playlists over the same files (hls_playlist).
    ['seg_duration', String(plan.ladder.segment_s)], ['use_template', '1'], ['use_timeline', '1'],
    ['hls_playlist', '1'], ['hls_master_name', SEG.master],
    // Video and audio in separate adaptation sets (demuxed audio, as both HLS and DASH players expect).
    ['adaptation_sets', spec.audio ? 'id=0,streams=v id=1,streams=a' : 'id=0,streams=v'],
    ['init_seg_name', SEG.init], ['media_seg_name', SEG.media],
    // I-frame playlists address a keyframe by its fragment's moof: one fragment per keyframe interval.
    ...(plan.iframes ? [['frag_type', 'duration'], ['frag_duration', String(plan.ladder.keyframe_s)]] as [string, string][] : []),
  ];
  const mpd = `${spec.outDir}/${SEG.mpd}`;
  if (!spec.download) return ['-f', 'dash', ...dash.flatMap(([k, v]) => [`-${k}`, v]), mpd];
  // Tee reads its slave list and then each slave's [options] with av_get_token: file names are escaped once, option
  // values twice. select= gives the download the top rendition (v:0) and the audio; +faststart moves the index first
  // when the encode ends (playback starts before the download completes).
  const opts = (o: [string, string][]) => `[${o.map(([k, v]) => `${k}=${teeEscape(teeEscape(v))}`).join(':')}]`;
  const slaves = [
    opts([['f', 'dash'], ...dash]) + teeEscape(mpd),
    opts([['f', 'mp4'], ['movflags', '+faststart'], ['select', spec.audio ? 'v:0,a' : 'v:0']]) + teeEscape(`${spec.outDir}/${DOWNLOAD_FILE}`),
  ];
  // ffmpeg gives the encoders the global-header flag for an output format that wants codec headers out of band (dash
  // and mp4 both do); through tee it must be said explicitly (ffmpeg's tee documentation), or x264 repeats its SPS/PPS
  // in band and the segments are no longer what the DASH muxer alone wrote.
  return ['-flags:v', '+global_header', '-flags:a', '+global_header', '-f', 'tee', slaves.join('|')];
}

/** Pure: the whole ladder in one ffmpeg run, packaged as CMAF segments with a DASH manifest and HLS playlists (plus the poster when `stills` is set). */
export function encodeArgs(ffmpeg: string, spec: EncodeSpec): string[] {
  const { plan } = spec;
  const a = plan.ladder.audio;
  const maps = plan.renditions.flatMap((_, i) => ['-map', `[v${i}]`]);
  const audio = spec.audio
    // First audio stream only; AAC-LC stereo 48 kHz (downmixes 5.1) so every player decodes it.
    ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', `${a.bitrate_k}k`, '-ac', String(a.channels), '-ar', String(a.sample_rate)]
    : [];
  return [
    ffmpeg, ...ffmpegHead(), ...hwPrefix(spec.encoder, spec.vaapiDevice ?? '/dev/dri/renderD128'),
    ...sourceInput(spec.source),
    '-filter_complex', ladderFilter(spec), ...maps, ...videoCodecArgs(spec), ...audio,
    // No metadata, data or subtitle streams carried over (they would confuse the packager and leak tags).
    '-map_metadata', '-1', '-dn', '-sn',
    // Machine-readable progress on stdout twice a second; no human stats on stderr.
    '-progress', 'pipe:1', '-stats_period', '0.5', '-nostats',
    ...ladderOutput(spec),
    ...(spec.stills ? stillOutputs(spec.outDir, spec.stills) : []),
  ];
}
