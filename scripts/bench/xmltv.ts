#!/usr/bin/env bun
/**
 * XMLTV import benchmark (issue 14 item 6). Generates a ~100 MB XMLTV file (many channels × programmes, Hebrew
 * titles and descriptions, entities, CDATA), then imports one channel of it through the real import path
 * (`importXmltv`: the streaming saxes reader + the guide's import into SQLite) in a fresh process, and in the same
 * run measures two baselines on the same file, each in its own fresh process:
 *   - `regex`: the previous regex reader (kept only here), whole text in memory, same guide import step;
 *   - `raw`:   reading and UTF-8 decoding the file as a stream and discarding it (the I/O ceiling).
 * The import processes hold the configuration and SQLite database of a data dir prepared beforehand (no HTTP, no
 * DuckDB); `stream-full` repeats the streaming import inside a whole test appliance (HTTP app + DuckDB, ~130 MB
 * before any import) to show the growth there. Prints peak RSS (VmHWM) and throughput of each, and the ratios.
 * Target: streaming import peak RSS < 150 MB. Usage: bun scripts/bench/xmltv.ts [--mb 100] [--keep] [--no-full]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name: string, dflt: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const H = 3_600_000;
const BASE = Date.UTC(2031, 0, 1);
const PICK = 'ch-0042.il';

function peakMb(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
}

const xt = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + ' +0000';
const WORDS = ['חדשות', 'מהדורת', 'הבוקר', 'ספורט', 'תרבות', 'צה"ל', 'עולם', 'מדע', 'כלכלה', 'news', 'weather', 'live', 'magazine'];

/** Writes the document: channels first, then programmes in time order across channels (30 minutes each) to the target size. */
async function generate(file: string, targetMb: number): Promise<{ bytes: number; channels: number; programmes: number }> {
  const channels = 300;
  const w = Bun.file(file).writer({ highWaterMark: 1 << 20 });
  let bytes = 0, programmes = 0;
  const put = (s: string) => { bytes += Buffer.byteLength(s); w.write(s); };
  put('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tv SYSTEM "xmltv.dtd">\n<tv generator-info-name="viewstream-bench">\n');
  for (let c = 0; c < channels; c++) put(`<channel id="ch-${String(c).padStart(4, '0')}.il"><display-name lang="he">ערוץ ${c}</display-name></channel>\n`);
  for (let i = 0; bytes < targetMb * 2 ** 20; i++) {
    for (let c = 0; c < channels; c++) {
      const id = `ch-${String(c).padStart(4, '0')}.il`;
      const w1 = WORDS[(c + i) % WORDS.length], w2 = WORDS[(c * 7 + i * 3) % WORDS.length];
      const desc = i % 5 === 0 ? `<desc lang="he"><![CDATA[${w2} <b>${w1}</b> & ${i}]]></desc>` : `<desc lang="he">${w1} ${w2} &amp; ${w1}: סיכום ${i} של ${w2} ועוד ${w1}</desc>`;
      put(`<programme start="${xt(BASE + i * H / 2)}" stop="${xt(BASE + (i + 1) * H / 2)}" channel="${id}"><title lang="he">${w1} ${w2} ${i}</title>${desc}<episode-num system="xmltv_ns">${i % 9}.${i % 20}.</episode-num></programme>\n`);
      programmes++;
    }
    await w.flush();
  }
  put('</tv>\n');
  await w.end();
  return { bytes, channels, programmes };
}

