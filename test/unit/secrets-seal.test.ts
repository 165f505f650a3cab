import { expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { ephemeralRing, kek, loadKeyRing, parseMasterKey } from '../../src/kernel/secrets/kek';
import { SealError, Sealer, sealedKid } from '../../src/kernel/secrets/seal';
import { openDb } from '../../src/kernel/db/sqlite';
import { ChannelStore } from '../../src/features/channels/store';
import { WebhookStore } from '../../src/features/webhooks/store';
import { IdentityService } from '../../src/features/identity/service';
import { secretsFacts } from '../../src/cli/doctor-secrets';

const mode = (p: string) => statSync(p).mode & 0o777;

test('seal/open round-trips, a fresh IV each time; legacy plaintext passes through', () => {
  const s = new Sealer(ephemeralRing());
  const a = s.seal('whsec_abc'), b = s.seal('whsec_abc');
  expect(a).not.toBe(b);
  expect(a).toMatch(/^vs1:[0-9a-f]{16}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
  expect(sealedKid(a)).toBe(s.kid);
  expect(s.open(a)).toBe('whsec_abc');
  expect(s.open(b)).toBe('whsec_abc');
  expect(s.open('whsec_legacy')).toBe('whsec_legacy');
  expect(s.open(s.seal(''))).toBe('');
});

test('a value under another key or altered fails with a clear SealError, never garbage', () => {
  const s = new Sealer(ephemeralRing());
  const other = new Sealer(ephemeralRing());
  const v = other.seal('secret');
  expect(() => s.open(v)).toThrow(SealError);
  expect(() => s.open(v)).toThrow(/sealed with master key [0-9a-f]{16}.*another master key/);
  const sealed = s.seal('secret');
  const [p, kid, iv, ct] = sealed.split(':');
  const flipped = ct.slice(0, 5) + (ct[5] === 'A' ? 'B' : 'A') + ct.slice(6);
  expect(() => s.open([p, kid, iv, flipped].join(':'))).toThrow(/failed authentication/);
  expect(() => s.open([p, kid, iv, ct.slice(0, 10)].join(':'))).toThrow(SealError);
  // The header is authenticated: the same bytes under a forged kid do not open with the right key.
  const both = new Sealer({ current: s.ring.current, older: [other.ring.current], source: 'ephemeral', dir: null });
  expect(() => both.open([p, other.kid, iv, ct].join(':'))).toThrow(/failed authentication/);
  // Older ring keys open.
  expect(both.open(v)).toBe('secret');
});

test('master keys parse from hex and base64; anything else is refused', () => {
  const k = randomBytes(32);
  expect(parseMasterKey(k.toString('hex'), 'X').equals(k)).toBe(true);
  expect(parseMasterKey(k.toString('base64'), 'X').equals(k)).toBe(true);
  expect(parseMasterKey(k.toString('base64url') + '\n', 'X').equals(k)).toBe(true);
  expect(() => parseMasterKey('short', 'VS_MASTER_KEY')).toThrow(/VS_MASTER_KEY must be 32 bytes/);
  expect(() => parseMasterKey(randomBytes(31).toString('hex'), 'X')).toThrow();
  expect(kek(k).kid).toMatch(/^[0-9a-f]{16}$/);
});

test('the key file is created once, 0600 in a 0700 dir; VS_MASTER_KEY creates none', () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-kek-'));
  try {
    const r1 = loadKeyRing(join(d, 'a'), {});
    const r2 = loadKeyRing(join(d, 'a'), {});
    expect(r1.current.kid).toBe(r2.current.kid);
    expect(mode(join(d, 'a', 'secrets'))).toBe(0o700);
    expect(mode(join(d, 'a', 'secrets', 'master.key'))).toBe(0o600);
    expect(readFileSync(join(d, 'a', 'secrets', 'master.key')).length).toBe(32);
    const env = { VS_MASTER_KEY: randomBytes(32).toString('base64') };
    const r3 = loadKeyRing(join(d, 'b'), env);
    expect(r3.source).toBe('env');
    expect(readdirSync(join(d, 'b', 'secrets'))).toEqual([]);
  } finally { rmSync(d, { recursive: true, force: true }); }
});

test('an old database with plaintext secrets is re-sealed on open; lookups by stream key still work', () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-legacy-'));
  const path = join(d, 'db', 'meta.sqlite');
  try {
    const db0 = openDb(path);
    const tenant = new IdentityService(db0, null).createTenant({ name: 'T' }).id;
    const now = Date.now();
    new WebhookStore(db0).insertEndpoint({ id: 'w1', tenant_id: tenant, url: 'https://x.example/h', events: '["*"]', secret: 'whsec_PLAINold1234567890', enabled: 1, from_seq: 0, created_at: now, updated_at: now });
    new ChannelStore(db0).insert({
      id: 'c1', tenant_id: tenant, slug: 'c', name: 'C', protocol: 'rtmp', srt_port_primary: 1, srt_port_backup: 2, srt_passphrase: 'PASSplain1234567890',
      srt_latency_ms: 120, rtmp_key_primary: 'live_PRIMplain123456', rtmp_key_backup: 'live_BACKplain123456', ladder: 'passthrough', segment_s: 2,
      failover_s: 3, recording_enabled: 1, retention_hours: 1, dvr_window_s: 60, timezone: 'UTC', desired: 'stopped', status: 'stopped',
      feed: 'none', recording: 'off', feed_info: '{}', created_at: now, updated_at: now,
    } as never);
    db0.close();
    // Make it look like a database from before sealing: plaintext values, no hashes.
    const raw = new Database(path);
    raw.exec(`UPDATE webhook_endpoints SET secret = 'whsec_PLAINold1234567890';
      UPDATE channels SET srt_passphrase = 'PASSplain1234567890', rtmp_key_primary = 'live_PRIMplain123456', rtmp_key_backup = 'live_BACKplain123456', rtmp_hash_primary = NULL, rtmp_hash_backup = NULL;
      INSERT OR REPLACE INTO secrets (name, value) VALUES ('cursor', 'CURSORplain1234567890');`);
    raw.close();
    const db = openDb(path);
    const bytes = Buffer.concat([readFileSync(path), ...['-wal'].map((x) => { try { return readFileSync(path + x); } catch { return Buffer.alloc(0); } })]);
    for (const p of ['whsec_PLAINold1234567890', 'PASSplain1234567890', 'live_PRIMplain123456', 'live_BACKplain123456', 'CURSORplain1234567890']) {
      expect(bytes.includes(Buffer.from(p))).toBe(false);
    }
    expect(new WebhookStore(db).endpoint(tenant, 'w1')!.secret).toBe('whsec_PLAINold1234567890');
    const ch = new ChannelStore(db).byStreamKey('live_BACKplain123456')!;
    expect(ch.id).toBe('c1');
    expect(ch.srt_passphrase).toBe('PASSplain1234567890');
    expect(Object.keys(ch)).not.toContain('rtmp_hash_primary');
    expect(new ChannelStore(db).byStreamKey('live_nope')).toBeNull();
    expect(new IdentityService(db, null).secret('cursor')).toBe('CURSORplain1234567890');
    db.close();
    // Files left too open by an older version are tightened on the next open.
    chmodSync(d, 0o755); chmodSync(join(d, 'db'), 0o755); chmodSync(path, 0o644);
    openDb(path).close();
    expect([mode(d), mode(join(d, 'db')), mode(path), mode(join(d, 'secrets', 'master.key'))]).toEqual([0o700, 0o700, 0o600, 0o600]);
  } finally { rmSync(d, { recursive: true, force: true }); }
});

test('doctor warns about an open data dir or key file and always explains the SRT passphrase exposure', () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-doc-'));
  try {
    expect(secretsFacts(d, {}).secrets).toMatchObject({ ok: true, source: 'none' });
    loadKeyRing(d, {});
    expect(secretsFacts(d, {}).secrets).toMatchObject({ ok: true, source: 'file' });
    chmodSync(join(d, 'secrets', 'master.key'), 0o644);
    chmodSync(d, 0o755);
    const f = secretsFacts(d, {});
    expect(f.secrets.ok).toBe(false);
    expect(f.secrets.detail).toContain('want 0600');
    expect(f.secrets.detail).toContain('want 0700');
    expect(secretsFacts(d, { VS_MASTER_KEY: 'nope' }).secrets.detail).toContain('VS_MASTER_KEY must be 32 bytes');
    expect(f.srt_passphrase.detail).toMatch(f.srt_passphrase.hidepid ? /hidden/ : /process list.*hidepid=2/);
  } finally { rmSync(d, { recursive: true, force: true }); }
});
