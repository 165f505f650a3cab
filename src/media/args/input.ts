/**
 * Container formats a customer file may be read as. Playlist and indirection demuxers (hls, concat, image2,
 * lavfi, tee, data URIs...) are left out on purpose: a file that says it is an HLS or concat list pointing at
 * `file:///etc/passwd` must fail to open instead of reading other files.
 */
export const SOURCE_FORMATS = [
  'mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm', 'mpegts', 'avi', 'flv', 'mxf', 'wav', 'mp3', 'aac',
  'ogg', 'asf', 'mpeg', 'mpegvideo', 'm4v', 'h264', 'hevc', 'flac', 'dv', 'gif',
] as const;

/** Pure: argv that opens one local customer file safely as input #N. */
export function sourceInput(path: string, o: { probesize?: number; analyzeS?: number } = {}): string[] {
  return [
    // file only: local input; no http, no pipe, no nested protocols (subfile, concat:, data:).
    '-protocol_whitelist', 'file',
    // Real containers only; see SOURCE_FORMATS.
    '-format_whitelist', SOURCE_FORMATS.join(','),
    // Bound how much is read and analysed before streams are known (hostile files cannot stall the probe).
    '-probesize', String(o.probesize ?? 50_000_000),
    '-analyzeduration', String(Math.round((o.analyzeS ?? 20) * 1_000_000)),
    '-i', path,
  ];
}

/** Pure: argv that opens one of our own intermediate fMP4 files (written by us, still whitelisted). */
export function ownInput(path: string, seekS?: number): string[] {
  return [
    // Fast input seek (keyframe, then decode to the exact time); only when asked.
    ...(seekS !== undefined ? ['-ss', seekS.toFixed(3)] : []),
    '-protocol_whitelist', 'file',
    '-format_whitelist', 'mov,mp4,m4a,3gp,3g2,mj2',
    '-i', path,
  ];
}

/** The argv prefix every ffmpeg run starts with. */
export function ffmpegHead(): string[] {
  // -nostdin: never read the terminal; -hide_banner/-loglevel error: keep stderr to real errors for `error`;
  // -y: outputs live in our own work dir and may be rewritten on a retry.
  return ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
}
