import { expect, test } from 'bun:test';
import { createDecipheriv, randomBytes } from 'node:crypto';
import { Parser } from 'm3u8-parser';
import { encryptedPlaylist, encryptInit, encryptSegment, keyIv } from '../../src/features/media-delivery/aes';
import { boxes } from '../../src/live/mp4';

const dec = (b: Buffer, key: Buffer, iv: Buffer) => { const d = createDecipheriv('aes-128-cbc', key, iv); return Buffer.concat([d.update(b), d.final()]); };
const CLEAR = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:1', '#EXT-X-MAP:URI="init_0.m4s"',
  '#EXTINF:2.000000,', 'seg_0_00001.m4s', '#EXTINF:2.000000,', 'seg_0_00002.m4s', '#EXT-X-ENDLIST', ''].join('\n');

test('playlist: one key tag with an explicit IV before EXT-X-MAP, nothing between EXTINF and its URI; parses clean', () => {
  const key = randomBytes(16), iv = keyIv(key);
  const text = encryptedPlaylist(CLEAR, iv);
  const lines = text.split('\n');
  const k = lines.findIndex((l) => l.startsWith('#EXT-X-KEY'));
  expect(lines[k]).toBe(`#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x${iv.toString('hex')}`);
  expect(lines[k + 1]).toStartWith('#EXT-X-MAP');
  expect(lines.filter((l) => l.startsWith('#EXT-X-KEY')).length).toBe(1);
  lines.forEach((l, i) => { if (l.startsWith('#EXTINF')) expect(lines[i + 1]).not.toStartWith('#'); });
  const p = new Parser();
  const warnings: string[] = [];
  p.on('warn', (w: { message: string }) => warnings.push(w.message));
  p.push(text); p.end();
  expect(warnings).toEqual([]);
  expect(p.manifest.segments[0].key).toMatchObject({ method: 'AES-128', uri: 'key.bin' });
  expect(p.manifest.segments[0].map.key).toMatchObject({ method: 'AES-128', uri: 'key.bin' });
});

test('init: decrypts with the key tag IV to the clear init plus a trailing free box; its last cipher block is the IV', () => {
  for (const len of [700, 765, 814, 800, 31]) {
    const key = randomBytes(16), iv = keyIv(key);
    const init = Buffer.alloc(len, 1);
    init.writeUInt32BE(len, 0); init.write('ftyp', 4);
    const enc = encryptInit(init, key, iv);
    expect(enc.subarray(enc.length - 16).equals(iv)).toBe(true);
    const plain = dec(enc, key, iv);
    expect(plain.subarray(0, len).equals(init)).toBe(true);
    expect(boxes(plain, 0, plain.length)!.map((b) => b.type)).toEqual(['ftyp', 'free']);
    // GStreamer's hlsdemux runs the next segment's CBC chain on from the init's last block: same result as the IV.
    const seg = randomBytes(1000);
    const encSeg = encryptSegment(seg, key, iv);
    expect(dec(encSeg, key, enc.subarray(enc.length - 16)).equals(seg)).toBe(true);
  }
});
