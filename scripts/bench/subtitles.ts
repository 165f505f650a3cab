#!/usr/bin/env bun
/**
 * Subtitles benchmark (issue 43, "Done when"), three figures, each a ratio of two things measured in this run:
 * 1. Recognition real-time factor of the built-in engine (pocketsphinx, Debian's en-us model) on Debian's
 *    pocketsphinx-testdata librivox recordings: audio seconds / wall seconds (above 1: faster than real time), niced
 *    as the recognition job runs it.
 * 2. Transcript search over a synthetic year of one channel's subtitles (--cues, default 5,000,000; one track per
 *    hour, Hebrew news-like text from a Zipf vocabulary, a third of the words with prefix letters), indexed through
 *    the real path (SubtitleStore.replaceCues -> reindexTrack, one transaction per 100 tracks): p50/p95 of
 *    searchCues (exact hits, then prefix/stripped-prefix hits, with their cue text: up to 200 cues, what a catch-up
 *    search of the default 20 programmes reads; also at limit 50, 500 cues) against a plain FTS5 MATCH over the same
 *    rows (unicode61 over the raw text, the word quoted, the newest 500 rowids). Target: p95 < 50 ms.
 * 3. VOD time-to-ready with subtitles off (speech engine available, tenant auto-subtitles off) against the base (no
 *    speech engine at all, VS_ASR_POCKETSPHINX=off): a fresh appliance per run, the order alternating by round, the
 *    same 720p source;
 *    target ratio of medians <= 1.05.
 * 4. Live subtitles: about 30 s of the same speech pushed live over SRT to a channel with English live subtitles on;
 *    the lag (wall time from the start of a cue's speech to the cue being stored: median of the last 20 cues, and the
 *    worst chunk's) as a ratio to the channel's segment duration.
 * Usage: bun scripts/bench/subtitles.ts [--cues 5000000] [--queries 200] [--rounds 3] [--vod-seconds 10] [--live-seconds 30]
 *   [--db PATH (keep the synthetic year there and reuse it)] [--skip rtf,search,vod,live]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { migrate } from '../../src/kernel/db/sqlite';
import { pocketsphinxEngine } from '../../src/engines/asr/pocketsphinx';
import { ChannelTrackStore } from '../../src/features/subtitles/channel-store';
import { SubtitleStore } from '../../src/features/subtitles/store';
import { searchCues } from '../../src/features/subtitles/search';
import { backfillSubtitleIndex } from '../../src/features/subtitles/search-index';
import { catchupCueCap } from '../../src/features/subtitles/search-catchup';
import { startTestServer, waitFor, type TestServer } from '../../test/helpers/server';
import { ff, registerAssetAsync } from '../../test/e2e/transcode-helpers';
import { liveEnv } from '../../test/e2e/live-helpers';
import { spawn } from 'node:child_process';
import { median } from './lib';

const arg = (n: string, d: string) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? process.argv[i + 1]! : d; };
const CUES = Number(arg('cues', '5000000'));
const QUERIES = Number(arg('queries', '200'));
const ROUNDS = Number(arg('rounds', '3'));
const VOD_S = Number(arg('vod-seconds', '10'));
const LIVE_S = Number(arg('live-seconds', '30'));
const skip = new Set(arg('skip', '').split(',').filter(Boolean));
/** --db PATH: build the synthetic year there once and reuse it on later runs (profiling the queries without a rebuild). */
const KEEP_DB = arg('db', '');
const tmp = mkdtempSync(join(tmpdir(), 'vs-bench-subs-'));
const out: Record<string, unknown> = {};
const p = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]!; };
const r2 = (x: number) => Math.round(x * 100) / 100;

