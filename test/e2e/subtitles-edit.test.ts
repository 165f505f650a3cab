import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { defaultTenant, makeClip, registerAsset, settled } from './transcode-helpers';
import { identityService } from '../../src/features/identity/service';

// Issue 43, cue editing: tenant subtitle settings, the glossary, auto subtitles of a new asset through the speech
// service (a local server speaking the OpenAI transcription protocol, configured by VS_ASR_URL through the kernel
// config), and the cue API on an uploaded Hebrew track: list, edit, split, merge, shift, insert, delete, find and
// replace, apply-glossary, revisions and undo, If-Match (428/412), 409/422/404/401/403.

type Cue = { id: number; start_ms: number; end_ms: number; text: string; chars_per_second: number; over_limit: string[] };
type Rev = { id: string; op: string; version: number; author: { kind: string; name: string | null }; before: Cue[]; after: Cue[]; counts: { replacements: number; cues: number; terms: { term: string; count: number }[] } | null; undo_of: string | null; undone_by: string | null };
type Write = { revision: Rev | null; etag: string; cue_count: number };

// A recording of the speech service's answer: the engine mishears the prime minister's name as two words and writes
// Tel Aviv without its maqaf; the glossary corrects both.
const ANSWER = {
  task: 'transcribe', language: 'hebrew', duration: 3, text: ' ראש הממשלה נתן יהו נאם היום בתל אביב.',
  segments: [{
    id: 0, start: 0.1, end: 2.9, text: ' ראש הממשלה נתן יהו נאם היום בתל אביב.',
    words: [['ראש', 0.1, 0.4], ['הממשלה', 0.45, 0.9], ['נתן', 0.95, 1.2], ['יהו', 1.2, 1.5], ['נאם', 1.55, 1.9], ['היום', 1.95, 2.3], ['בתל', 2.35, 2.6], ['אביב.', 2.6, 2.9]]
      .map(([w, s, e]) => ({ word: ` ${w}`, start: s, end: e, probability: 0.9 })),
  }],
};

const seen: Record<string, string[]>[] = [];
const asr = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(req) {
    if (req.method !== 'POST' || new URL(req.url).pathname !== '/v1/audio/transcriptions') return new Response('not found', { status: 404 });
    const fields: Record<string, string[]> = {};
    for (const [k, v] of (await req.formData()).entries()) if (typeof v === 'string') (fields[k] ??= []).push(v);
    seen.push(fields);
    return Response.json(ANSWER);
  },
});

let s: TestServer;
let asset: string;
let other: string;
let reader: string;
beforeAll(async () => {
  // validate: every answer of s.api() is checked against the served OpenAPI document (the last test reads the list).
  s = await startTestServer({ env: { VS_ASR_URL: `http://127.0.0.1:${asr.port}`, VS_ASR_MODEL: 'ivrit-test' }, validate: true });
  const t = identityService(s.ctx).createTenant({ name: 'Edit other' });
  other = identityService(s.ctx).createKey(t.id, { role: 'owner' }).key;
  reader = identityService(s.ctx).createKey(defaultTenant(s.ctx), { scopes: ['assets:read'] }).key;
}, 60_000);
afterAll(async () => { await s?.stop(); asr.stop(true); });

