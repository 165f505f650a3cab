import { expect, test } from 'bun:test';
import { recordingSpeechAudioArgs } from '../../src/media/args/recording-speech-audio';
import { audioRuns } from '../../src/features/subtitles/channel-jobs';
import type { SegmentRow } from '../../src/features/channels/store';

// Issue 43, channel recordings: the argv that reads recorded CMAF files as one fMP4 for speech, and how segments are
// grouped into runs (one init, no gap, bounded length).

test('golden argv: init + segments joined by concat:, first audio stream as 16 kHz mono WAV', () => {
  expect(recordingSpeechAudioArgs('ffmpeg', ['/r/init-1.mp4', '/r/1000.m4s', '/r/3000.m4s'], '/w/run-0.wav').join(' ')).toBe(
    'ffmpeg -nostdin -hide_banner -loglevel error -y -protocol_whitelist file,concat -f mp4 -i concat:/r/init-1.mp4|/r/1000.m4s|/r/3000.m4s'
    + ' -map 0:a:0 -vn -sn -dn -ac 1 -ar 16000 -c:a pcm_s16le -f wav /w/run-0.wav');
});

const seg = (start: number, init = 0, dur = 2000, disc = 0): SegmentRow => ({ channel_id: 'c', rendition: 'src', start_ms: start, duration_ms: dur, bytes: 1, path: `${start}.m4s`, discontinuity: disc, init_ms: init, seq: 0, disc_seq: 0 });

test('runs split at an init change, a gap, a discontinuity, and every 200 segments', () => {
  const runs = audioRuns([seg(0), seg(2000), seg(4000, 4000), seg(6000, 4000), seg(10_000, 4000), seg(12_000, 4000, 2000, 1)]);
  expect(runs.map((r) => r.map((s) => s.start_ms))).toEqual([[0, 2000], [4000, 6000], [10_000], [12_000]]);
  const long = audioRuns(Array.from({ length: 450 }, (_, i) => seg(i * 2000)));
  expect(long.map((r) => r.length)).toEqual([200, 200, 50]);
});
