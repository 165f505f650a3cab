import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { waitFor } from '../helpers/server';
import { liveEnv } from './live-helpers';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';
import { openDb } from '../../src/kernel/db/sqlite';
import { IdentityService } from '../../src/features/identity/service';
import { PlaybackState } from '../../src/features/playback/state';
import { signToken, verifyToken } from '../../src/features/playback/token';

// Issue 11 item 8: private files, and every secret the database stores sealed under a key kept outside it.
const root = mkdtempSync(join(tmpdir(), 'vs-secrets-'));
const data = join(root, 'data');
const mode = (p: string) => statSync(p).mode & 0o777;
const serveArgv = ['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'];
const cli = (env: Record<string, string>, ...args: string[]) => Bun.spawnSync(['bun', 'src/main.ts', ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env }, timeout: 60_000 });
let env: Record<string, string>;
let rx: Receiver;
let srv: ServeProc | null = null;
let key = '';

beforeAll(async () => {
  env = { ...(await liveEnv(4)), VS_DATA_DIR: data, VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' };
  rx = startReceiver();
});
afterAll(async () => {
  rx.stop();
  if (srv) { srv.kill(); await srv.proc.exited; }
  rmSync(root, { recursive: true, force: true });
});

async function start(e: Record<string, string> = env): Promise<ServeProc> {
  srv = await spawnServe(serveArgv, e);
  return srv;
}
async function stop(): Promise<void> {
  if (!srv) return;
  srv.kill('SIGTERM');
  expect(await srv.proc.exited).toBe(0);
  srv = null;
}
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(srv!.url + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, json: await r.json().catch(() => null) as any };
};
/** meta.sqlite and its WAL, as a thief copying the data dir would get them. */
const dbBytes = () => Buffer.concat(['', '-wal', '-shm'].map((x) => join(data, 'db', `meta.sqlite${x}`)).filter(existsSync).map((p) => readFileSync(p)));
/** Every form a secret could leak in: the text, and for base64url/hex-looking parts their raw bytes, hex and base64. */
function forms(secret: string): Buffer[] {
  const out = [Buffer.from(secret), Buffer.from(Buffer.from(secret).toString('hex')), Buffer.from(Buffer.from(secret).toString('base64url'))];
  const body = secret.replace(/^(whsec_|hksec_|live_)/, '');
  if (/^[A-Za-z0-9_-]{16,}$/.test(body)) {
    const raw = Buffer.from(body, 'base64url');
    out.push(Buffer.from(body), raw, Buffer.from(raw.toString('hex')), Buffer.from(raw.toString('base64')));
  }
  return out;
}
const assertAbsent = (bytes: Buffer, secrets: string[]) => {
  for (const s of secrets) for (const f of forms(s)) expect({ secret: s, form: f.toString('latin1').slice(0, 20), found: bytes.includes(f) }).toMatchObject({ found: false });
};

const made = {} as {
  webhook: { id: string; secret: string }; hook: { id: string; secret: string; address: string }; channel: string;
  ingest: any; signing: { id: string; secret: string }[]; master: Buffer; cursor: string; aes: string; token: string;
};

test('serve on a fresh data dir: data dir 0700, database files 0600, secrets dir 0700, master.key 0600', async () => {
  mkdirSync(data, { mode: 0o755 });
  chmodSync(data, 0o755); // an existing, too open data dir is tightened on start
  await start();
  key = srv!.key!;
  expect(key).toMatch(/^vs_/);
  expect(mode(data)).toBe(0o700);
  expect(mode(join(data, 'db'))).toBe(0o700);
  expect(mode(join(data, 'db', 'meta.sqlite'))).toBe(0o600);
  for (const x of ['-wal', '-shm']) if (existsSync(join(data, 'db', `meta.sqlite${x}`))) expect(mode(join(data, 'db', `meta.sqlite${x}`))).toBe(0o600);
  expect(mode(join(data, 'db', 'stats.duckdb'))).toBe(0o600);
  expect(mode(join(data, 'secrets'))).toBe(0o700);
  expect(mode(join(data, 'secrets', 'master.key'))).toBe(0o600);
  expect(readdirSync(join(data, 'secrets'))).toEqual(['master.key']);
  made.master = readFileSync(join(data, 'secrets', 'master.key'));
  expect(made.master.length).toBe(32);
}, 60_000);