/** The regex reader this change replaced (unchanged, for the same-run baseline only). */
function regexParse(xml: string) {
  const decode = (s: string): string => s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, c: string) => c.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[e])
    .trim();
  const attrs = (s: string) => { const o: Record<string, string> = {}; for (const m of s.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) o[m[1]] = decode(m[2] ?? m[3] ?? ''); return o; };
  const child = (body: string, tag: string) => { const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(body); return m ? decode(m[1]) : null; };
  const time = (v: string) => {
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?\s*(?:([+-])(\d{2}):?(\d{2})|Z|UTC|GMT)?$/.exec(v.trim());
    if (!m) return NaN;
    return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0)) - (m[7] ? (m[7] === '-' ? -1 : 1) * (+m[8] * 60 + +m[9]) * 60_000 : 0);
  };
  if (!/<tv[\s>]/.test(xml) || !/<\/tv>\s*$/.test(xml.replace(/<!--[\s\S]*?-->/g, ''))) throw new Error('not XMLTV');
  const body = xml.replace(/<!--[\s\S]*?-->/g, '');
  const opened = (body.match(/<programme[\s>]/g) ?? []).length;
  const programmes = [];
  for (const m of body.matchAll(/<programme(\s[^>]*)>([\s\S]*?)<\/programme>/g)) {
    const a = attrs(m[1]);
    const title = child(m[2], 'title');
    if (!a.start || !a.channel || !title) throw new Error('bad programme');
    const eps = [...m[2].matchAll(/<episode-num(\s[^>]*)?>([\s\S]*?)<\/episode-num>/g)].map((e) => decode(e[2]));
    const icon = /<icon\s([^>]*)\/?>/.exec(m[2]);
    programmes.push({ channel: a.channel, start_ms: time(a.start), end_ms: a.stop ? time(a.stop) : null, title: title.slice(0, 500), subtitle: child(m[2], 'sub-title'),
      description: child(m[2], 'desc'), episode: eps[0] ?? null, icon: icon ? attrs(icon[1]).src ?? null : null });
  }
  if (programmes.length !== opened) throw new Error('not closed');
  const channels = [...new Set([...body.matchAll(/<channel\s([^>]*)>/g)].map((m) => attrs(m[1]).id).filter(Boolean).concat(programmes.map((p) => p.channel)))];
  return { channels, programmes };
}

/** Creates the tenant and the channel to import into, in `dataDir` (a test appliance, stopped afterwards). */
async function setup(dataDir: string): Promise<void> {
  const { startTestServer } = await import('../../test/helpers/server');
  const s = await startTestServer({ workers: false, dataDir });
  const r = await s.api('POST', '/v1/channels', { name: 'Bench', slug: 'bench' });
  if (r.status !== 201) throw new Error(`channel create: ${r.status} ${await r.text()}`);
  await s.stop();
}

/**
 * The import's context: the appliance's configuration and its SQLite database over `dataDir`, as a lean process
 * holding only what the import path uses (no HTTP server, no DuckDB), or (`full`) a whole test appliance.
 */
async function importContext(dataDir: string, full: boolean) {
  if (full) {
    const { startTestServer } = await import('../../test/helpers/server');
    const s = await startTestServer({ workers: false });
    const r = await s.api('POST', '/v1/channels', { name: 'Bench', slug: 'bench' });
    if (r.status !== 201) throw new Error(`channel create: ${r.status}`);
    return { ctx: s.ctx, stop: () => s.stop() };
  }
  const { loadConfig } = await import('../../src/kernel/config/load');
  const { openDb } = await import('../../src/kernel/db/sqlite');
  const { createLogger } = await import('../../src/kernel/log');
  const { systemClock } = await import('../../src/kernel/clock');
  const config = loadConfig({ data: dataDir, port: 0, host: '127.0.0.1' }, { VS_LOG_LEVEL: 'error' });
  const db = openDb(join(dataDir, 'db', 'meta.sqlite'));
  const ctx = { config, db, log: createLogger('error'), clock: systemClock, onStop: () => {} } as unknown as import('../../src/kernel/context').AppContext;
  return { ctx, stop: () => db.close() };
}

