import { expect, test } from 'bun:test';
import { STRINGS, fmtTime } from '../../assets-ui/player/i18n';
import { parseThumbVtt, parseChapterVtt } from '../../assets-ui/player/features';
import { resolveOptions } from '../../assets-ui/player/options';
import { LIBRARY_SKINS } from '../../src/features/player/skins';

test('every player string exists, non-empty and distinct from English, in he, ar and ru', () => {
  const keys = Object.keys(STRINGS.en);
  for (const lang of ['he', 'ar', 'ru'] as const) {
    expect(Object.keys(STRINGS[lang]).sort()).toEqual([...keys].sort());
    for (const k of keys) {
      const v = STRINGS[lang][k as keyof typeof STRINGS.en];
      expect(v.length).toBeGreaterThan(0);
      expect(v).not.toBe(STRINGS.en[k as keyof typeof STRINGS.en]);
    }
  }
  expect(STRINGS.he.resumeAsk).toContain('{t}');
});

test('time text, sprite and chapter VTT parsing', () => {
  expect(fmtTime(0)).toBe('0:00');
  expect(fmtTime(75.4)).toBe('1:15');
  expect(fmtTime(3725)).toBe('1:02:05');
  const cues = parseThumbVtt('WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nsprite.jpg#xywh=0,0,160,90\n\n00:05.000 --> 00:10.000\nsprite.jpg#xywh=160,0,160,90\n', 'https://cdn.example/m/a/thumbs.vtt');
  expect(cues).toEqual([
    { start: 0, end: 5, url: 'https://cdn.example/m/a/sprite.jpg', x: 0, y: 0, w: 160, h: 90 },
    { start: 5, end: 10, url: 'https://cdn.example/m/a/sprite.jpg', x: 160, y: 0, w: 160, h: 90 },
  ]);
  expect(parseChapterVtt('WEBVTT\n\n00:00:00.000 --> 00:01:00.000\nIntro\n\n00:01:00.000 --> 00:02:00.000\nMain\n')).toEqual([{ start: 0, title: 'Intro' }, { start: 60, title: 'Main' }]);
});

test('precedence: attributes, then the configuration document, then defaults', () => {
  const doc = { skin: 'neon', language: 'ru', playback: { autoplay: true, resume: 'off' as const, max_seek_back: 30 }, beacon: { heartbeat_s: 30 }, controls: { back_to_live: false } };
  const o = resolveOptions({ src: 'a.m3u8', skin: 'retro', 'back-to-live': '1' }, doc, '/embed/1.3.0');
  expect(o.skin).toBe('retro'); // attribute wins
  expect(o.lang).toBe('ru'); // document
  expect(o.autoplay).toBe(true);
  expect(o.resume).toBe('off');
  expect(o.maxSeekBack).toBe(30);
  expect(o.backToLive).toBe(true);
  expect(o.beacon.heartbeat_s).toBe(30);
  const d = resolveOptions({ src: 'a.m3u8' }, {}, '/embed/1.3.0');
  expect([d.skin, d.resume, d.aspect, d.autoplay, d.beacon.heartbeat_s, d.backToLive]).toEqual(['classic', 'ask', '16:9', false, 15, true]);
  expect(resolveOptions({ src: 'x', 'max-seek-back': '0', 'back-to-live': '0' }, doc, '').maxSeekBack).toBe(0);
});

test('100 library skins, unique names, each a different token set', () => {
  expect(LIBRARY_SKINS.length).toBe(100);
  expect(new Set(LIBRARY_SKINS.map((s) => s.name)).size).toBe(100);
  expect(new Set(LIBRARY_SKINS.map((s) => JSON.stringify(s.tokens))).size).toBe(100);
});