const json = async <T>(r: Response | Promise<Response>, status = 200): Promise<T> => {
  const res = await r;
  const body = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${body}`);
  return (body ? JSON.parse(body) : null) as T;
};

test('subtitle settings and the glossary: defaults, scopes, validation, CRUD, other tenants', async () => {
  expect(await json(s.api('GET', '/v1/settings/subtitles'))).toEqual({ auto_subtitles: { assets: [], recordings: [] }, reading_speed: 17, default_engine: 'auto', updated_at: null });
  expect((await s.api('PATCH', '/v1/settings/subtitles', { reading_speed: 12 }, { key: reader })).status).toBe(403);
  expect((await s.api('PATCH', '/v1/settings/subtitles', { reading_speed: 3 })).status).toBe(422);
  expect((await s.api('PATCH', '/v1/settings/subtitles', { reading_speed: 'fast' })).status).toBe(422);
  expect((await s.api('PATCH', '/v1/settings/subtitles', { auto: true })).status).toBe(400);
  expect((await s.api('PATCH', '/v1/settings/subtitles', { default_engine: 'whisper' })).status).toBe(422);
  expect((await s.api('GET', '/v1/settings/subtitles', undefined, { key: null })).status).toBe(401);
  const set = await json<{ auto_subtitles: { assets: string[]; recordings: string[] }; reading_speed: number }>(s.api('PATCH', '/v1/settings/subtitles', { auto_subtitles: { assets: ['he'] }, reading_speed: 5 }));
  expect(set.auto_subtitles).toEqual({ assets: ['he'], recordings: [] });
  expect(set.reading_speed).toBe(5);
  // Another tenant's settings are its own.
  expect((await json<{ reading_speed: number }>(s.api('GET', '/v1/settings/subtitles', undefined, { key: other }))).reading_speed).toBe(17);

  const pm = await json<{ id: string; term: string; variants: string[]; language: string | null }>(s.api('POST', '/v1/glossary', { term: 'נתניהו', variants: ['נתן יהו'], language: 'he' }), 201);
  expect([pm.term, pm.variants, pm.language]).toEqual(['נתניהו', ['נתן יהו'], 'he']);
  await json(s.api('POST', '/v1/glossary', { term: 'תל־אביב', variants: ['תל אביב'] }), 201);
  // The same term (in search form: niqqud ignored) for the same language twice: 409.
  expect((await s.api('POST', '/v1/glossary', { term: 'נְתַנְיָהוּ', language: 'he' })).status).toBe(409);
  expect((await s.api('POST', '/v1/glossary', { term: 'x' }, { key: reader })).status).toBe(403);
  expect((await s.api('POST', '/v1/glossary', { term: '!!!' })).status).toBe(422);
  expect((await s.api('POST', '/v1/glossary', { term: 'a', colour: 1 })).status).toBe(400);
  const tmp = await json<{ id: string }>(s.api('POST', '/v1/glossary', { term: 'Kan 11', variants: ['can eleven'], language: 'en' }), 201);
  expect((await json<{ variants: string[] }>(s.api('PATCH', `/v1/glossary/${tmp.id}`, { variants: ['can 11'] }))).variants).toEqual(['can 11']);
  expect((await s.api('GET', `/v1/glossary/${tmp.id}`, undefined, { key: other })).status).toBe(404);
  expect((await s.api('DELETE', `/v1/glossary/${tmp.id}`, undefined, { key: other })).status).toBe(404);
  expect((await s.api('DELETE', `/v1/glossary/${tmp.id}`)).status).toBe(204);
  expect((await s.api('GET', `/v1/glossary/${tmp.id}`)).status).toBe(404);
  const list = await json<{ items: { term: string }[] }>(s.api('GET', '/v1/glossary?language=he', undefined, { key: reader }));
  expect(list.items.map((x) => x.term)).toEqual(['נתניהו', 'תל־אביב']);
  expect((await json<{ items: unknown[] }>(s.api('GET', '/v1/glossary', undefined, { key: other }))).items).toEqual([]);
});

test('a new asset is subtitled automatically: glossary as the prompt, corrections counted, the tenant reading speed', async () => {
  const src = await makeClip(join(s.dataDir, 'clip.mp4'), { seconds: 3 });
  asset = registerAsset(s.ctx, src);
  expect((await settled(s.ctx, asset, 120_000)).status).toBe('ready');
  type Track = { id: string; language: string; source: string; status: string; engine: string | null; job_id: string; glossary_corrections: unknown; error: string | null };
  const track = await waitFor('auto track ready', async () => {
    const l = await json<{ items: Track[] }>(s.api('GET', `/v1/assets/${asset}/subtitles`));
    const x = l.items.find((i) => i.language === 'he');
    return x && (x.status === 'ready' || x.status === 'failed') ? x : null;
  }, 60_000, 100) as Track;
  expect([track.status, track.error, track.source, track.engine]).toEqual(['ready', null, 'asr', 'openai']);
  expect(seen).toHaveLength(1);
  expect([seen[0]!.model, seen[0]!.language, seen[0]!.prompt]).toEqual([['ivrit-test'], ['he'], ['נתניהו, תל־אביב']]);
  const fixed = { replacements: 2, cues: 1, terms: [{ term: 'נתניהו', count: 1 }, { term: 'תל־אביב', count: 1 }] };
  expect(track.glossary_corrections).toEqual(fixed);
  const job = await json<{ result: { glossary: unknown } }>(s.api('GET', `/v1/jobs/${track.job_id}`));
  expect(job.result.glossary).toEqual(fixed);
  const cues = await json<{ items: Cue[] }>(s.api('GET', `/v1/assets/${asset}/subtitles/${track.id}/cues`));
  expect(cues.items.map((c) => c.text.replace(/\n/g, ' '))).toEqual(['ראש הממשלה נתניהו נאם היום בתל־אביב.']);
  // 36 characters at the tenant's 5 a second want 7.2 s: shown the 7 s maximum (at 17 a second it would end with its
  // last word, 2.8 s after its start).
  expect(cues.items[0]!.end_ms - cues.items[0]!.start_ms).toBe(7000);
  // A re-announced ready asset gets no second track of the language.
  const { appendEvent } = await import('../../src/kernel/events/outbox');
  appendEvent(s.ctx.db, defaultTenant(s.ctx), 'asset.ready', { asset });
  const { autoSubtitlePass } = await import('../../src/features/subtitles/settings-auto');
  autoSubtitlePass(s.ctx);
  expect((await json<{ items: unknown[] }>(s.api('GET', `/v1/assets/${asset}/subtitles`))).items).toHaveLength(1);
}, 200_000);

const VTT = `WEBVTT

00:00:01.000 --> 00:00:03.000
שלום וברוכים הבאים

00:00:04.000 --> 00:00:07.000
למהדורת החדשות
שלנו הערב

00:00:07.500 --> 00:00:09.500
ראש הממשלה נפגש היום

00:00:10.000 --> 00:00:12.000
בירושלים עם שר החוץ.
`;

test('cue editing: every operation a revision under If-Match; refusals; undo everything back to the upload', async () => {
  // (The asset of the test above; run alone, one of its own: an upload track needs no ready asset.)
  asset ??= registerAsset(s.ctx, await makeClip(join(s.dataDir, 'alone.mp4'), { seconds: 1 }));
  await json(s.api('PATCH', '/v1/settings/subtitles', { reading_speed: 5 }));
  expect([201, 409]).toContain((await s.api('POST', '/v1/glossary', { term: 'תל־אביב', variants: ['תל אביב'] })).status);
  const created = await json<{ id: string; version: number }>(s.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'he', content: VTT }), 201);
  const T = `/v1/assets/${asset}/subtitles/${created.id}`;
  const original = await (await s.api('GET', `${T}.vtt`)).text();
  const page1 = await s.api('GET', `${T}/cues?limit=2`);
  let etag = page1.headers.get('etag')!;
  const p1 = await page1.json() as { items: Cue[]; next_cursor: string; etag: string };
  expect(p1.etag).toBe(etag);
  expect(p1.items.map((c) => c.id)).toEqual([1, 2]);
  // 'שלום וברוכים הבאים' is 18 characters over 2 s: 9 a second, over the tenant's 5 (set above).
  expect(p1.items[0]).toEqual({ id: 1, start_ms: 1000, end_ms: 3000, text: 'שלום וברוכים הבאים', chars_per_second: 9, over_limit: ['reading_speed'] });
  const p2 = await json<{ items: Cue[]; next_cursor: string | null }>(s.api('GET', `${T}/cues?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`));
  expect([p2.items.map((c) => c.id), p2.next_cursor]).toEqual([[3, 4], null]);
  expect((await s.api('GET', `${T}/cues?cursor=forged.x`)).status).toBe(422);
  expect((await json<{ items: Cue[] }>(s.api('GET', `${T}/cues?from_ms=9600`))).items.map((c) => c.id)).toEqual([4]);
  expect((await s.api('GET', `${T}`)).headers.get('etag')).toBe(etag);

  const W = async (method: string, path: string, body: unknown, status = 200) => {
    const r = await json<Write>(s.api(method, `${T}${path}`, body, { headers: { 'if-match': etag } }), status);
    if (r.revision) expect(r.etag).not.toBe(etag);
    etag = r.etag;
    return r;
  };
  const refuse = async (method: string, path: string, body: unknown, status: number, headers: Record<string, string> = { 'if-match': etag }) => {
    const r = await s.api(method, `${T}${path}`, body, { headers });
    const p = await r.json() as { status: number; detail: string; errors?: { field: string; detail: string }[] };
    expect([r.status, p.detail]).toEqual([status, p.detail]);
    return p;
  };
  // If-Match: required (428), stale (412).
  await refuse('PATCH', '/cues/1', { text: 'שלום לכולם' }, 428, {});
  const stale = await refuse('PATCH', '/cues/1', { text: 'שלום לכולם' }, 412, { 'if-match': '"0"' });
  expect(stale.detail).toContain(etag);
  await refuse('PATCH', '/cues/1', { text: 'שלום לכולם' }, 412, { 'if-match': `W/${etag}` });
  // Edit text: a revision; the track becomes `edited`, keeping `upload`.
  const e1 = await W('PATCH', '/cues/1', { text: 'שלום <b>לכולם</b>' });
  expect([e1.revision!.op, e1.revision!.before[0]!.text, e1.revision!.after[0]!.text, e1.revision!.author.kind]).toEqual(['edit', 'שלום וברוכים הבאים', 'שלום לכולם', 'key']);
  const tr = await json<{ source: string; original_source: string; version: number }>(s.api('GET', T));
  expect([tr.source, tr.original_source, `"${tr.version}"`]).toEqual(['edited', 'upload', etag]);
  // 422: three lines, a line that cannot fit on two, empty text, shorter than 1 s, wrong types.
  expect((await refuse('PATCH', '/cues/1', { text: 'א\nב\nג' }, 422)).errors![0]!.field).toBe('text');
  expect((await refuse('PATCH', '/cues/1', { text: 'מילה '.repeat(30) }, 422)).errors![0]!.field).toBe('text');
  await refuse('PATCH', '/cues/1', { text: '<i></i>' }, 422);
  expect((await refuse('PATCH', '/cues/1', { end_ms: 1500 }, 422)).errors![0]!.field).toBe('end_ms');
  await refuse('PATCH', '/cues/1', { end_ms: 'late' }, 422);
  await refuse('PATCH', '/cues/1', { colour: 'red' }, 400);
  // A long single line is broken onto two for the editor.
  const long = await W('PATCH', '/cues/4', { text: 'בירושלים עם שר החוץ ועם שר הביטחון ושר האוצר, אחרי ישיבת הממשלה' });
  expect(long.revision!.after[0]!.text.split('\n')).toHaveLength(2);
  // 409: over the previous cue, or within 80 ms (2 frames) of it.
  expect((await refuse('PATCH', '/cues/2', { start_ms: 2950 }, 409)).detail).toBe('cue 2 would overlap cue 1');
  await refuse('PATCH', '/cues/2', { start_ms: 3040 }, 409);
  // 404: another tenant, an unknown cue; 401 without a key; 403 read-only key.
  expect((await s.api('GET', `${T}/cues`, undefined, { key: other })).status).toBe(404);
  expect((await s.api('PATCH', `${T}/cues/1`, { text: 'x' }, { key: other, headers: { 'if-match': etag } })).status).toBe(404);
  await refuse('PATCH', '/cues/99', { text: 'x' }, 404);
  await refuse('PATCH', '/cues/abc', { text: 'x' }, 404);
  expect((await s.api('GET', `${T}/cues`, undefined, { key: null })).status).toBe(401);
  expect((await s.api('PATCH', `${T}/cues/1`, { text: 'x' }, { key: reader, headers: { 'if-match': etag } })).status).toBe(403);
  expect((await s.api('GET', `${T}/revisions`, undefined, { key: reader })).status).toBe(200);

  // Split at the line break (time shared by characters), then merge back.
  const sp = await W('POST', '/cues/2/split', {});
  const [a, b] = sp.revision!.after;
  expect([a!.id, a!.text, a!.start_ms, b!.id, b!.text, b!.end_ms, b!.start_ms - a!.end_ms]).toEqual([2, 'למהדורת החדשות', 4000, 5, 'שלנו הערב', 7000, 80]);
  await refuse('POST', '/cues/2/split', { offset: 3, at_ms: 4500 }, 422);
  const mg = await W('POST', '/cues/2/merge', {});
  expect([mg.revision!.after[0]!.text, mg.revision!.after[0]!.end_ms, mg.cue_count]).toEqual(['למהדורת החדשות\nשלנו הערב', 7000, 4]);
  await refuse('POST', '/cues/4/merge', { with: 'next' }, 409);
  // Shift: following, range, all; before 0 is 422, onto a neighbour 409.
  await W('POST', '/cues/shift', { scope: 'following', from_id: 3, by_ms: 200 });
  const rg = await W('POST', '/cues/shift', { scope: 'range', from_ms: 7000, to_ms: 9000, by_ms: -500 });
  expect(rg.revision!.after.map((c) => [c.id, c.start_ms])).toEqual([[3, 7200]]);
  await refuse('POST', '/cues/shift', { scope: 'all', by_ms: -2000 }, 422);
  await refuse('POST', '/cues/shift', { scope: 'following', from_id: 3, by_ms: -300 }, 409);
  await refuse('POST', '/cues/shift', { scope: 'following', by_ms: 100 }, 422);
  await W('POST', '/cues/shift', { scope: 'all', by_ms: 500 });
  // Insert and delete.
  const ins = await W('POST', '/cues', { start_ms: 14000, end_ms: 16000, text: 'נאם היום בתל אביב' }, 201);
  expect(ins.revision!.after[0]!.id).toBe(6);
  await refuse('POST', '/cues', { start_ms: 15000, end_ms: 17000, text: 'על' }, 409);
  await refuse('POST', '/cues', { start_ms: 20000, end_ms: 28000, text: 'ארוכה' }, 422);
  const tmp = await W('POST', '/cues', { start_ms: 20000, end_ms: 21000, text: 'זמנית' }, 201);
  await W('DELETE', `/cues/${tmp.revision!.after[0]!.id}`, undefined);
  // Find and replace (whole words, prefix letters kept), then the glossary; twice changes nothing.
  const rp = await W('POST', '/replace', { find: 'ירושלים', replace: 'ירושלים הבירה' });
  expect([rp.revision!.after[0]!.text.replace('\n', ' ').startsWith('בירושלים הבירה עם'), rp.revision!.counts!.replacements]).toEqual([true, 1]);
  expect((await W('POST', '/replace', { find: 'רושלים', replace: 'x' })).revision).toBeNull();
  const gl = await W('POST', '/apply-glossary', {});
  expect([gl.revision!.op, gl.revision!.after[0]!.text, gl.revision!.counts]).toEqual(['glossary', 'נאם היום בתל־אביב', { replacements: 1, cues: 1, terms: [{ term: 'תל־אביב', count: 1 }] }]);
  expect((await W('POST', '/apply-glossary', {})).revision).toBeNull();

  // Revisions newest first; undo the glossary; a revision undone twice or one whose cues changed since: 409.
  const revs = await json<{ items: Rev[] }>(s.api('GET', `${T}/revisions?limit=200`));
  expect(revs.items.map((r) => r.op)).toEqual(['glossary', 'replace', 'delete', 'insert', 'insert', 'shift', 'shift', 'shift', 'merge', 'split', 'edit', 'edit']);
  expect((await json<Rev>(s.api('GET', `${T}/revisions/${revs.items[0]!.id}`))).op).toBe('glossary');
  const un = await W('POST', `/revisions/${revs.items[0]!.id}/undo`, undefined);
  expect([un.revision!.op, un.revision!.undo_of, un.revision!.after[0]!.text]).toEqual(['undo', revs.items[0]!.id, 'נאם היום בתל אביב']);
  await refuse('POST', `/revisions/${revs.items[0]!.id}/undo`, undefined, 409);
  expect((await refuse('POST', `/revisions/${revs.items.find((r) => r.op === 'split')!.id}/undo`, undefined, 409)).detail).toContain('undo the later revisions first');
  await refuse('POST', '/revisions/00000000-0000-4000-8000-000000000000/undo', undefined, 404);
  // Undo everything else, newest first: the track is the upload again, cue for cue.
  for (const r of revs.items.slice(1)) await W('POST', `/revisions/${r.id}/undo`, undefined);
  expect(await (await s.api('GET', `${T}.vtt`)).text()).toBe(original);
  const after = await json<{ items: Rev[] }>(s.api('GET', `${T}/revisions?limit=200`));
  expect(after.items.filter((r) => r.op !== 'undo').every((r) => r.undone_by !== null)).toBe(true);
}, 60_000);

test('channel-recording tracks are edited through the same cue API (assets:write), under their channel only', async () => {
  const { SubtitleStore } = await import('../../src/features/subtitles/store');
  const { newId } = await import('../../src/kernel/ids');
  const tenant = defaultTenant(s.ctx), channel = newId(), id = newId(), now = Date.now();
  // A track as channel recognition leaves it (the channel feature's own creation path is tested with it).
  s.ctx.db.query(`INSERT INTO subtitle_tracks (id, tenant_id, asset_id, language, kind, source, status, channel_id, range_start_ms, range_end_ms, created_at, updated_at)
    VALUES (?, ?, '', 'he', 'subtitles', 'asr', 'ready', ?, ?, ?, ?, ?)`).run(id, tenant, channel, now - 60_000, now, now, now);
  new SubtitleStore(s.ctx.db).replaceCues(id, [{ startMs: 1000, endMs: 3000, text: 'מבזק חדשות' }, { startMs: 4000, endMs: 6000, text: 'מזג האוויר' }], now);
  const T = `/v1/channels/${channel}/subtitles/${id}`;
  const list = await s.api('GET', `${T}/cues`, undefined, { key: reader });
  expect(list.status).toBe(200);
  const etag = list.headers.get('etag')!;
  expect((await list.json() as { items: Cue[] }).items.map((c) => c.text)).toEqual(['מבזק חדשות', 'מזג האוויר']);
  const w = await json<Write>(s.api('POST', `${T}/cues/1/merge`, {}, { headers: { 'if-match': etag } }));
  expect([w.revision!.op, w.revision!.after[0]!.text, w.cue_count]).toEqual(['merge', 'מבזק חדשות\nמזג האוויר', 1]);
  expect((await s.api('GET', `/v1/channels/${newId()}/subtitles/${id}/cues`)).status).toBe(404);
  expect((await s.api('GET', `${T}/cues`, undefined, { key: other })).status).toBe(404);
  expect((await s.api('POST', `${T}/revisions/${w.revision!.id}/undo`, undefined, { key: reader, headers: { 'if-match': w.etag } })).status).toBe(403);
  const u = await json<Write>(s.api('POST', `${T}/revisions/${w.revision!.id}/undo`, undefined, { headers: { 'if-match': w.etag } }));
  expect(u.cue_count).toBe(2);
  // A track from before cue ids were counted (next_cue_id 0): the highest cue deleted, a cue inserted, the delete
  // undone: the inserted cue got a fresh id, so the deleted one comes back under its own.
  s.ctx.db.query('UPDATE subtitle_tracks SET next_cue_id = 0 WHERE id = ?').run(id);
  const del = await json<Write>(s.api('DELETE', `${T}/cues/2`, undefined, { headers: { 'if-match': u.etag } }));
  const ins = await json<Write>(s.api('POST', `${T}/cues`, { start_ms: 8000, end_ms: 9500, text: 'ולסיום' }, { headers: { 'if-match': del.etag } }), 201);
  expect(ins.revision!.after[0]!.id).toBe(3);
  const back = await json<Write>(s.api('POST', `${T}/revisions/${del.revision!.id}/undo`, undefined, { headers: { 'if-match': ins.etag } }));
  expect(back.revision!.after.map((c) => [c.id, c.text])).toEqual([[2, 'מזג האוויר']]);
});

test('every answer above matches the OpenAPI document (Ajv)', () => {
  expect(s.violations.map((v) => `${v.method} ${v.path} ${v.status}: ${v.problem}`)).toEqual([]);
});
