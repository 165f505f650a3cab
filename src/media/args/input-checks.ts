/** Thresholds of the per-input signal checks (issue 48: black, freeze, silence, EBU R128 loudness). */
export interface InputCheckThresholds {
  /** black: share of dark pixels that makes a frame black (percent) and the darkness level (0-255). */
  black_amount_pct: number; black_pixel_level: number;
  /** freeze: noise tolerance in dB (freezedetect `n`) and the shortest freeze reported (s). */
  freeze_noise_db: number; freeze_min_s: number;
  /** silence: level under which audio is silent (dBFS) and the shortest silence reported (s). */
  silence_noise_db: number; silence_min_s: number;
}

/** Defaults of the thresholds. */
export const INPUT_CHECK_DEFAULTS: InputCheckThresholds = { black_amount_pct: 98, black_pixel_level: 32, freeze_noise_db: -60, freeze_min_s: 2, silence_noise_db: -50, silence_min_s: 2 };

/**
 * Pure: one ffmpeg run that reads an input (a live playlist or a file) and writes nothing: blackframe (per-frame
 * reports; ffmpeg 5.1's blackdetect reports only when black ends), freezedetect, silencedetect and ebur128 (momentary,
 * short-term and integrated loudness every 100 ms) log to stderr, read by live/input-checks-parse.ts.
 */
export function inputCheckArgs(ffmpeg: string, input: string, th: InputCheckThresholds, o: { audio: boolean; live: boolean; whitelist: string }): string[] {
  const v = `[0:v]fps=10,blackframe=amount=${th.black_amount_pct}:threshold=${th.black_pixel_level},freezedetect=n=${th.freeze_noise_db}dB:d=${th.freeze_min_s}[v]`;
  const a = `[0:a]silencedetect=n=${th.silence_noise_db}dB:d=${th.silence_min_s},ebur128[a]`;
  return [
    // The filters report at info level (ffmpegHead's `error` would hide them); no progress lines.
    ffmpeg, '-nostdin', '-hide_banner', '-loglevel', 'info', '-nostats',
    ...(o.live ? ['-re'] : []),
    '-protocol_whitelist', o.whitelist, '-i', input,
    '-filter_complex', o.audio ? `${v};${a}` : v,
    '-map', '[v]', ...(o.audio ? ['-map', '[a]'] : []), '-f', 'null', '-',
  ];
}

/** Share of dark pixels (percent) that makes a frame black for the live monitor (blackframe `amount`). */
export const BLACK_AMOUNT_PCT = 98;

/** Options of the live input monitor: which checks run, and whether the feed has each kind of stream. */
export interface InputMonitorArgs {
  ffmpeg: string;
  th: InputCheckThresholds;
  /** The feed's streams (from its init segment): a filter chain per stream kind present. */
  video: boolean; audio: boolean;
  /** Checks switched on (a chain whose checks are all off is left out; loudness is ebur128). */
  on: { black: boolean; freeze: boolean; silence: boolean; loudness: boolean };
}

/**
 * Pure: the live input monitor's ffmpeg (issue 48). It reads one rendition's CMAF stream from standard input — the
 * init segment, then each recorded media segment as the recorder commits it — decodes it and runs the enabled checks'
 * filters, writing nothing; the filters report on stderr (read by live/input-checks-parse.ts) and `-progress` gives the
 * media time on stdout (black ends when frames stop being black). Null when no check applies to the streams present.
 */
export function inputMonitorArgs(o: InputMonitorArgs): string[] | null {
  const th = o.th;
  const vf: string[] = [];
  if (o.on.black) vf.push(`blackframe=amount=${th.black_amount_pct}:threshold=${th.black_pixel_level}`); // one line per black frame (t:), run length judged by the parser
  if (o.on.freeze) vf.push(`freezedetect=n=${th.freeze_noise_db}dB:d=${th.freeze_min_s}`); // freeze_start once a frame stays for d seconds, freeze_end when it moves
  const af: string[] = [];
  if (o.on.silence) af.push(`silencedetect=n=${th.silence_noise_db}dB:d=${th.silence_min_s}`); // silence_start after d seconds under n, silence_end when sound returns
  if (o.on.loudness) af.push('ebur128'); // EBU R128 momentary, short-term and integrated loudness, a line every 100 ms
  const chains: string[] = [];
  const maps: string[] = [];
  // fps=10: ten frames a second are plenty to see black or a freeze and keep the filters' work small.
  if (o.video && vf.length) { chains.push(`[0:v:0]fps=10,${vf.join(',')}[v]`); maps.push('-map', '[v]'); }
  if (o.audio && af.length) { chains.push(`[0:a:0]${af.join(',')}[a]`); maps.push('-map', '[a]'); }
  if (!chains.length) return null;
  return [
    o.ffmpeg,
    '-nostdin', // stdin is the media pipe here, never commands: -nostdin stops ffmpeg's key handling only
    '-hide_banner',
    '-loglevel', 'info', // the filters report at info level
    '-nostats', // no status line on stderr (media time comes from -progress)
    '-progress', 'pipe:1', // key=value progress on stdout: out_time_us is the media time the filters reached
    '-stats_period', '0.5', // twice a second
    '-skip_loop_filter', 'all', // H.264 deblocking skipped: black and freezes look the same without it, decoding costs less
    '-threads', '1', // one decoding thread: the lowest rendition needs no more, and the monitor never competes with ingest for cores
    '-protocol_whitelist', 'pipe', // only the pipe may be opened
    '-f', 'mp4', '-i', 'pipe:0', // fragmented MP4 (CMAF): moov of the init, then moof/mdat of each segment
    '-filter_complex', chains.join(';'),
    ...maps,
    '-f', 'null', '-', // decoded and measured, nothing written
  ];
}
