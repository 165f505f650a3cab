import { expect, test } from 'bun:test';
import { capFps, planLadder, type Ladder } from '../../src/media/ladder';
import { parseProbe, type VideoInfo } from '../../src/media/probe-parse';
import { parseLadders } from '../../src/features/transcode/ladders';
import shipped from '../../config/ladders.yml' with { type: 'text' };

const cfg = parseLadders(shipped);
const std: Ladder = cfg.ladders[cfg.default];
const vid = (w: number, h: number, fps = 25, rotation = 0): VideoInfo => ({
  codec: 'h264', width: w, height: h, displayWidth: rotation % 180 ? h : w, displayHeight: rotation % 180 ? w : h, rotation, fps, pixFmt: 'yuv420p', bitDepth: 8, hdr: false, profile: null,
});
const sizes = (v: VideoInfo, l = std) => { const p = planLadder(l, v); if ('error' in p) throw new Error(p.error); return p.renditions.map((r) => `${r.width}x${r.height}`); };

test('shipped ladders parse; default ladder exists', () => {
  expect(cfg.default).toBe('standard');
  expect(Object.keys(cfg.ladders)).toContain('fast');
  expect(() => parseLadders('ladders: {x: {segment_s: 3, keyframe_s: 2, renditions: [{name: a, height: 360, video_k: 1}]}}\ndefault: x')).toThrow(/multiple/);
  expect(() => parseLadders('ladders: {}\ndefault: nope')).toThrow(/not defined/);
});

test('1080p gets the full ladder; 4K is capped at 1080p (never above the top rung)', () => {
  expect(sizes(vid(1920, 1080))).toEqual(['1920x1080', '1280x720', '854x480', '640x360', '256x144']);
  expect(sizes(vid(3840, 2160))[0]).toBe('1920x1080');
});

test('never upscale: a 180p source gets a source-size top rung; sizes are even and keep the aspect', () => {
  expect(sizes(vid(320, 180))).toEqual(['320x180', '256x144']);
  expect(sizes(vid(1000, 562))).toEqual(['1000x562', '854x480', '640x360', '256x144']);
  for (const s of sizes(vid(1440, 1080))) for (const n of s.split('x').map(Number)) expect(n % 2).toBe(0);
  expect(sizes(vid(1440, 1080))[1]).toBe('960x720');
});

test('portrait (rotated phone) rungs apply to the short side', () => {
  expect(sizes(vid(1920, 1080, 30, 90))).toEqual(['1080x1920', '720x1280', '480x854', '360x640', '144x256']);
});

test('the top rung bitrate for an in-between source scales with pixels; tiny sources are refused', () => {
  const p = planLadder(std, vid(320, 180));
  if ('error' in p) throw new Error();
  expect(p.renditions[0].video_k).toBe(Math.round(800 * (180 / 360) ** 2));
  expect(planLadder(std, vid(1, 1))).toEqual({ error: 'video is too small (1x1); the minimum is 16x16' });
});

test('frame rate is capped by integer division; GOP frames follow', () => {
  expect(capFps(50, 30)).toEqual({ fps: 25, divisor: 2 });
  expect(capFps(59.94, 30).divisor).toBe(2);
  expect(capFps(120, 30)).toEqual({ fps: 30, divisor: 4 });
  expect(capFps(25, 30)).toEqual({ fps: 25, divisor: 1 });
  const p = planLadder(std, vid(1280, 720, 60));
  if ('error' in p) throw new Error();
  expect(p.gopFrames).toBe(60);
});

test('probe parsing: rotation, 10-bit, HDR, audio layout; nothing playable is refused', () => {
  const j = (streams: unknown[], format: Record<string, unknown> = { format_name: 'mov,mp4', duration: '4.0' }) => JSON.stringify({ streams, format });
  const info = parseProbe(j([
    { codec_type: 'video', codec_name: 'hevc', width: 1920, height: 1080, avg_frame_rate: '30000/1001', pix_fmt: 'yuv420p10le', color_transfer: 'smpte2084', side_data_list: [{ rotation: -90 }] },
    { codec_type: 'audio', codec_name: 'aac', channels: 6, channel_layout: '5.1', sample_rate: '48000' },
  ]));
  if ('error' in info) throw new Error(info.error);
  expect(info.video).toMatchObject({ displayWidth: 1080, displayHeight: 1920, rotation: 270, bitDepth: 10, hdr: true });
  expect(info.video!.fps).toBeCloseTo(29.97, 2);
  expect(info.audio).toMatchObject({ channels: 6, layout: '5.1' });
  expect(parseProbe(j([{ codec_type: 'data' }]))).toEqual({ error: 'no video and no audio stream' });
  expect(parseProbe('{')).toEqual({ error: 'not a media file (probe output unreadable)' });
  expect(parseProbe(j([{ codec_type: 'audio', codec_name: 'mp3' }], { format_name: 'mp3' }))).toEqual({ error: 'unknown or zero duration' });
  const cover = parseProbe(j([{ codec_type: 'video', width: 600, height: 600, disposition: { attached_pic: 1 } }, { codec_type: 'audio', codec_name: 'mp3', channels: 2 }]));
  expect('error' in cover ? null : cover.video).toBeNull();
});

test('renditions keep the exact display aspect through their SAR', () => {
  const p = planLadder(std, vid(1920, 1080));
  if ('error' in p) throw new Error();
  expect(p.renditions.map((r) => r.sar)).toEqual(['1', '1', '1280/1281', '1', '1']);
});
