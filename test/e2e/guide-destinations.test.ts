/**
 * Guide publishing destinations (issue 48) against real receivers: a publish reaches an HTTPS receiver (Bun.serve; the
 * webhook signature checked over the raw body), Debian's OpenSSH server (a temporary sshd on a free port with a temporary
 * host key, pinned, and user key) and an S3 server (s3rver); a failing receiver is retried, then `epg.delivery_failed`
 * with the reason; the pull URL answers 401 without its token and 304 to its ETag.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { S3Client, type Subprocess } from 'bun';
import S3rver from 's3rver';
import { startTestServer, type TestServer } from '../helpers/server';
import { freePort } from '../../src/kernel/net/ports';
import { verifySignature } from '../../src/kernel/events/signing';
import { parseXmltv } from '../../src/features/guide/xmltv';

let s: TestServer;
let ch: { id: string; slug: string };
let dir: string;
let sshd: Subprocess | null = null;
let sshPort = 0;
let s3: S3rver;
let s3Url = '';
let hostKeyFp = '';
// Bun's os.userInfo() can answer `unknown` for the name: ask id(1).
const me = Bun.spawnSync(['id', '-un']).stdout.toString().trim();
const received: { headers: Headers; body: string; ok: string | null }[] = [];
let failingHits = 0;
let receiver: ReturnType<typeof Bun.serve>;
let failing: ReturnType<typeof Bun.serve>;
let secret = '';

async function until<T>(what: string, fn: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}
const listening = (port: number) => new Promise<boolean>((res) => { const c = connect(port, '127.0.0.1'); c.on('connect', () => { c.destroy(); res(true); }); c.on('error', () => res(false)); });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vs-guide-dest-'));
  // sshd: temporary host and user keys, the user key authorised, internal SFTP, on a free port.
  const kg = (f: string) => Bun.spawnSync(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-f', join(dir, f)]);
  kg('host'); kg('user');
  hostKeyFp = Bun.spawnSync(['ssh-keygen', '-l', '-E', 'sha256', '-f', join(dir, 'host.pub')]).stdout.toString().split(' ')[1];
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user.pub')), { mode: 0o600 });
  mkdirSync(join(dir, 'sftp'));
  sshPort = await freePort('127.0.0.1');
  writeFileSync(join(dir, 'sshd_config'), [
    `ListenAddress 127.0.0.1:${sshPort}`, `HostKey ${join(dir, 'host')}`, `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, `PidFile ${join(dir, 'sshd.pid')}`,
    'StrictModes no', 'UsePAM no', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes', 'PermitRootLogin prohibit-password',
    'Subsystem sftp internal-sftp', 'LogLevel ERROR', '',
  ].join('\n'));
  if (userInfo().uid === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  sshd = Bun.spawn(['/usr/sbin/sshd', '-D', '-e', '-f', join(dir, 'sshd_config')], { stdout: 'ignore', stderr: 'ignore' });
  await until('sshd', () => listening(sshPort), 10_000);
  // S3 server and the HTTPS receivers.
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'epg', configs: [] }] });
  const { port } = await s3.run();
  s3Url = `http://127.0.0.1:${port}`;
  receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: async (r) => {
    const body = await r.text();
    received.push({ headers: r.headers, body, ok: verifySignature(secret, r.headers.get('x-vs-timestamp'), r.headers.get('x-vs-signature'), body, Date.now()) });
    return new Response(null, { status: 204 });
  } });
  failing = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => { failingHits++; return new Response('down', { status: 503 }); } });
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  ch = await (await s.api('POST', '/v1/channels', { name: 'Partner Feed', recording: { retention_hours: 24 } })).json();
});
afterAll(async () => {
  receiver?.stop(true); failing?.stop(true);
  sshd?.kill(); await sshd?.exited;
  await s3?.close();
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const H = 3_600_000;
const events = (type: string) => s.ctx.db.query<{ data: string }, [string]>('SELECT data FROM events WHERE type = ? ORDER BY seq').all(type).map((e) => JSON.parse(e.data) as Record<string, unknown>);
const deliveries = async (id: string) => ((await (await s.api('GET', `/v1/guide/destinations/${id}/deliveries`)).json()).items as { status: string; attempt: number; detail: string | null; delivery: string; trigger: string }[]);

test('a publish reaches an HTTPS receiver (signed), an SFTP server and an S3 server; a failing receiver fires epg.delivery_failed after the retries; pull URL', async () => {
  const base = { channels: [ch.id], timezone: 'Asia/Jerusalem', days_behind: 0, days_ahead: 3 };
  const mk = async (b: Record<string, unknown>) => { const r = await s.api('POST', '/v1/guide/destinations', { ...base, ...b }); expect(r.status).toBe(201); return r.json() as Promise<{ id: string; secret?: string; pull_url: string }>; };
  const https = await mk({ name: 'Partner HTTPS', kind: 'https', https: { url: `http://127.0.0.1:${receiver.port}/epg`, method: 'PUT' } });
  secret = https.secret!;
  expect(secret).toStartWith('whsec_');
  const sftp = await mk({ name: 'Partner SFTP', kind: 'sftp', format: 'json', sftp: { host: '127.0.0.1', port: sshPort, username: me, path: join(dir, 'sftp', 'guide.json'), private_key: readFileSync(join(dir, 'user'), 'utf8'), host_key_sha256: hostKeyFp } });
  const bucket = await mk({ name: 'Partner S3', kind: 's3', s3: { endpoint: s3Url, bucket: 'epg', key: 'feeds/partner.xml', access_key_id: 'S3RVER', secret_access_key: 'S3RVER' } });
  const bad = await mk({ name: 'Broken partner', kind: 'https', retries: 1, retry_delay_s: 1, https: { url: `http://127.0.0.1:${failing.port}/epg` } });
  // Credentials never come back.
  const view = await (await s.api('GET', `/v1/guide/destinations/${sftp.id}`)).json();
  expect(JSON.stringify(view)).not.toContain('PRIVATE KEY');
  expect(view).not.toHaveProperty('secret');

  // Publish (review mode off: the change is a version at once).
  const start = Math.floor(Date.now() / H) * H + 2 * H;
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'מבזק חדשות & more', start_at: new Date(start).toISOString(), end_at: new Date(start + H).toISOString() })).status).toBe(201);

  // HTTPS: PUT, signed over the raw body, XMLTV with the programme in the destination's zone.
  const got = await until('the HTTPS delivery', () => received[0]);
  expect(got.ok).toBeNull();
  expect(got.headers.get('x-vs-event')).toBe('epg.published');
  expect(got.headers.get('content-type')).toContain('application/xml');
  const doc = parseXmltv(got.body);
  expect(doc.channels).toEqual([ch.slug]);
  expect(doc.programmes.map((p) => [p.title, p.start_ms])).toEqual([['מבזק חדשות & more', start]]);
  expect(got.body).toMatch(/start="\d{14} \+0[23]00"/);
  // SFTP: the JSON form at the path (written under a temporary name, then renamed).
  const file = join(dir, 'sftp', 'guide.json');
  const json = await until('the SFTP file', () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as { channels: { slug: string; programmes: { title: string; start: string }[] }[] } : undefined));
  expect(json.channels[0].slug).toBe(ch.slug);
  expect(json.channels[0].programmes[0].title).toBe('מבזק חדשות & more');
  expect(Date.parse(json.channels[0].programmes[0].start)).toBe(start);
  // S3: the object.
  const client = new S3Client({ endpoint: s3Url, bucket: 'epg', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' });
  const obj = await until('the S3 object', async () => ((await client.exists('feeds/partner.xml')) ? client.file('feeds/partner.xml').text() : undefined));
  expect(parseXmltv(obj).programmes[0].title).toBe('מבזק חדשות & more');
  for (const d of [https, sftp, bucket]) expect((await until(`${d.id} delivered`, async () => (await deliveries(d.id)).find((x) => x.status === 'delivered'))).trigger).toBe(`publish:${ch.slug}:1`);
  const okEvents = await until('epg.published per destination', () => { const e = events('epg.published').filter((x) => x.destination_id); return e.length >= 3 ? e : undefined; });
  expect(okEvents.map((e) => e.destination).sort()).toEqual(['Partner HTTPS', 'Partner S3', 'Partner SFTP']);

  // The failing receiver: attempt 1 (retrying), attempt 2 after ~1 s (failed, the last), then epg.delivery_failed with the reason.
  const failed = await until('epg.delivery_failed', () => events('epg.delivery_failed')[0], 30_000);
  expect(failed).toMatchObject({ destination_id: bad.id, destination: 'Broken partner', channel: ch.slug, attempts: 2, error: 'the receiver answered HTTP 503' });
  expect(failingHits).toBe(2);
  const log = await deliveries(bad.id);
  expect(log.map((l) => [l.attempt, l.status])).toEqual([[2, 'failed'], [1, 'retrying']]);
  expect(log[0].delivery).toBe(log[1].delivery);

  // Pull URL: no token 401, wrong token 401, token 200 with an ETag, If-None-Match 304, JSON form.
  const pull = new URL(https.pull_url);
  const noToken = `${s.url}${pull.pathname}`;
  expect((await fetch(noToken)).status).toBe(401);
  expect((await fetch(`${noToken}?token=nope`)).status).toBe(401);
  const p1 = await fetch(`${s.url}${pull.pathname}${pull.search}`);
  expect(p1.status).toBe(200);
  const etag = p1.headers.get('etag')!;
  expect(etag).toMatch(/^"/);
  expect(parseXmltv(await p1.text()).programmes[0].title).toBe('מבזק חדשות & more');
  expect((await fetch(`${s.url}${pull.pathname}${pull.search}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  const pj = await fetch(`${s.url}${pull.pathname}${pull.search}&format=json`);
  expect(pj.headers.get('content-type')).toContain('application/json');
  // Rotating the token retires the old URL.
  const rotated = await (await s.api('PATCH', `/v1/guide/destinations/${https.id}`, { rotate_token: true })).json() as { pull_url: string };
  expect((await fetch(`${s.url}${pull.pathname}${pull.search}`)).status).toBe(401);
  expect((await fetch(rotated.pull_url.replace(/^https?:\/\/[^/]+/, s.url))).status).toBe(200);

  // Test operation: pushes now, logged with trigger `test`.
  expect(await (await s.api('POST', `/v1/guide/destinations/${bad.id}/test`)).json()).toMatchObject({ ok: false, detail: 'the receiver answered HTTP 503' });
  expect(await (await s.api('POST', `/v1/guide/destinations/${https.id}/test`)).json()).toMatchObject({ ok: true });

  // Bad input: private address refused, a pinned host key that does not match fails with the reason, unknown channel, types.
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, name: 'x', kind: 'https', https: { url: 'http://169.254.169.254/' } })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, name: 'x', kind: 'https', sftp: { host: 'a', username: 'b', path: '/c', password: 'd' } })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, channels: [crypto.randomUUID()], name: 'x', kind: 'pull' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, name: 'x', kind: 'pull', timezone: 'Mars/Base' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, name: 'x', kind: 'pull', retries: 'many' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/destinations', { ...base, name: 'x', kind: 'pull', bogus: true })).status).toBe(400);
  const wrongKey = await mk({ name: 'Pinned wrong', kind: 'sftp', sftp: { host: '127.0.0.1', port: sshPort, username: me, path: join(dir, 'sftp', 'x.xml'), private_key: readFileSync(join(dir, 'user'), 'utf8'), host_key_sha256: `SHA256:${'A'.repeat(43)}` } });
  const t = await (await s.api('POST', `/v1/guide/destinations/${wrongKey.id}/test`)).json() as { ok: boolean; detail: string };
  expect(t.ok).toBe(false);
  expect(t.detail).toContain(`host key mismatch: the server presented ${hostKeyFp}`);
  expect((await s.api('GET', `/v1/guide/destinations/${crypto.randomUUID()}`)).status).toBe(404);
  expect((await s.api('GET', '/v1/guide/destinations', undefined, { key: null })).status).toBe(401);
}, 90_000);
