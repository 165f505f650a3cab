import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneEmptyParents } from '../../src/live/hours';
import { DAY_MANIFEST, dropManifest, readManifest, writeManifest } from '../../src/live/manifest';

const entry = (mtime: number, n = 1800) => ({ n, first_ms: 1, last_ms: 2, end_ms: 3, inner_discs: 0, bytes: null, dir_mtime: mtime });

test('day manifests: one file per day, entries valid only for their hour mtime; legacy per-hour files still read; dropped with the last hour', () => {
  const root = mkdtempSync(join(tmpdir(), 'vs-manifest-'));
  try {
    const day = join(root, '2025', '01', '02');
    for (const hh of ['06', '07', '08']) mkdirSync(join(day, hh), { recursive: true });
    const mt = (hh: string) => statSync(join(day, hh)).mtimeMs;
    writeManifest(join(day, '06'), { ...entry(mt('06')), channel_id: 'x' } as never);
    writeManifest(join(day, '07'), entry(mt('07')));
    expect(readdirSync(day).sort()).toEqual(['06', '07', '08', DAY_MANIFEST]);
    expect(readManifest(join(day, '06'), mt('06'))).toEqual(entry(mt('06'))); // only the summary fields are kept
    expect(readManifest(join(day, '07'), mt('07') + 1)).toBeNull(); // the hour changed since
    expect(readManifest(join(day, '08'), mt('08'))).toBeNull();
    // A tree written before day manifests: DD/HH.json.
    writeFileSync(join(day, '08.json'), JSON.stringify({ v: 1, ...entry(mt('08'), 5) }));
    expect(readManifest(join(day, '08'), mt('08'))?.n).toBe(5);
    // A torn day file is refused (the hours are listed instead).
    writeFileSync(join(day, DAY_MANIFEST), '{"v":2,"hours":{"06":');
    expect(readManifest(join(day, '06'), mt('06'))).toBeNull();
    writeManifest(join(day, '06'), entry(mt('06')));
    // Retention deletes the hours one by one: entries and the legacy file go; the last one takes the day file with it.
    for (const hh of ['06', '07', '08']) {
      rmSync(join(day, hh), { recursive: true });
      dropManifest(join(day, hh));
      pruneEmptyParents(join(day, hh));
    }
    expect(existsSync(join(root, '2025'))).toBe(false);
  } finally { rmSync(root, { recursive: true, force: true }); }
});
