import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { mediaPlaylist, masterPlaylist } from '../../src/live/playlist';
import { SegmentIndex } from '../../src/live/segment-index';
import { reconcileChannel } from '../../src/live/reconcile';
import { openDb } from '../../src/kernel/db/sqlite';
import { segmentRelPath, initPath } from '../../src/live/paths';
import { ingestArgs } from '../../src/media/args/live-ingest';
import { isCompleteSegment } from '../../src/live/mp4';
import type { SegmentRow } from '../../src/features/channels/store';

const ch = { id: 'ch', tenant_id: 'ten', segment_s: 2 };
const row = (start: number, o: Partial<SegmentRow> = {}): SegmentRow => ({ channel_id: 'c', rendition: 'src', start_ms: start, duration_ms: 2000, bytes: 10, path: 'x', discontinuity: 0, init_ms: 1000, seq: 0, disc_seq: 0, ...o });

test('media playlist: PDT per segment, map on init change, discontinuity tag not before the first segment, sequences from the index', () => {
  const t = mediaPlaylist([row(1000, { seq: 7, disc_seq: 1, discontinuity: 1 }), row(3000, { seq: 8, disc_seq: 1 }), row(9000, { seq: 9, disc_seq: 2, discontinuity: 1, init_ms: 9000 })], { targetS: 2, ended: false });
  expect(t).toContain('#EXT-X-MEDIA-SEQUENCE:7');
  expect(t).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
  expect(t.split('#EXT-X-DISCONTINUITY\n').length).toBe(2);
  expect(t).toContain('#EXT-X-MAP:URI="init/1000.mp4"');
  expect(t).toContain('#EXT-X-MAP:URI="init/9000.mp4"');
  expect(t).toContain(`#EXT-X-PROGRAM-DATE-TIME:${new Date(3000).toISOString()}`);
  expect(t).toContain('seg/9000.m4s');
  expect(t).not.toContain('ENDLIST');
  expect(t).not.toMatch(/^\/|https?:/m);
  expect(mediaPlaylist([row(1)], { targetS: 2, ended: true })).toContain('#EXT-X-ENDLIST');
  expect(masterPlaylist([{ uri: 'src/index.m3u8', bandwidth: 1e6, resolution: '1280x720', codecs: 'avc1.64001f,mp4a.40.2' }])).toContain('BANDWIDTH=1000000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"\nsrc/index.m3u8');
});

test('rebuild from file names: durations from neighbours, discontinuity at a gap and at an init change, sequence numbers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-rebuild-'));
  const db = openDb(join(dir, 'db', 'meta.sqlite'));
  try {
    const t0 = Date.UTC(2025, 0, 1, 23, 59, 56);
    const starts = [t0, t0 + 2000, t0 + 4000, t0 + 6000, t0 + 20000, t0 + 22000];
    for (const s of starts) { const p = join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', s)); mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, 'x'); }
    for (const i of [t0, t0 + 20000]) { const p = initPath(dir, 'ten', 'ch', 'src', i); mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, 'i'); }
    writeFileSync(join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', t0)) + '.tmp', 'partial');
    const index = new SegmentIndex(db, dir);
    const st = reconcileChannel(index, dir, ch);
    expect(st).toMatchObject({ hours: 2, changed: 2, segments: 6 });
    expect(db.query('SELECT COUNT(*) AS n FROM live_segments').get()).toEqual({ n: 0 }); // rows are derived lazily
    const rows = index.segmentsInRange(ch, 'src', 0, Number.MAX_SAFE_INTEGER);
    expect(rows.map((r) => r.start_ms)).toEqual(starts);
    expect(rows.map((r) => r.duration_ms)).toEqual([2000, 2000, 2000, 2000, 2000, 2000]);
    expect(rows.map((r) => r.discontinuity)).toEqual([0, 0, 0, 0, 1, 0]);
    expect(rows.map((r) => r.init_ms)).toEqual([t0, t0, t0, t0, t0 + 20000, t0 + 20000]);
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rows.map((r) => r.disc_seq)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(rows.map((r) => r.bytes)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(rows[2].path).toMatch(/^ten\/ch\/src\/2025\/01\/02\/00\/\d+\.m4s$/);
    expect(index.segmentsInRange(ch, 'src', t0 + 5000, t0 + 6001).map((r) => r.start_ms)).toEqual([t0 + 4000, t0 + 6000]);
    expect(index.lastSegment(ch, 'src')?.start_ms).toBe(t0 + 22000);
    expect(index.renditions('ch')).toEqual(['src']);

    // Nothing changed: a second reconciliation keeps every hour and its derived rows.
    expect(reconcileChannel(index, dir, ch)).toMatchObject({ hours: 2, changed: 0, segments: 6 });
    expect(db.query('SELECT COUNT(*) AS n FROM live_segments').get()).toEqual({ n: 6 });

    // A file lands in the second hour behind the index's back: only that hour is summarised again.
    const extra = t0 + 24000;
    writeFileSync(join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', extra)), 'xy');
    expect(reconcileChannel(index, dir, ch)).toMatchObject({ hours: 2, changed: 1, segments: 7 });
    const after = index.segmentsInRange(ch, 'src', 0, Number.MAX_SAFE_INTEGER);
    expect(after.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(after[5].duration_ms).toBe(2000);
    expect(after[6]).toMatchObject({ start_ms: extra, bytes: 2, disc_seq: 1 });

    // The first hour's directory disappears: its rows go, the rest keep their numbers.
    rmSync(join(dir, 'rec', 'ten', 'ch', 'src', '2025', '01', '01'), { recursive: true });
    reconcileChannel(index, dir, ch);
    expect(index.segmentsInRange(ch, 'src', 0, Number.MAX_SAFE_INTEGER).map((r) => r.start_ms)).toEqual([t0 + 4000, t0 + 6000, t0 + 20000, t0 + 22000, extra]);
  } finally { db.close(); rmSync(dir, { recursive: true, force: true }); }
});

test('ingest argv: SRT listener with passphrase, passthrough, fMP4 HLS, -nostdin first', () => {
  const a = ingestArgs({ ffmpeg: 'ffmpeg', source: { kind: 'srt', port: 9000, passphrase: 'p4ssphrase-secret', latencyMs: 120 }, outDir: '/o', segmentS: 2 });
  expect(a[1]).toBe('-nostdin');
  expect(a).toContain('-protocol_whitelist');
  expect(a[a.indexOf('-i') + 1]).toBe('srt://0.0.0.0:9000?mode=listener&passphrase=p4ssphrase-secret&pbkeylen=16&latency=120000');
  expect(a[a.indexOf('-c') + 1]).toBe('copy');
  expect(a[a.indexOf('-hls_segment_type') + 1]).toBe('fmp4');
  expect(a[a.indexOf('-hls_time') + 1]).toBe('2');
});

test('segment check: truncated boxes are refused', () => {
  const box = (type: string, body: number) => { const b = new Uint8Array(8 + body); new DataView(b.buffer).setUint32(0, 8 + body); b.set([...type].map((c) => c.charCodeAt(0)), 4); return b; };
  const ok = new Uint8Array([...box('moof', 8), ...box('mdat', 100)]);
  expect(isCompleteSegment(ok)).toBe(true);
  expect(isCompleteSegment(ok.subarray(0, ok.length - 10))).toBe(false);
  expect(isCompleteSegment(box('mdat', 4))).toBe(false);
});
