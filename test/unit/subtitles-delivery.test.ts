import { expect, test } from 'bun:test';
import { masterWithSubs, mediaSegments, subsPlaylist, timestampMap, uniqueNames, vttSegment } from '../../src/features/subtitles/hls-subs';
import { mpdWithSubs, nextAdaptationId } from '../../src/features/subtitles/dash-subs';
import { cuePlainText, rtlLanguage } from '../../assets-ui/player/captions';

const MASTER = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="x",URI="a.m3u8"\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a"\nv0.m3u8\n\n#EXT-X-STREAM-INF:BANDWIDTH=2,AUDIO="a"\nv1.m3u8\n';

test('master: renditions before the first variant, every variant names the group; idempotent; untouched without tracks', () => {
  const subs = [{ uri: 's1.m3u8', language: 'he', name: 'עברית', kind: 'subtitles', isDefault: false }, { uri: 's2.m3u8', language: 'he', name: 'עברית', kind: 'captions', isDefault: false }];
  const out = masterWithSubs(MASTER, subs);
  const lines = out.split('\n');
  expect(lines.filter((l) => l.startsWith('#EXT-X-MEDIA:TYPE=SUBTITLES')).map((l) => /NAME="([^"]+)"/.exec(l)![1])).toEqual(['עברית', 'עברית (2)']);
  expect(lines.findIndex((l) => l.startsWith('#EXT-X-MEDIA:TYPE=SUBTITLES'))).toBeLessThan(lines.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF')));
  expect(lines.filter((l) => l.startsWith('#EXT-X-STREAM-INF')).every((l) => l.endsWith(',SUBTITLES="subs"'))).toBe(true);
  expect(masterWithSubs(out, subs)).toBe(out);
  expect(masterWithSubs(MASTER, [])).toBe(MASTER);
  expect(masterWithSubs(MASTER, [{ ...subs[0], name: 'a"b\nc' }])).toContain('NAME="a\'b\'c"');
  expect(uniqueNames(['a', 'a', 'b', 'a'])).toEqual(['a', 'a (2)', 'b', 'a (3)']);
});

test('subtitle playlist mirrors the media segments, discontinuities and end; segments carry every overlapping cue whole', () => {
  const media = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="i.mp4"\n#EXTINF:4.000,\na.m4s\n#EXT-X-DISCONTINUITY\n#EXTINF:2.5,\nb.m4s\n#EXT-X-ENDLIST\n';
  const m = mediaSegments(media);
  expect(m.segments).toEqual([{ startMs: 0, durMs: 4000, discontinuity: false }, { startMs: 4000, durMs: 2500, discontinuity: true }]);
  expect(subsPlaylist(m, (n) => `s_${n}.vtt`)).toBe('#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.000,\ns_0.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:2.500,\ns_1.vtt\n#EXT-X-ENDLIST\n');
  const cues = [{ startMs: 500, endMs: 1000, text: 'a' }, { startMs: 3500, endMs: 4500, text: 'b <i>' }, { startMs: 4000, endMs: 5000, text: 'שלום' }];
  expect(vttSegment(cues, 4000, 6500, 0, 'he')).toBe('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000\n\n00:00:03.500 --> 00:00:04.500\n\u200fb &lt;i&gt;\n\n00:00:04.000 --> 00:00:05.000\n\u200fשלום\n');
  expect(vttSegment(cues, 6500, 9000, 900_000, 'en')).toBe('WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n');
  expect(timestampMap(2 ** 33 + 5)).toBe('X-TIMESTAMP-MAP=MPEGTS:5,LOCAL:00:00:00.000');
});

test('MPD: a text adaptation set per track before </Period>, XML-escaped, with the next free id', () => {
  const mpd = '<MPD>\n\t<Period id="0">\n\t\t<AdaptationSet id="0" contentType="video"/>\n\t\t<AdaptationSet id="1" contentType="audio"/>\n\t</Period>\n</MPD>\n';
  const id = nextAdaptationId(mpd);
  expect(id).toBe(2);
  const out = mpdWithSubs(mpd, [{ id: 't1', language: 'he', label: 'a<b>&"', kind: 'captions', url: 'subs_t1.vtt' }], id);
  expect(out).toContain('<AdaptationSet id="2" contentType="text" mimeType="text/vtt" lang="he">\n\t\t\t<Role schemeIdUri="urn:mpeg:dash:role:2011" value="caption"/>\n\t\t\t<Label>a&lt;b&gt;&amp;&quot;</Label>');
  expect(out.indexOf('contentType="text"')).toBeLessThan(out.indexOf('</Period>'));
  expect(mpdWithSubs(mpd, [], 2)).toBe(mpd);
});

test('player: cue text is plain text (tags dropped, escapes decoded once); RTL languages', () => {
  expect(cuePlainText('<v Bob><i>a &lt;script&gt; &amp;amp;</i></v>')).toBe('a <script> &amp;');
  expect(['he', 'he-IL', 'ar', 'iw', 'fa', 'yi'].every(rtlLanguage)).toBe(true);
  expect(['en', 'ru', 'hei', 'arn'].some(rtlLanguage)).toBe(false);
});
