import { describe, expect, test } from 'bun:test';
import { feedWarnings, parseVideoStream } from '../../src/live/feed-health';
import { capRungs, LIVE_LADDER } from '../../src/live/rungs';
import { rtmpPullHost, sourceUrl } from '../../src/media/args/live-ingest';
import { srtCallerUrl } from '../../src/features/channels/view';
import { loadConfig } from '../../src/kernel/config/load';

// Stream lines as the ingest ffmpeg prints them (SRT/MPEG-TS and RTMP/FLV inputs).
const L444 = '  Stream #0:0[0x41]: Video: h264 (High 4:4:4 Predictive) (HDMV / 0x564D4448), yuv444p(tv, smpte170m, progressive), 320x240 [SAR 1:1 DAR 4:3], 30 fps, 30 tbr, 90k tbn';
const L10 = '  Stream #0:0[0x100]: Video: h264 (High 10) ([27][0][0][0] / 0x001B), yuv420p10le(progressive), 1920x1080, 50 fps, 50 tbr, 90k tbn';
const LOK = '  Stream #0:0: Video: h264 (Constrained Baseline), yuv420p(tv, bt709, progressive), 1280x720 [SAR 1:1 DAR 16:9], 25 fps, 25 tbr, 1k tbn';
const LHEVC = '  Stream #0:0[0x100]: Video: hevc (Main) (HEVC / 0x43564548), yuv420p(tv), 3840x2160, 25 fps, 25 tbr, 90k tbn';
const LNOPROF = '  Stream #0:0[0x100]: Video: h264 ([27][0][0][0] / 0x001B), yuv420p(progressive), 640x360, 25 fps, 25 tbr, 90k tbn';

describe('feed health', () => {
  test('parses codec, profile, pixel format and size from ffmpeg stream lines', () => {
    expect(parseVideoStream(L444)).toEqual({ codec: 'h264', profile: 'High 4:4:4 Predictive', pixFmt: 'yuv444p', width: 320, height: 240 });
    expect(parseVideoStream(L10)).toEqual({ codec: 'h264', profile: 'High 10', pixFmt: 'yuv420p10le', width: 1920, height: 1080 });
    expect(parseVideoStream(LOK)).toEqual({ codec: 'h264', profile: 'Constrained Baseline', pixFmt: 'yuv420p', width: 1280, height: 720 });
    expect(parseVideoStream(LHEVC)).toEqual({ codec: 'hevc', profile: 'Main', pixFmt: 'yuv420p', width: 3840, height: 2160 });
    expect(parseVideoStream(LNOPROF)).toEqual({ codec: 'h264', profile: null, pixFmt: 'yuv420p', width: 640, height: 360 });
    expect(parseVideoStream('  Stream #0:1[0x101]: Audio: aac (LC) ([15][0][0][0] / 0x000F), 48000 Hz, stereo, fltp')).toBeNull();
  });

  test('passthrough warns about what browsers cannot decode; a ladder never warns', () => {
    const w444 = feedWarnings(parseVideoStream(L444), true);
    expect(w444).toHaveLength(1);
    expect(w444[0].code).toBe('video_profile_unplayable');
    expect(w444[0].detail).toContain('H.264 High 4:4:4 Predictive, yuv444p');
    expect(feedWarnings(parseVideoStream(L10), true)[0].detail).toContain('yuv420p10le');
    expect(feedWarnings(parseVideoStream(LHEVC), true)[0].code).toBe('video_codec_unplayable');
    expect(feedWarnings(parseVideoStream(LOK), true)).toEqual([]);
    expect(feedWarnings(parseVideoStream(LNOPROF), true)).toEqual([]);
    expect(feedWarnings(parseVideoStream(L444), false)).toEqual([]);
    expect(feedWarnings(null, true)).toEqual([]);
  });

  test('rungs above the feed height are dropped, at least one kept', () => {
    const names = (h: number | null) => capRungs(LIVE_LADDER, h).map((r) => r.name);
    expect(names(null)).toEqual(['720p', '480p', '360p']);
    expect(names(1080)).toEqual(['720p', '480p', '360p']);
    expect(names(720)).toEqual(['720p', '480p', '360p']);
    expect(names(576)).toEqual(['480p', '360p']);
    expect(names(240)).toEqual(['360p']); // below every rung: the lowest, encoded at the feed's height (never upscaled)
  });
});

describe('ingest addresses', () => {
  test('SRT caller URL is complete for common encoders', () => {
    expect(srtCallerUrl({ host: 'studio.example', port: 9000, passphrase: 'abc def+', latencyMs: 120 }))
      .toBe('srt://studio.example:9000?mode=caller&latency=120&passphrase=abc%20def%2B&pbkeylen=16');
    expect(srtCallerUrl({ host: '::1', port: 9001, passphrase: 'p', latencyMs: 500, pbkeylen: 32, streamId: 'live/a' }))
      .toBe('srt://[::1]:9001?mode=caller&latency=500&passphrase=p&pbkeylen=32&streamid=live%2Fa');
  });

  test('listeners bind VS_SRT_HOST; RTMP is pulled from loopback or the bound address', () => {
    const srt = (bind?: string) => sourceUrl({ kind: 'srt', port: 9000, passphrase: 'x', latencyMs: 120, bind });
    expect(srt()).toStartWith('srt://0.0.0.0:9000?mode=listener&');
    expect(srt('127.0.0.1')).toStartWith('srt://127.0.0.1:9000?');
    expect(srt('::')).toStartWith('srt://[::]:9000?');
    expect(rtmpPullHost('0.0.0.0')).toBe('127.0.0.1');
    expect(rtmpPullHost('::')).toBe('127.0.0.1');
    expect(rtmpPullHost('10.1.2.3')).toBe('10.1.2.3');
    expect(rtmpPullHost('fd00::1')).toBe('[fd00::1]');
  });
});

describe('listener address config', () => {
  test('defaults to 0.0.0.0 whatever --host is; VS_SRT_HOST / VS_RTMP_HOST override; junk refused', () => {
    const c = loadConfig({ host: '127.0.0.1' }, {});
    expect([c.srtHost, c.rtmpHost]).toEqual(['0.0.0.0', '0.0.0.0']);
    const e = loadConfig({}, { VS_SRT_HOST: '127.0.0.1', VS_RTMP_HOST: '::1' });
    expect([e.srtHost, e.rtmpHost]).toEqual(['127.0.0.1', '::1']);
    expect(() => loadConfig({}, { VS_SRT_HOST: 'a b' })).toThrow('srt_host');
  });
});