// 1. Recognition real-time factor.
async function rtf(): Promise<void> {
  const dir = '/usr/share/pocketsphinx/test/data/librivox';
  const wavs = ['0880', '0930', '1010'].map((n) => `${dir}/sense_and_sensibility_01_austen_64kb-${n}.wav`).filter((f) => { try { return statSync(f).isFile(); } catch { return false; } });
  if (!wavs.length) { console.log('rtf: pocketsphinx-testdata not installed, skipped'); return; }
  const wav = join(tmp, 'speech.wav');
  await ff([...wavs.flatMap((w) => ['-i', w]), '-filter_complex', `${wavs.map((_, i) => `[${i}:a]`).join('')}concat=n=${wavs.length}:v=0:a=1[a]`, '-map', '[a]', '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', wav]);
  const audioS = (statSync(wav).size - 44) / 32000;
  // Not niced here: the figure is the engine's speed on this box (the job runs it at nice +10 below live work).
  const engine = pocketsphinxEngine({ nice: 0 });
  const walls: number[] = [];
  let words = 0;
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now();
    const segs = await engine.transcribe({ wavPath: wav, language: 'en' });
    walls.push((performance.now() - t0) / 1000);
    words = segs.reduce((n, s) => n + s.words.length, 0);
  }
  const wall = median(walls);
  out.recognition = { engine: 'pocketsphinx', compute: engine.compute, audio_s: r2(audioS), wall_s: r2(wall), words, real_time_factor: r2(audioS / wall) };
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  console.log(`recognition: ${r2(audioS)} s of speech in ${r2(wall)} s (median of 2): real-time factor ${r2(audioS / wall)} (audio s / wall s; load average ${load} on ${navigator.hardwareConcurrency} cores)`);
}

// 2. Transcript search over a synthetic year.
const HEB = 'אבגדהוזחטיכלמנסעפצקרשת';
const REAL = ['חדשות', 'ממשלה', 'ירושלים', 'כנסת', 'בחירות', 'ביטחון', 'כלכלה', 'מזג', 'אוויר', 'גשם', 'ספורט', 'כדורגל', 'שלום', 'מלחמה',
  'צהל', 'משטרה', 'בית', 'משפט', 'ראש', 'שר', 'אוצר', 'תקציב', 'מחיר', 'דירה', 'רכבת', 'תחבורה', 'חינוך', 'בריאות', 'רופא', 'חולים',
  'הסכם', 'שיחות', 'נשיא', 'אמריקה', 'אירופה', 'עזה', 'צפון', 'דרום', 'חיפה', 'אילת', 'באר', 'שבע', 'תל', 'אביב', 'מדינה', 'העם', 'היום', 'אתמול', 'מחר', 'ערב'];
