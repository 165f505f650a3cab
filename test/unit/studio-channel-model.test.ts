import { expect, test } from 'bun:test';
import { patchOf } from '../../assets-ui/studio/pages/channel-edit';
import { addSample, noSeries } from '../../assets-ui/studio/pages/channel-health';
import type { ChannelView } from '../../assets-ui/studio/pages/live';

const ch = {
  id: 'c1', slug: 'one', name: 'One', status: 'live', started: true, feed: 'primary', recording: 'on',
  input: { bitrate_kbps: 900, fps: 25, resolution: '320x180', video_codec: 'h264', audio_codec: 'aac' },
  inputs: { primary: { connected: true, bitrate_kbps: 900, fps: 25, resolution: '320x180', restarts: 0 }, backup: { connected: false, bitrate_kbps: 700, fps: 24, resolution: null, restarts: 2 } },
  ingest: { protocol: 'srt', srt_ports: { primary: 1, backup: 2 }, latency_ms: 120, failover_s: 3 },
  ladder: 'passthrough', playback: { hls: '' }, created_at: '', segment_s: 2, dvr_window_s: 3600, timezone: 'UTC', recording_settings: { enabled: true, retention_hours: 168 },
} as ChannelView;
const form = { name: 'One', protocol: 'srt', latency: '120', failover: '3', ladder: 'passthrough', segment: '2', dvr: '3600', rec: true, retention: '168', timezone: 'UTC' };

test('the settings form sends only what changed, numbers as numbers and unreadable numbers as typed (the API names them)', () => {
  expect(patchOf(ch, form)).toEqual({});
  expect(patchOf(ch, { ...form, name: 'Two', failover: '2.5', rec: false, timezone: 'Asia/Jerusalem' }))
    .toEqual({ name: 'Two', ingest: { failover_s: 2.5 }, recording: { enabled: false }, timezone: 'Asia/Jerusalem' });
  expect(patchOf(ch, { ...form, latency: 'abc', ladder: 'abr', segment: '' })).toEqual({ ingest: { latency_ms: 'abc' }, ladder: 'abr', segment_s: '' });
  // Custom rungs are kept (the form does not edit them).
  expect(patchOf({ ...ch, ladder: [{ height: 720, video_kbps: 2000 }] }, { ...form, ladder: 'custom' })).toEqual({});
});

test('per-input samples: a silent input draws a hole, the oldest fall off past 150', () => {
  let h = noSeries();
  h = addSample(h, ch, 1);
  expect(h.primary).toEqual({ times: [1], kbps: [900], fps: [25] });
  expect(h.backup).toEqual({ times: [1], kbps: [null], fps: [null] });
  for (let i = 2; i <= 200; i++) h = addSample(h, ch, i);
  expect(h.primary.times.length).toBe(150);
  expect(h.primary.times[0]).toBe(51);
  expect(addSample(h, { ...ch, inputs: undefined }, 201)).toBe(h);
});
