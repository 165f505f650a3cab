/** Live subtitles (issue 43), pure parts: chunk choice, kept words, cue joining, hourly split, the live playlists. */
import { expect, test } from 'bun:test';
import { byHour, CHUNK_MAX_MS, joinCues, keepWords, nextChunk } from '../../src/features/subtitles/live-cues';
import { liveSubsPlaylist, liveTimestampMap } from '../../src/live/subtitle-playlist';
import type { SegmentRow } from '../../src/live/model';
import { Database } from 'bun:sqlite';
import { migrate } from '../../src/kernel/db/sqlite';

const T0 = 1_795_000_000_000;
const seg = (i: number, o: Partial<SegmentRow> = {}): SegmentRow => ({ channel_id: 'c', rendition: 'src', start_ms: T0 + i * 2000, duration_ms: 2000, bytes: 1, path: '', discontinuity: 0, init_ms: T0, seq: 100 + i, disc_seq: 0, ...o });

test('a chunk waits for 4 s of new audio, starts at the segment holding untilMs, stops at a new init, skips ahead when far behind', () => {
  const segs = [0, 1, 2, 3].map((i) => seg(i));
  expect(nextChunk(segs.slice(0, 2), T0 + 1000)).toBeNull(); // 3 s new
  const c = nextChunk(segs.slice(0, 3), T0 + 1000)!;
  expect([c.segs.length, c.audioStartMs, c.fromMs, c.endMs, c.skippedMs]).toEqual([3, T0, T0 + 1000, T0 + 6000, 0]);
  expect(nextChunk(segs.slice(0, 2), T0 + 1000, true)!.endMs).toBe(T0 + 4000); // the feed ended: taken as it is
  const changed = [seg(0), seg(1), seg(2, { init_ms: T0 + 4000 }), seg(3, { init_ms: T0 + 4000 })];
  expect(nextChunk(changed, T0)!.segs.length).toBe(2); // cut before the new init, taken although short
  const far = Array.from({ length: 80 }, (_, i) => seg(i));
  const f = nextChunk(far, T0)!;
  expect(f.fromMs).toBe(T0 + 160_000 - CHUNK_MAX_MS);
  expect(f.skippedMs).toBe(160_000 - CHUNK_MAX_MS);
});

test('words of the last second wait for the next chunk; a word reaching over the cut moves untilMs past it', () => {
  const w = (s: number, e: number, text: string) => ({ startMs: T0 + s, endMs: T0 + e, text });
  const r = keepWords([w(-300, 100, 'cut'), w(500, 900, 'a'), w(4400, 5200, 'b'), w(5300, 5900, 'late')], T0, T0 + 6000, false);
  expect(r.words.map((x) => x.text)).toEqual(['a', 'b']);
  expect(r.untilMs).toBe(T0 + 5200);
  expect(keepWords([w(5300, 5900, 'late')], T0, T0 + 6000, true).words.length).toBe(1);
});

test('a new cue keeps 80 ms from the last one written; cues split by UTC hour with relative times', () => {
  expect(joinCues({ startMs: 0, endMs: 5000 }, [{ startMs: 4000, endMs: 6000, text: 'x' }])).toEqual({ prevEnd: 3920, cues: [{ startMs: 4000, endMs: 6000, text: 'x' }] });
  expect(joinCues({ startMs: 3800, endMs: 5000 }, [{ startMs: 4000, endMs: 4200, text: 'x' }])).toEqual({ prevEnd: 4300, cues: [{ startMs: 4380, endMs: 4880, text: 'x' }] });
  expect(joinCues({ startMs: 0, endMs: 1000 }, [{ startMs: 2000, endMs: 3000, text: 'x' }]).prevEnd).toBeNull();
  const h = Math.floor(T0 / 3_600_000) * 3_600_000;
  const m = byHour([{ startMs: h + 3_599_000, endMs: h + 3_601_000, text: 'a' }, { startMs: h + 3_600_500, endMs: h + 3_602_000, text: 'b' }]);
  expect([...m.entries()]).toEqual([[h, [{ startMs: 3_599_000, endMs: 3_600_000, text: 'a' }]], [h + 3_600_000, [{ startMs: 500, endMs: 2000, text: 'b' }]]]);
});

test('the live subtitle playlist follows the video window up to what is recognised; the timestamp map pairs both clocks', () => {
  const segs = [0, 1, 2].map((i) => seg(i));
  const pl = liveSubsPlaylist(segs, { targetS: 2, ended: false, untilMs: T0 + 4500 });
  expect(pl).toContain('#EXT-X-MEDIA-SEQUENCE:100');
  expect(pl).toContain(`vtt/${T0}-2000.vtt\n`);
  expect(pl).toContain(`vtt/${T0 + 2000}-2000.vtt`);
  expect(pl).not.toContain(`vtt/${T0 + 4000}`);
  expect(pl).not.toContain('EXT-X-MAP');
  expect(pl).toContain(`#EXT-X-PROGRAM-DATE-TIME:${new Date(T0).toISOString()}`);
  expect(liveSubsPlaylist(segs, { targetS: 2, ended: true, untilMs: T0 + 6000 })).toContain('#EXT-X-ENDLIST');
  expect(liveSubsPlaylist(segs, { targetS: 2, ended: true, untilMs: T0 + 4000 })).not.toContain('#EXT-X-ENDLIST');
  expect(liveTimestampMap(3_723_004)).toBe('X-TIMESTAMP-MAP=MPEGTS:335070360,LOCAL:01:02:03.004');
  expect(liveTimestampMap(100_000_000)).toBe(`X-TIMESTAMP-MAP=MPEGTS:${(100_000_000 * 90) % 2 ** 33},LOCAL:27:46:40.000`);
});

test('a deleted channel takes its live-subtitle settings with it (migration 0222)', () => {
  const db = new Database(':memory:');
  migrate(db);
  // A channel row with every required column filled by its type (the test is about the trigger, not channels).
  const cols = db.query<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }, []>('PRAGMA table_info(channels)').all()
    .filter((c) => c.pk || (c.notnull && c.dflt_value === null));
  const add = (id: string, n: number) => db.query(`INSERT INTO channels (${cols.map((c) => c.name).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    .run(...cols.map((c) => (c.name === 'id' ? id : /INT|REAL/i.test(c.type) ? 9000 + n : `${c.name}-${id}`)) as never[]);
  add('ch-a', 1); add('ch-b', 2);
  const live = (ch: string) => db.query(`INSERT INTO subtitle_live (channel_id, language, tenant_id, created_at, updated_at) VALUES (?, 'he', 't', 1, 1)`).run(ch);
  live('ch-a'); live('ch-b');
  db.query('DELETE FROM channels WHERE id = ?').run('ch-a');
  expect(db.query<{ channel_id: string }, []>('SELECT channel_id FROM subtitle_live').all().map((r) => r.channel_id)).toEqual(['ch-b']);
});