function rng(seed: number) { let s = seed >>> 0; return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
const rand = rng(43);
const vocab = [...REAL];
while (vocab.length < 20_000) { const n = 3 + Math.floor(rand() * 5); let w = ''; for (let i = 0; i < n; i++) w += HEB[Math.floor(rand() * HEB.length)]; vocab.push(w); }
// Zipf(1) by rank: cumulative weights 1/k, sampled by binary search.
const cum: number[] = []; vocab.reduce((acc, _, k) => { const c = acc + 1 / (k + 1); cum.push(c); return c; }, 0);
const zipf = (r = rand) => { const x = r() * cum[cum.length - 1]!; let lo = 0, hi = cum.length - 1; while (lo < hi) { const m = (lo + hi) >> 1; if (cum[m]! < x) lo = m + 1; else hi = m; } return vocab[lo]!; };
const PREFIXES = ['ו', 'ה', 'ב', 'ל', 'ש', 'מ', 'כ', 'וה', 'וב', 'שה'];
function cueText(): string {
  const n = 4 + Math.floor(rand() * 7);
  const ws: string[] = [];
  for (let i = 0; i < n; i++) { const w = zipf(); ws.push(rand() < 0.33 ? PREFIXES[Math.floor(rand() * PREFIXES.length)] + w : w); }
  const half = Math.ceil(ws.length / 2);
  return `${ws.slice(0, half).join(' ')}\n${ws.slice(half).join(' ')}`;
}

async function search(): Promise<void> {
  const dbPath = KEEP_DB || join(tmp, 'year.sqlite');
  const reuse = !!KEEP_DB && existsSync(dbPath);
  const db = new Database(dbPath);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
  migrate(db);
  if (!reuse) db.exec("CREATE VIRTUAL TABLE plain_fts USING fts5(text, tokenize = 'unicode61')");
  const tenant = '00000000-0000-4000-8000-00000000000a', channel = '00000000-0000-4000-8000-00000000000c';
  const perTrack = Math.max(1, Math.round(CUES / 8760));
  const tracks = Math.ceil(CUES / perTrack);
  const chStore = new ChannelTrackStore(db), store = new SubtitleStore(db);
  const pub = db.query('UPDATE subtitle_tracks SET published = 1 WHERE id = ?');
  const plain = db.query('INSERT INTO plain_fts (rowid, text) VALUES (?, ?)');
  const year0 = Date.UTC(2025, 0, 1);
  const t0 = performance.now();
  let made = 0, plainRow = 0;
  if (reuse) made = db.query<{ n: number }, []>('SELECT count(*) AS n FROM subtitle_cues').get()!.n;
  for (let k = reuse ? tracks : 0; k < tracks; k += 100) {
    db.transaction(() => {
      for (let j = k; j < Math.min(tracks, k + 100); j++) {
        const id = `00000000-0000-4000-9000-${String(j).padStart(12, '0')}`;
        chStore.insert({ id, tenant_id: tenant, channel_id: channel, range_start_ms: year0 + j * 3_600_000, range_end_ms: year0 + (j + 1) * 3_600_000, programme_id: null, language: 'he', kind: 'subtitles', label: null, source: 'asr', status: 'ready', job_id: null, now: 0 });
        pub.run(id);
        const n = Math.min(perTrack, CUES - made);
        const step = Math.floor(3_600_000 / n);
        const cues = Array.from({ length: n }, (_, i) => ({ startMs: i * step, endMs: i * step + Math.min(step - 80, 6000), text: cueText() }));
        store.replaceCues(id, cues, 0);
        for (const c of cues) plain.run(++plainRow, c.text);
        made += n;
      }
    }).immediate();
    if ((k / 100) % 10 === 0) process.stdout.write(`\r  indexed ${made.toLocaleString('en')} / ${CUES.toLocaleString('en')} cues, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const buildS = (performance.now() - t0) / 1000;
  if (!reuse) {
    console.log(`\n  built in ${buildS.toFixed(0)} s (both indexes); optimising...`);
    db.exec("INSERT INTO subtitle_search (subtitle_search) VALUES ('optimize'); INSERT INTO plain_fts (plain_fts) VALUES ('optimize');");
  } else {
    // A database from before migration 0185 (search rowids naming their cue) was emptied by it: index it again.
    const n = backfillSubtitleIndex(db);
    if (n) db.exec("INSERT INTO subtitle_search (subtitle_search) VALUES ('optimize')");
    console.log(`  reusing ${dbPath} (${made.toLocaleString('en')} cues${n ? `, ${n} tracks indexed again` : ''})`);
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  // Queries: half by frequency (Zipf), half uniform over the vocabulary; a third with a prefix letter. Their own seed,
  // so a reused database (--db) is asked the same queries as a fresh one.
  const qrand = rng(4343);
  const qs = Array.from({ length: QUERIES }, (_, i) => { const w = i % 2 ? zipf(qrand) : vocab[Math.floor(qrand() * vocab.length)]!; return i % 3 === 0 ? `ו${w}` : w; });
  const base = db.query<{ rowid: number }, [string]>('SELECT rowid FROM plain_fts WHERE plain_fts MATCH ? ORDER BY rowid DESC LIMIT 500');
  const ours: number[] = [], theirs: number[] = [], ours50: number[] = [];
  let oursHits = 0, theirHits = 0;
  const CAP = catchupCueCap(20), CAP50 = catchupCueCap(50);
  // Warm both (page cache), then alternate per query so load hits both alike.
  for (const q of qs.slice(0, 10)) { searchCues(db, { tenantId: tenant, channelId: channel }, q, CAP); base.all(`"${q}"`); }
  for (const [i, q] of qs.entries()) {
    const runOurs = () => { const a = performance.now(); oursHits += searchCues(db, { tenantId: tenant, channelId: channel }, q, CAP).length; ours.push(performance.now() - a); };
    const runBase = () => { const a = performance.now(); theirHits += base.all(`"${q}"`).length; theirs.push(performance.now() - a); };
    const runOurs50 = () => { const a = performance.now(); searchCues(db, { tenantId: tenant, channelId: channel }, q, CAP50); ours50.push(performance.now() - a); };
    if (i % 2) { runOurs(); runBase(); runOurs50(); } else { runBase(); runOurs(); runOurs50(); }
  }
  const slow = ours.map((ms, i) => ({ ms, q: qs[i]! })).sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`  slowest: ${slow.map((x) => `${x.q} ${x.ms.toFixed(1)} ms (${searchCues(db, { tenantId: tenant, channelId: channel }, x.q, CAP).length} hits)`).join(', ')}`);
  const res = {
    cues: made, tracks, build_s: Math.round(buildS), db_mb: Math.round(statSync(dbPath).size / 1048576), queries: qs.length,
    cue_cap: CAP, ours_ms: { p50: r2(p(ours, 0.5)), p95: r2(p(ours, 0.95)), max: r2(Math.max(...ours)) },
    ours_limit50_ms: { cue_cap: CAP50, p50: r2(p(ours50, 0.5)), p95: r2(p(ours50, 0.95)) }, plain_fts_ms: { p50: r2(p(theirs, 0.5)), p95: r2(p(theirs, 0.95)), max: r2(Math.max(...theirs)) },
    hits_per_query: { ours: Math.round(oursHits / qs.length), plain: Math.round(theirHits / qs.length) },
    p95_ratio: r2(p(ours, 0.95) / p(theirs, 0.95)),
  };
  out.search = res;
  console.log(`search over ${made.toLocaleString('en')} cues (${tracks} hourly tracks, ${res.db_mb} MB; up to ${CAP} cues a query, what a catch-up search of 20 programmes reads): ours p50 ${res.ours_ms.p50} ms p95 ${res.ours_ms.p95} ms; plain FTS5 MATCH p50 ${res.plain_fts_ms.p50} ms p95 ${res.plain_fts_ms.p95} ms; p95 ratio ${res.p95_ratio} (target: ours p95 < 50 ms); at limit 50 (${CAP50} cues) p95 ${res.ours_limit50_ms.p95} ms`);
  db.close();
}

// 3. VOD time-to-ready, subtitles off vs base.
async function readyS(s: TestServer, src: string): Promise<number> {
  const id = await registerAssetAsync(s.ctx, src);
  const t0 = performance.now();
  s.ctx.jobs?.wake();
  const state = s.ctx.db.query<{ status: string; error: string | null }, [string]>('SELECT status, error FROM assets WHERE id = ?');
  await waitFor('ready', () => { const a = state.get(id)!; if (a.status === 'failed') throw new Error(`asset failed: ${a.error}`); return a.status === 'ready'; }, 30 * 60_000, 20);
  const t = (performance.now() - t0) / 1000;
  await waitFor('jobs done', () => !s.ctx.db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM jobs WHERE subject_id = ? AND status IN ('queued', 'running')`).get(id)!.n, 120_000, 50);
  return t;
}

async function vod(): Promise<void> {
  const src = join(tmp, 'vod.mp4');
  await ff(['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(VOD_S), '-c:v', 'libx264', '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', src]);
  // One appliance at a time (a fresh one per run, the order alternating by round): two in one process hung here.
  const run = async (env: Record<string, string>) => { const s = await startTestServer({ env }); try { return await readyS(s, src); } finally { await s.stop(); } };
  // Both arms encode at the service's own priority (VS_TRANSCODE_NICE=0): on a box other work keeps busy, niced
  // encodes get a share too small to time; the arms differ only in the speech engine.
  process.env.VS_TRANSCODE_NICE = '0'; // read from the process environment by the encoder
  const BASE = { VS_ASR_POCKETSPHINX: 'off' }, OFF = {};
  const b: number[] = [], o: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) { o.push(await run(OFF)); b.push(await run(BASE)); } else { b.push(await run(BASE)); o.push(await run(OFF)); }
    console.log(`  round ${r + 1}: base ${b[r]!.toFixed(2)} s, subtitles off ${o[r]!.toFixed(2)} s`);
  }
  out.vod = { source_s: VOD_S, rounds: ROUNDS, base_ready_s: r2(median(b)), subtitles_off_ready_s: r2(median(o)), ratio: r2(median(o) / median(b)) };
  console.log(`VOD time-to-ready (${VOD_S} s 720p, median of ${ROUNDS}): base ${r2(median(b))} s, subtitles off ${r2(median(o))} s, ratio ${r2(median(o) / median(b))} (target <= 1.05)`);
}

// 4. Live subtitles: lag from speech to cue on a live channel.
async function live(): Promise<void> {
  const dir = '/usr/share/pocketsphinx/test/data/librivox';
  const once = ['-f', 'lavfi', '-t', '2', '-i', 'anullsrc=r=16000:cl=mono', '-i', `${dir}/sense_and_sensibility_01_austen_64kb-0880.wav`,
    '-f', 'lavfi', '-t', '1', '-i', 'anullsrc=r=16000:cl=mono', '-i', `${dir}/sense_and_sensibility_01_austen_64kb-0930.wav`];
  const reps = Math.max(1, Math.round(LIVE_S / 10));
  const wav = join(tmp, 'live.wav');
  await ff([...Array.from({ length: reps }, () => once).flat(), '-filter_complex', `${Array.from({ length: reps * 4 }, (_, i) => `[${i}:a]`).join('')}concat=n=${reps * 4}:v=0:a=1[a]`, '-map', '[a]', '-c:a', 'pcm_s16le', wav]);
  const s = await startTestServer({ env: await liveEnv() });
  let pusher: ReturnType<typeof spawn> | null = null;
  try {
    const ch = await (await s.api('POST', '/v1/channels', { name: 'Live bench', recording: { retention_hours: 24 } })).json() as { id: string; segment_s: number };
    await s.api('PUT', `/v1/channels/${ch.id}/live-subtitles`, { languages: ['en'] });
    await s.api('POST', `/v1/channels/${ch.id}/start`);
    const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
    // A live encoder in real time: the test picture and the speech, H.264 + AAC over SRT.
    pusher = spawn('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-re', '-i', wav,
      '-map', '0:v', '-map', '1:a', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-ar', '48000', '-f', 'mpegts', ing.srt.primary.url], { detached: true, stdio: 'ignore' });
    const exited = new Promise((r) => pusher!.on('close', r));
    type St = { state: string; lag_ms: number | null; lag_max_ms: number | null; chunks: number; cues: number; skipped_ms: number };
    const state = async () => ((await (await s.api('GET', `/v1/channels/${ch.id}/live-subtitles`)).json()) as { live_subtitles: St[] }).live_subtitles[0]!;
    let chunks = 0, worst = 0, done = false;
    void exited.then(() => { done = true; });
    const end = (await waitFor('live recognition caught up', async () => {
      const st = await state();
      if (st.chunks > chunks) { chunks = st.chunks; worst = Math.max(worst, st.lag_max_ms ?? 0); }
      return done && st.state === 'waiting' ? st : null;
    }, 30 * 60_000, 250))!;
    const seg = ch.segment_s * 1000, lag = end.lag_ms ?? 0;
    out.live = { audio_s: reps * 10, segment_ms: seg, chunks: end.chunks, cues: end.cues, skipped_ms: end.skipped_ms, lag_median_ms: lag, lag_max_ms: worst, ratio_to_segment: r2(lag / seg) };
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`live subtitles (${reps * 10} s of speech over SRT, pocketsphinx at nice 5): lag median ${r2(lag / 1000)} s (last 20 cues), worst ${r2(worst / 1000)} s, over ${end.chunks} chunks / ${end.cues} cues; ratio to the ${seg / 1000} s segment ${r2(lag / seg)} (load average ${load} on ${navigator.hardwareConcurrency} cores)`);
  } finally {
    if (pusher?.pid) try { process.kill(-pusher.pid, 'SIGKILL'); } catch { /* gone */ }
    await s.stop();
  }
}

try {
  if (!skip.has('rtf')) await rtf();
  if (!skip.has('search')) await search();
  if (!skip.has('vod')) await vod();
  if (!skip.has('live')) await live();
  console.log(JSON.stringify(out, null, 2));
} finally { rmSync(tmp, { recursive: true, force: true }); }