/** One measured run in this (fresh) process; prints a JSON line. */
async function child(mode: string, file: string, dataDir: string): Promise<void> {
  const size = statSync(file).size;
  if (mode === 'raw') {
    const t0 = performance.now();
    const dec = new TextDecoder();
    let chars = 0;
    for await (const chunk of Bun.file(file).stream() as unknown as AsyncIterable<Uint8Array>) chars += dec.decode(chunk, { stream: true }).length;
    console.log(JSON.stringify({ mode, ms: performance.now() - t0, peakMb: peakMb(), bootMb: 0, chars, size }));
    return;
  }
  const { importXmltv } = await import('../../src/features/guide/import');
  const { xmltvToFields } = await import('../../src/features/guide/xmltv');
  const { GuideReview } = await import('../../src/features/guide/review');
  const { ctx, stop } = await importContext(dataDir, mode.endsWith('-full'));
  try {
    const ch = ctx.db.query<import('../../src/features/channels/store').ChannelRow, []>("SELECT * FROM channels WHERE slug = 'bench'").get()!;
    Bun.gc(true);
    const bootMb = peakMb();
    const t0 = performance.now();
    let r: { programmes: number };
    if (mode.startsWith('stream')) r = await importXmltv(ctx, ch, Bun.file(file).stream(), PICK);
    else {
      const doc = regexParse(await Bun.file(file).text());
      if (!doc.channels.includes(PICK)) throw new Error('channel missing');
      r = new GuideReview(ctx).importProgrammes(ch, xmltvToFields(doc.programmes, PICK));
    }
    console.log(JSON.stringify({ mode, ms: performance.now() - t0, peakMb: peakMb(), bootMb, programmes: r.programmes, size }));
  } finally { await stop(); }
}

async function run(mode: string, file: string, dataDir: string): Promise<{ ms: number; peakMb: number; bootMb: number; programmes?: number; size: number }> {
  const p = Bun.spawn(['bun', import.meta.path, '--child', mode, file, dataDir], { stdout: 'pipe', stderr: 'inherit' });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  const line = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (code !== 0 || !line) throw new Error(`${mode} run failed (exit ${code}): ${out.slice(-500)}`);
  return JSON.parse(line);
}

if (process.argv.includes('--child')) {
  const i = process.argv.indexOf('--child');
  await child(process.argv[i + 1], process.argv[i + 2], process.argv[i + 3]);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'vs-bench-xmltv-'));
const file = join(dir, 'guide.xml');
try {
  const t0 = performance.now();
  const g = await generate(file, Number(arg('--mb', '100')));
  const mb = g.bytes / 2 ** 20;
  console.log(`generated ${mb.toFixed(1)} MB: ${g.channels} channels × ${g.programmes / g.channels} programmes = ${g.programmes} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const data = join(dir, 'data');
  await setup(data);
  const raw = await run('raw', file, data);
  const stream = await run('stream', file, data);
  const regex = await run('regex', file, data);
  const full = process.argv.includes('--no-full') ? null : await run('stream-full', file, data);
  const row = (name: string, r: typeof raw) => console.log(`${name.padEnd(34)} ${(r.ms / 1000).toFixed(2).padStart(6)} s  ${(mb / (r.ms / 1000)).toFixed(1).padStart(6)} MB/s  peak RSS ${r.peakMb.toFixed(0).padStart(5)} MB${r.bootMb ? `  (before import ${r.bootMb.toFixed(0)} MB)` : ''}${r.programmes ? `  imported ${r.programmes}` : ''}`);
  row('raw read+decode (I/O ceiling)', raw);
  row('streaming import (saxes)', stream);
  row('regex import (previous reader)', regex);
  if (full) row('streaming, in a full test appliance', full);
  console.log(`ratio streaming/regex: peak RSS ${(stream.peakMb / regex.peakMb).toFixed(2)}×, import growth ${((stream.peakMb - stream.bootMb) / (regex.peakMb - regex.bootMb)).toFixed(2)}×, time ${(stream.ms / regex.ms).toFixed(2)}×; streaming/raw time ${(stream.ms / raw.ms).toFixed(1)}×`);
  console.log(`target peak RSS < 150 MB: ${stream.peakMb < 150 ? 'met' : 'MISSED'} (${stream.peakMb.toFixed(0)} MB)`);
} finally {
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
}
