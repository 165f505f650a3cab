import { describe, expect, test } from 'bun:test';
import { recordedMs, recordingStatus, selectRange } from '../../src/features/catchup/coverage';
import { rangePlaylist } from '../../src/features/catchup/playlist';
import { edgeCutArgs } from '../../src/media/args/cut';
import { planPieces } from '../../src/features/clips/cut-plan';
import { remuxArgs } from '../../src/media/args/remux';
import { runsOf } from '../../src/features/live-to-vod/runs';
import { matchOf } from '../../src/features/catchup/match';
import { foldText } from '../../src/features/assets/search';

const seg = (start: number, dur = 2000, init = 0, disc = 0) => ({ start_ms: start, duration_ms: dur, init_ms: init, discontinuity: disc });
const run = (from: number, n: number, init = 0) => Array.from({ length: n }, (_, i) => seg(from + i * 2000, 2000, init));

describe('coverage and range selection', () => {
  test('recorded share per window, gaps counted out', () => {
    const segs = [...run(0, 5), ...run(20_000, 5)];
    expect(recordedMs(segs, [{ from: 0, to: 10_000 }, { from: 5_000, to: 25_000 }, { from: 30_000, to: 40_000 }, { from: -5000, to: 1000 }])).toEqual([10_000, 10_000, 0, 1000]);
  });
  test('nearest segment boundaries', () => {
    const segs = run(0, 5);
    expect(selectRange(segs, 900, 5100).map((s) => s.start_ms)).toEqual([0, 2000, 4000]);
    expect(selectRange(segs, 1100, 4900).map((s) => s.start_ms)).toEqual([2000]);
    expect(selectRange(segs, 2100, 2200).map((s) => s.start_ms)).toEqual([2000]);
  });
  test('status rules', () => {
    expect(recordingStatus(0.96, false)).toBe('recorded');
    expect(recordingStatus(0.9, false)).toBe('partial');
    expect(recordingStatus(0.01, true)).toBe('recorded');
    expect(recordingStatus(0, true)).toBe('not_recorded');
  });
});

describe('playlists', () => {
  test('VOD playlist: relative URIs with the tenant query, MAP on init change, discontinuity at gaps, ENDLIST', () => {
    const p = rangePlaylist([seg(1_000_000), seg(1_002_000), seg(1_010_000, 2000, 1_010_000, 1)], { targetS: 2, type: 'VOD', ended: true, q: '?c=default' });
    const lines = p.trim().split('\n');
    expect(lines).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(lines.filter((l) => l.startsWith('#EXT-X-MAP')).map((l) => l)).toEqual(['#EXT-X-MAP:URI="init/0.mp4?c=default"', '#EXT-X-MAP:URI="init/1010000.mp4?c=default"']);
    expect(lines.filter((l) => l === '#EXT-X-DISCONTINUITY').length).toBe(1);
    expect(lines.filter((l) => !l.startsWith('#'))).toEqual(['seg/1000000.m4s?c=default', 'seg/1002000.m4s?c=default', 'seg/1010000.m4s?c=default']);
    expect(lines[lines.length - 1]).toBe('#EXT-X-ENDLIST');
  });
  test('EVENT playlist has no ENDLIST', () => {
    const p = rangePlaylist(run(0, 2), { targetS: 2, type: 'EVENT', ended: false, q: '' });
    expect(p).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(p).not.toContain('#EXT-X-ENDLIST');
  });
});

describe('frame-exact cut plan and argv', () => {
  test('inner segments copied, edges cut, gap kept', () => {
    const segs = [...run(0, 3), ...run(10_000, 3, 10_000).map((s, i) => ({ ...s, discontinuity: i === 0 ? 1 : 0 }))];
    const p = planPieces(segs, 1500, 13_000);
    expect(p.map((x) => x.kind)).toEqual(['cut', 'copy', 'copy', 'copy', 'cut']);
    expect(p[0]).toMatchObject({ fromMs: 1500, toMs: 2000 });
    expect(p[4]).toMatchObject({ segStartMs: 12_000, fromMs: 12_000, toMs: 13_000 });
    expect(p.map((x) => x.discontinuity)).toEqual([false, false, false, true, false]);
    expect(planPieces(run(0, 3), 2500, 3000)).toEqual([{ kind: 'cut', segStartMs: 2000, initMs: 0, fromMs: 2500, toMs: 3000, discontinuity: false }]);
  });
  test('argv: -nostdin, whitelist, input seek before -i, one fMP4 piece', () => {
    const a = edgeCutArgs({ ffmpeg: 'ffmpeg', input: '/w/in.mp4', offsetS: 0.52, durationS: 1.48, outDir: '/w/p' });
    expect(a[1]).toBe('-nostdin');
    expect(a.slice(a.indexOf('-protocol_whitelist'), a.indexOf('-protocol_whitelist') + 2)).toEqual(['-protocol_whitelist', 'file']);
    expect(a.indexOf('-ss')).toBeLessThan(a.indexOf('-i'));
    expect(a[a.indexOf('-ss') + 1]).toBe('0.520');
    expect(a[a.length - 1]).toBe('/w/p/index.m3u8');
    const r = remuxArgs({ ffmpeg: 'ffmpeg', list: '/w/l.ffconcat', out: '/a/source.mp4' });
    expect(r).toContain('copy');
    expect(r[r.indexOf('-protocol_whitelist') + 1]).toBe('file,pipe');
    expect(runsOf([seg(0), seg(2000), seg(4000, 2000, 4000), seg(6000, 2000, 4000)]).map((x) => [x.initMs, x.segs.length])).toEqual([[0, 2], [4000, 2]]);
  });
});

describe('search folding and match snippets', () => {
  test('niqqud and final letters fold; match names the field with a snippet', () => {
    expect(foldText('שָׁלוֹם')).toBe('שלומ');
    const m = matchOf({ title: 'Evening', series: null, description: 'מהדורה מיוחדת עם סיכום החדשות של היום' }, ['חדשות']);
    expect(m.field).toBe('description');
    expect(m.snippet).toContain('החדשות');
  });
});
