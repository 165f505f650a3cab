import { describe, expect, test } from 'bun:test';
import { liveEncodeArgs } from '../../src/media/args/live-ladder';
import { ingestArgs } from '../../src/media/args/live-ingest';

// Golden argv of the live ffmpeg runs (pure builders, no ffmpeg here): a change to any flag shows up as a diff.
const srt = { kind: 'srt' as const, port: 9000, passphrase: 'secretpassphrase', latencyMs: 120, bind: '0.0.0.0' };

describe('live argv (golden)', () => {
  test('ABR ladder on libx264 from an SRT feed with audio', () => {
    expect(liveEncodeArgs({ ffmpeg: 'ffmpeg', source: srt, outDir: '/out', segmentS: 2, encoder: 'libx264', rungs: [{ name: '720p', height: 720, kbps: 3000 }, { name: '360p', height: 360, kbps: 700 }], audio: true }))
      .toEqual(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "info", "-progress", "pipe:1", "-stats_period", "0.5", "-analyzeduration", "1000000", "-probesize", "1000000", "-fflags", "+genpts", "-protocol_whitelist", "srt", "-f", "mpegts", "-i", "srt://0.0.0.0:9000?mode=listener&passphrase=secretpassphrase&pbkeylen=16&latency=120000", "-filter_complex", "[0:v]format=yuv420p,split=2[s0][s1];[s0]scale=-2:'min(720,ih)'[v0];[s1]scale=-2:'min(360,ih)'[v1]", "-map", "[v0]", "-map", "[v1]", "-map", "0:a:0", "-map", "0:a:0", "-c:v", "libx264", "-force_key_frames:v", "expr:gte(t,n_forced*2)", "-preset", "veryfast", "-tune", "zerolatency", "-profile:v", "high", "-sc_threshold", "0", "-flags:v", "+cgop", "-b:v:0", "3000k", "-maxrate:v:0", "3600k", "-bufsize:v:0", "6000k", "-b:v:1", "700k", "-maxrate:v:1", "840k", "-bufsize:v:1", "1400k", "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "48000", "-map_metadata", "-1", "-dn", "-sn", "-f", "hls", "-hls_time", "2", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_flags", "temp_file+independent_segments", "-hls_list_size", "30", "-var_stream_map", "v:0,a:0,name:720p v:1,a:1,name:360p", "-hls_segment_filename", "/out/%v/s%d.m4s", "/out/%v/index.m3u8"]);
  });

  test('one NVENC rung from an RTMP pull without audio', () => {
    expect(liveEncodeArgs({ ffmpeg: 'ffmpeg', source: { kind: 'rtmp', url: 'rtmp://127.0.0.1:1935/live/k' }, outDir: '/out', segmentS: 2, encoder: 'h264_nvenc', rungs: [{ name: '480p', height: 480, kbps: 1400 }], audio: false }))
      .toEqual(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "info", "-progress", "pipe:1", "-stats_period", "0.5", "-analyzeduration", "1000000", "-probesize", "1000000", "-fflags", "+genpts", "-protocol_whitelist", "rtmp,tcp", "-f", "flv", "-i", "rtmp://127.0.0.1:1935/live/k", "-filter_complex", "[0:v]format=yuv420p[s0];[s0]scale=-2:'min(480,ih)'[v0]", "-map", "[v0]", "-c:v", "h264_nvenc", "-force_key_frames:v", "expr:gte(t,n_forced*2)", "-preset", "p3", "-tune", "ll", "-rc", "cbr", "-profile:v", "high", "-forced-idr", "1", "-no-scenecut", "1", "-b:v:0", "1400k", "-maxrate:v:0", "1680k", "-bufsize:v:0", "2800k", "-map_metadata", "-1", "-dn", "-sn", "-f", "hls", "-hls_time", "2", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_flags", "temp_file+independent_segments", "-hls_list_size", "30", "-var_stream_map", "v:0,name:480p", "-hls_segment_filename", "/out/%v/s%d.m4s", "/out/%v/index.m3u8"]);
  });

  test('passthrough packaging of an SRT feed', () => {
    expect(ingestArgs({ ffmpeg: 'ffmpeg', source: srt, outDir: '/out', segmentS: 2 })).toEqual(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "info", "-progress", "pipe:1", "-stats_period", "0.5", "-analyzeduration", "1000000", "-probesize", "1000000", "-fflags", "+genpts", "-protocol_whitelist", "srt", "-f", "mpegts", "-i", "srt://0.0.0.0:9000?mode=listener&passphrase=secretpassphrase&pbkeylen=16&latency=120000", "-map", "0:v:0?", "-map", "0:a:0?", "-c", "copy", "-bsf:a", "aac_adtstoasc", "-f", "hls", "-hls_time", "2", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_flags", "temp_file+independent_segments", "-hls_list_size", "30", "-hls_segment_filename", "/out/src/s%d.m4s", "/out/src/index.m3u8"]);
  });
});
