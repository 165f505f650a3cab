/** Where one input's feed comes from. */
export type IngestSource =
  | { kind: 'srt'; port: number; passphrase: string; latencyMs: number; bind?: string }
  | { kind: 'rtmp'; url: string };

/** Options of the per-input packaging ffmpeg. */
export interface IngestArgs { ffmpeg: string; source: IngestSource; outDir: string; segmentS: number; /** `aac` when the feed's audio is not AAC. */ audio?: 'copy' | 'aac' }

/** The listener/pull URL of a source (contains the secret: never log it). */
export function sourceUrl(s: IngestSource): string {
  if (s.kind === 'rtmp') return s.url;
  const q = new URLSearchParams({
    mode: 'listener', // we are the SRT listener; encoders call us
    passphrase: s.passphrase, // AES: a caller without this passphrase is rejected in the SRT handshake
    pbkeylen: '16', // AES-128, the key length the ingest URL announces
    latency: String(s.latencyMs * 1000), // receive latency; ffmpeg takes microseconds
  });
  const host = s.bind && s.bind.includes(':') ? `[${s.bind}]` : s.bind || '0.0.0.0'; // VS_SRT_HOST; IPv6 in brackets
  return `srt://${host}:${s.port}?${q}`;
}

/** Pure: the address our packaging ffmpeg pulls RTMP from: loopback when the listener binds every address, else the bound one. */
export function rtmpPullHost(bind: string): string {
  if (bind === '0.0.0.0' || bind === '::' || bind === '') return '127.0.0.1';
  return bind.includes(':') ? `[${bind}]` : bind;
}

/** Pure: the leading argv every live ffmpeg shares (passthrough and ladder): quiet stdin, progress, short probe. */
export function feedHead(ffmpeg: string): string[] {
  return [
    ffmpeg,
    '-nostdin', // never read the terminal
    '-hide_banner', // keep the stderr ring buffer for real messages
    '-loglevel', 'info', // stream descriptions (codec, resolution) are parsed from info lines
    '-progress', 'pipe:1', // key=value progress on stdout: feeds liveness, bitrate and the watchdog
    '-stats_period', '0.5', // progress twice a second so silence is seen quickly
    '-analyzeduration', '1000000', // probe at most 1 s of the feed before packaging starts (latency)
    '-probesize', '1000000', // bound the probe buffer as well
    '-fflags', '+genpts', // give packets without pts a timestamp instead of failing the muxer
  ];
}

/** Pure: input protocol and container of a feed source. */
export function feedFormat(source: IngestSource): string[] {
  return source.kind === 'srt'
    ? ['-protocol_whitelist', 'srt', '-f', 'mpegts'] // SRT carries MPEG-TS; only the srt protocol may be opened
    : ['-protocol_whitelist', 'rtmp,tcp', '-f', 'flv']; // local pull from our RTMP server
}

/**
 * Pure argv for one input: receive the feed (SRT listener or local RTMP pull), copy H.264/AAC unchanged
 * (passthrough; non-AAC audio is encoded to AAC) and write CMAF fMP4 segments plus an HLS playlist into
 * `outDir/src/`, which the recorder watches.
 */
export function ingestArgs(o: IngestArgs): string[] {
  return [
    ...feedHead(o.ffmpeg),
    ...feedFormat(o.source),
    '-i', sourceUrl(o.source),
    '-map', '0:v:0?', // first video stream when there is one
    '-map', '0:a:0?', // first audio stream when there is one (audio-only feeds work)
    '-c', 'copy', // passthrough: no decode or encode
    ...(o.audio === 'aac'
      ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000'] // the feed's audio is not AAC (MP2, AC-3...): AAC-LC stereo, playable everywhere
      : ['-bsf:a', 'aac_adtstoasc']), // MPEG-TS/FLV AAC (ADTS) to MP4 AudioSpecificConfig form
    '-f', 'hls', // segmenter that cuts on keyframes and lists finished segments
    '-hls_time', String(o.segmentS), // target segment duration
    '-hls_segment_type', 'fmp4', // CMAF fragmented MP4 segments
    '-hls_fmp4_init_filename', 'init.mp4', // the init segment (moov) of this run
    '-hls_flags', 'temp_file+independent_segments', // segments written as .tmp and renamed when complete
    '-hls_list_size', '30', // the recorder reads finished segments from this list; 30 covers any poll delay
    '-hls_segment_filename', `${o.outDir}/src/s%d.m4s`,
    `${o.outDir}/src/index.m3u8`,
  ];
}

/** Pure argv of a test/bench pusher: synthetic video and tone over SRT or RTMP. */
export function pusherArgs(ffmpeg: string, url: string, o: { size?: string; rate?: number; seconds?: number; audioOnly?: boolean; bitrateK?: number; audioCodec?: string } = {}): string[] {
  const rate = o.rate ?? 25;
  const out = url.startsWith('rtmp') ? ['-f', 'flv'] : ['-f', 'mpegts'];
  const video = o.audioOnly ? [] : ['-f', 'lavfi', '-i', `testsrc2=size=${o.size ?? '320x180'}:rate=${rate}`];
  return [
    ffmpeg, '-nostdin', '-hide_banner', '-loglevel', 'error',
    '-re', // real time, like an encoder
    ...video,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', // a tone for the audio track
    ...(o.seconds ? ['-t', String(o.seconds)] : []),
    ...(o.audioOnly ? [] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(rate * 2), '-keyint_min', String(rate * 2), '-sc_threshold', '0', '-pix_fmt', 'yuv420p', ...(o.bitrateK ? ['-b:v', `${o.bitrateK}k`] : [])]),
    '-c:a', o.audioCodec ?? 'aac', '-b:a', '64k',
    ...out, url,
  ];
}
