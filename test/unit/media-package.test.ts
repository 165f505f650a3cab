import { expect, test } from 'bun:test';
import { finishMaster, finishMedia, segmentCount, spriteLayout, thumbsVtt } from '../../src/media/package';
import { byFrames, foldProgress, progressOf, type ProgressState } from '../../src/media/progress';
import { parseRange, mimeOf } from '../../src/features/media-delivery/serve-file';
import { backoffMs } from '../../src/jobs/backoff';

const MASTER = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_A1",NAME="audio_2",DEFAULT=YES,URI="media_2.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=932614,RESOLUTION=320x180,CODECS="avc1.640014,mp4a.40.2",AUDIO="group_A1"\nmedia_0.m3u8\n\n';
const MEDIA = '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MAP:URI="init_0.m4s"\n#EXTINF:2.000000,\n#EXT-X-PROGRAM-DATE-TIME:2026-11-22T02:02:16.000+0000\nseg_0_00001.m4s\n#EXT-X-ENDLIST\n';

test('master playlist golden', () => {
  expect(finishMaster(MASTER)).toBe('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="group_A1",NAME="audio_2",DEFAULT=YES,URI="media_2.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=932614,RESOLUTION=320x180,CODECS="avc1.640014,mp4a.40.2",AUDIO="group_A1"\nmedia_0.m3u8\n');
  expect(finishMaster(finishMaster(MASTER))).toBe(finishMaster(MASTER));
});

test('media playlist golden: VOD vs EVENT, no invented wall clock', () => {
  expect(finishMedia(MEDIA, true)).toBe('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MAP:URI="init_0.m4s"\n#EXTINF:2.000000,\nseg_0_00001.m4s\n#EXT-X-ENDLIST\n');
  const ev = finishMedia(MEDIA, false);
  expect(ev).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
  expect(ev).not.toContain('ENDLIST');
  expect(segmentCount(MEDIA)).toBe(1);
});

test('sprite layout and thumbnail VTT golden', () => {
  expect(spriteLayout(5)).toEqual({ intervalS: 2, count: 3, cols: 3, rows: 1 });
  expect(spriteLayout(3600)).toEqual({ intervalS: 64, count: 57, cols: 10, rows: 6 });
  expect(thumbsVtt(5, spriteLayout(5), 160, 90)).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nsprite.jpg#xywh=0,0,160,90\n\n00:00:02.000 --> 00:00:04.000\nsprite.jpg#xywh=160,0,160,90\n\n00:00:04.000 --> 00:00:05.000\nsprite.jpg#xywh=320,0,160,90\n');
  const long = thumbsVtt(3600, spriteLayout(3600), 160, 90);
  expect(long).toContain('00:59:44.000 --> 01:00:00.000\nsprite.jpg#xywh=960,450,160,90');
});

test('progress lines fold into percent and ETA', () => {
  let st: ProgressState = { outTimeS: 0, speed: null, ended: false };
  for (const l of ['frame=10', 'out_time_us=2000000', 'speed=2.00x', 'progress=continue']) st = foldProgress(st, l);
  expect(st).toEqual({ outTimeS: 2, speed: 2, ended: false, frame: 10 });
  expect(progressOf(st, 8, 1)).toEqual({ pct: 25, etaS: 3 });
  expect(foldProgress(st, 'out_time_us=N/A').outTimeS).toBe(2);
  expect(foldProgress(st, 'progress=end').ended).toBe(true);
  // Media time from frames (first video output): out_time is the furthest of all outputs, stills included.
  expect(byFrames(foldProgress(foldProgress(st, 'frame=50'), 'out_time_us=19000000'), 25).outTimeS).toBe(2);
  expect(byFrames({ outTimeS: 3, speed: null, ended: false }, 25).outTimeS).toBe(3);
});

test('byte ranges: single, open, suffix, past the end, malformed', () => {
  expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
  expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  expect(parseRange('bytes=95-200', 100)).toEqual({ start: 95, end: 99 });
  expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  expect(parseRange('bytes=5-1', 100)).toBe('unsatisfiable');
  expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  expect(parseRange(null, 100)).toBeNull();
  expect(mimeOf('a.m3u8')).toBe('application/vnd.apple.mpegurl');
  expect(mimeOf('a.mpd')).toBe('application/dash+xml');
});

test('retry backoff doubles and is capped', () => {
  expect(backoffMs(1, () => 0.5)).toBe(5000);
  expect(backoffMs(3, () => 0.5)).toBe(20000);
  expect(backoffMs(30, () => 0.5)).toBe(600000);
});
