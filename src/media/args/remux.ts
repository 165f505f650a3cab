/**
 * Pure argv of the live-to-VOD remux: the recorded runs (each an init segment followed by its media segments,
 * one fragmented MP4 per feed run) joined by the concat demuxer into one progressive MP4, streams copied.
 */
export function remuxArgs(o: { ffmpeg: string; list: string; out: string }): string[] {
  return [
    o.ffmpeg,
    '-nostdin', // never read the terminal
    '-hide_banner', '-loglevel', 'error', // only real errors in the stderr ring buffer
    '-y', // the work file is ours
    '-protocol_whitelist', 'file,pipe', // the concat list names local files only
    '-f', 'concat', // join the runs in order, re-basing each run's timestamps after the previous one
    '-safe', '0', // the list holds absolute paths inside our work directory
    '-i', o.list,
    '-map', '0:v:0?', // the video stream when there is one
    '-map', '0:a:0?', // the audio stream when there is one
    '-c', 'copy', // remux only: no decode, no re-encode
    '-movflags', '+faststart', // index up front: the lifecycle probes it and players can start at once
    o.out,
  ];
}