test('webhook, inbound hook, channel and signing-key secrets never appear in meta.sqlite or its WAL', async () => {
  const w = await api('POST', '/v1/webhooks', { url: rx.url, events: ['*'] });
  expect(w.status).toBe(201);
  made.webhook = { id: w.json.id, secret: w.json.secret };
  const h = await api('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path: 'videos.*' } });
  expect(h.status).toBe(201);
  made.hook = { id: h.json.id, secret: h.json.secret, address: h.json.address };
  const c = await api('POST', '/v1/channels', { name: 'Sealed' });
  expect(c.status).toBe(201);
  made.channel = c.json.id;
  made.ingest = (await api('GET', `/v1/channels/${made.channel}/ingest`)).json;
  expect(made.ingest.srt.primary.passphrase.length).toBeGreaterThanOrEqual(10);
  const k = await api('GET', '/v1/playback/signing-keys');
  made.signing = k.json.items;
  expect(made.signing.length).toBe(1);
  const secrets = [made.webhook.secret, made.hook.secret, made.ingest.srt.primary.passphrase, made.ingest.rtmp.primary.stream_key, made.ingest.rtmp.backup.stream_key, made.signing[0].secret];
  expect(dbBytes().includes(Buffer.from(rx.url))).toBe(true); // control: the scan does see what is stored in clear
  assertAbsent(dbBytes(), secrets);
  await stop();
  assertAbsent(dbBytes(), secrets);
  // The service-wide secrets (cursor HMAC key, AES content-key master) are sealed too.
  const db = openDb(join(data, 'db', 'meta.sqlite'), { dataDir: data });
  const ids = new IdentityService(db, null);
  made.cursor = ids.secret('cursor');
  made.aes = ids.secret('hls-aes');
  const state = PlaybackState.over(db);
  const tenant = db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  made.token = signToken({ v: 1, kid: made.signing[0].id, t: tenant, k: 'asset', i: 'a1', e: Math.floor(Date.now() / 1000) + 3600, s: 'sid1' }, Buffer.from(made.signing[0].secret, 'base64url'));
  expect(verifyToken(made.token, (kid) => state.keyFor(kid, tenant), Date.now() / 1000).ok).toBe(true);
  db.close();
  assertAbsent(dbBytes(), [...secrets, made.cursor, made.aes]);
  expect(dbBytes().includes(made.master)).toBe(false);
}, 60_000);

test('secrets rotate: refused while serving; then a new key, every value re-wrapped, everything still works', async () => {
  await start();
  const busy = cli(env, 'secrets', 'rotate', '--json');
  expect(busy.exitCode).not.toBe(0);
  expect(busy.stderr.toString()).toContain('stop it');
  await stop();
  const r = cli(env, 'secrets', 'rotate', '--json');
  expect(r.stderr.toString()).toBe('');
  expect(r.exitCode).toBe(0);
  const out = JSON.parse(r.stdout.toString());
  expect(out.previous).not.toBe(out.kid);
  expect(out.rewrapped).toMatchObject({
    'secrets.value': 2, 'playback_signing_keys.secret': 1, 'webhook_endpoints.secret': 1, 'inbound_hooks.secret': 1,
    'channels.srt_passphrase': 1, 'channels.rtmp_key_primary': 1, 'channels.rtmp_key_backup': 1,
  });
  expect(out.total).toBe(8);
  expect(readdirSync(join(data, 'secrets'))).toEqual(['master.key']);
  expect(mode(join(data, 'secrets', 'master.key'))).toBe(0o600);
  expect(readFileSync(join(data, 'secrets', 'master.key')).equals(made.master)).toBe(false);
  const text = cli(env, 'secrets', 'rotate');
  expect(text.exitCode).toBe(0);
  expect(text.stdout.toString()).toMatch(/re-wrapped 8 secret\(s\)/);

  await start();
  // Channel ingest URLs and keys unchanged; signing keys unchanged.
  expect((await api('GET', `/v1/channels/${made.channel}/ingest`)).json).toEqual(made.ingest);
  expect((await api('GET', '/v1/playback/signing-keys')).json.items).toEqual(made.signing);
  // The webhook still signs with the secret its owner holds.
  expect((await api('POST', `/v1/webhooks/${made.webhook.id}/test`)).status).toBeLessThan(300);
  const ping = (await waitFor('signed ping', () => rx.received.find((x) => x.body.type === 'ping')))!;
  expect(verifyLikeACustomer(made.webhook.secret, ping.headers, ping.raw)).toBe(true);
  // The inbound hook still accepts calls signed with its secret.
  const body = JSON.stringify({ videos: [] });
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = 'sha256=' + createHmac('sha256', made.hook.secret).update(`${ts}.${body}`).digest('hex');
  const hr = await fetch(`${srv!.url}/v1/hooks/${made.hook.id}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'd1' } });
  expect(hr.status).toBe(200);
  await stop();
  const db = openDb(join(data, 'db', 'meta.sqlite'), { dataDir: data });
  const ids = new IdentityService(db, null);
  expect(ids.secret('cursor')).toBe(made.cursor);
  expect(ids.secret('hls-aes')).toBe(made.aes);
  const state = PlaybackState.over(db);
  expect(verifyToken(made.token, (kid) => state.keyFor(kid), Date.now() / 1000).ok).toBe(true); // signed before the rotation
  db.close();
}, 120_000);

test('a copied database under another master key fails to start with a clear error, not garbage', () => {
  const other = join(root, 'thief');
  mkdirSync(join(other, 'db'), { recursive: true });
  for (const x of ['', '-wal']) if (existsSync(join(data, 'db', `meta.sqlite${x}`))) copyFileSync(join(data, 'db', `meta.sqlite${x}`), join(other, 'db', `meta.sqlite${x}`));
  const r = cli({ ...env, VS_DATA_DIR: other, VS_MASTER_KEY: randomBytes(32).toString('hex') }, 'key', 'create', '--tenant', 'default', '--role', 'viewer');
  expect(r.exitCode).not.toBe(0);
  expect(r.stderr.toString()).toMatch(/sealed with master key [0-9a-f]{16}.*VS_MASTER_KEY.*another master key/);
  // Same with the file key a fresh data dir gets.
  const r2 = cli({ ...env, VS_DATA_DIR: other }, 'tenant', 'create', '--name', 'x');
  expect(r2.exitCode).not.toBe(0);
  expect(r2.stderr.toString()).toContain('restore that key file');
}, 60_000);

test('VS_MASTER_KEY: no key file is written, secrets open only with that key; a malformed one is refused', async () => {
  const d = join(root, 'envkey');
  const mk = randomBytes(32).toString('base64');
  const e = { ...env, VS_DATA_DIR: d, VS_MASTER_KEY: mk };
  await start(e);
  key = srv!.key!;
  const w = await api('POST', '/v1/webhooks', { url: rx.url, events: ['*'] });
  expect(w.status).toBe(201);
  await stop();
  expect(mode(join(d, 'secrets'))).toBe(0o700);
  expect(readdirSync(join(d, 'secrets'))).toEqual([]);
  const db = openDb(join(d, 'db', 'meta.sqlite'), { dataDir: d, env: { VS_MASTER_KEY: mk } });
  expect(db.query<{ secret: string }, []>('SELECT secret FROM webhook_endpoints').get()!.secret.startsWith('vs1:')).toBe(true);
  db.close();
  const bad = cli({ ...e, VS_MASTER_KEY: 'too-short' }, 'tenant', 'create', '--name', 'y');
  expect(bad.exitCode).not.toBe(0);
  expect(bad.stderr.toString()).toContain('VS_MASTER_KEY must be 32 bytes');
  // Rotation with an environment key needs the new and old keys from the operator.
  const rot = cli(e, 'secrets', 'rotate');
  expect(rot.exitCode).not.toBe(0);
  expect(rot.stderr.toString()).toContain('VS_MASTER_KEY_OLD');
  const mk2 = randomBytes(32).toString('hex');
  const rot2 = cli({ ...e, VS_MASTER_KEY: mk2, VS_MASTER_KEY_OLD: mk }, 'secrets', 'rotate', '--json');
  expect(rot2.exitCode).toBe(0);
  expect(JSON.parse(rot2.stdout.toString()).rewrapped['webhook_endpoints.secret']).toBe(1);
  await start({ ...e, VS_MASTER_KEY: mk2 });
  expect((await api('GET', '/v1/webhooks')).json.items.length).toBe(1);
  await stop();
}, 90_000);
