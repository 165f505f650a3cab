/**
 * Pure argv of the frame-exact edge cut: one piece of a recorded segment (init + media segment joined into a
 * fragmented MP4) re-encoded from `offsetS` for `durationS`, written as a CMAF init plus one media segment.
 */
export function edgeCutArgs(o: { ffmpeg: string; input: string; offsetS: number; durationS: number; outDir: string; threads?: number }): string[] {
  return [
    o.ffmpeg,
    '-nostdin', // never read the terminal
    '-hide_banner', '-loglevel', 'error', // only real errors in the stderr ring buffer
    '-y', // the work directory is ours; overwrite a previous attempt
    '-protocol_whitelist', 'file', // the input is one local file: nothing else may be opened
    '-ss', o.offsetS.toFixed(3), // input seek: decodes from the keyframe before and drops frames up to the offset (frame-exact)
    '-i', o.input,
    '-t', o.durationS.toFixed(3), // exactly the part of the segment inside the clip
    '-map', '0:v:0?', // the video stream when there is one
    '-map', '0:a:0?', // the audio stream when there is one
    '-c:v', 'libx264', // edges are re-encoded (the inner GOPs are copied byte for byte)
    '-preset', 'veryfast', // a couple of seconds per edge; quality comes from crf
    '-crf', '18', // visually close to the source for the seconds it lasts
    '-pix_fmt', 'yuv420p', // the widely decodable chroma format
    '-force_key_frames', 'expr:eq(n,0)', // the piece starts on a keyframe so it plays on its own
    '-bf', '0', // no B-frames: presentation time equals decode time, so the piece lines up with its neighbours by tfdt
    '-fps_mode', 'passthrough', // every decoded frame once with its own timestamp (no duplicated or dropped frames)
    // SPS/PPS also in-band on the keyframe: a decoder that keeps the first init's parameter sets across the clip's
    // pieces (ffmpeg's HLS reader does) still decodes an edge that follows copied segments of another encoder.
    '-bsf:v', 'dump_extra',
    ...(o.threads ? ['-threads', String(o.threads)] : []),
    '-c:a', 'aac', '-b:a', '128k', // audio re-encoded over the same span (sample-exact with the video)
    '-f', 'hls', // the segmenter writes a CMAF init and fragments
    '-hls_segment_type', 'fmp4', // fragmented MP4 like the recording
    '-hls_time', '100000', // one media segment for the whole piece
    '-hls_list_size', '0', // keep every entry (there is one)
    '-hls_fmp4_init_filename', 'init.mp4', // the piece's own init segment
    '-hls_segment_filename', `${o.outDir}/s%d.m4s`,
    `${o.outDir}/index.m3u8`,
  ];
}

/** Pure argv: each stream's type and start time of one local input (ffprobe, CSV lines `video,12.345`). */
export function streamStartsArgs(ffprobe: string, input: string): string[] {
  return [ffprobe, '-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'stream=codec_type,start_time', '-of', 'csv=p=0', input];
}
