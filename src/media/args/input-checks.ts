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
