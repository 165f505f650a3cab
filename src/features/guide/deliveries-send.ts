/**
 * How a rendered guide reaches a destination: HTTPS (POST or PUT, signed like webhook deliveries), SFTP (written under a
 * temporary name, then renamed, so a partner never reads half a file) or S3 (one object, overwritten). Each throws
 * DeliveryError with the reason a person can act on.
 */
import { createHash } from 'node:crypto';
import { S3Client } from 'bun';
import SftpClient from 'ssh2-sftp-client';
import { signPayload } from '../../kernel/events/signing';
import { assertPublicUrl, BlockedAddressError } from '../../kernel/net/safe-fetch';
import { safeSend } from '../../kernel/net/safe-send';

/** A delivery that did not arrive, and why. */
export class DeliveryError extends Error {}

/** The document pushed: its bytes and content type. */
export interface Payload { body: string; type: string }

/** HTTPS settings. */
export interface HttpsConfig { url: string; method: 'POST' | 'PUT' }
/** SFTP settings (credentials apart). */
export interface SftpConfig { host: string; port: number; username: string; path: string; host_key_sha256: string | null }
/** S3 settings (the secret key apart). */
export interface S3Config { endpoint: string; bucket: string; region: string; key: string; access_key_id: string }

const msg = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 300);

/** POSTs or PUTs the document with `X-VS-Event: epg.published`, `X-VS-Delivery`, `X-VS-Timestamp`, `X-VS-Signature`. */
export async function sendHttps(c: HttpsConfig, secret: string, p: Payload, delivery: string, allowlist: string[], nowMs: number): Promise<void> {
  const ts = Math.floor(nowMs / 1000);
  let status: number;
  try {
    ({ status } = await safeSend(c.url, {
      method: c.method, body: p.body, timeoutMs: 10_000, maxBytes: 4096, allowlist,
      headers: { 'content-type': p.type, 'user-agent': 'ViewStream-EPG/1', 'x-vs-event': 'epg.published', 'x-vs-delivery': delivery, 'x-vs-timestamp': String(ts), 'x-vs-signature': signPayload(secret, ts, p.body) },
    }));
  } catch (e) {
    throw new DeliveryError(e instanceof BlockedAddressError ? `refused address: ${e.detail}` : `request failed: ${msg(e)}`);
  }
  if (status < 200 || status > 299) throw new DeliveryError(`the receiver answered HTTP ${status}`);
}

/** The OpenSSH fingerprint of a host key (`SHA256:` + unpadded base64). */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** Uploads the document over SFTP (private addresses refused unless allowlisted; the host key checked when pinned). */
export async function sendSftp(c: SftpConfig, creds: { private_key?: string; password?: string }, p: Payload, allowlist: string[]): Promise<void> {
  try { await assertPublicUrl(`http://${c.host.includes(':') ? `[${c.host}]` : c.host}:${c.port}/`, allowlist); } catch (e) {
    throw new DeliveryError(e instanceof BlockedAddressError ? `refused address: ${e.detail}` : `cannot resolve ${c.host}: ${msg(e)}`);
  }
  const sftp = new SftpClient('guide');
  let seen: string | null = null;
  try {
    await sftp.connect({
      host: c.host, port: c.port, username: c.username, readyTimeout: 15_000, retries: 0,
      ...(creds.private_key ? { privateKey: creds.private_key } : { password: creds.password }),
      hostVerifier: (key: Buffer) => { seen = fingerprint(key); return !c.host_key_sha256 || seen === c.host_key_sha256; },
    });
  } catch (e) {
    await sftp.end().catch(() => {});
    if (c.host_key_sha256 && seen && seen !== c.host_key_sha256) throw new DeliveryError(`host key mismatch: the server presented ${seen}`);
    throw new DeliveryError(`SFTP connection failed: ${msg(e)}`);
  }
  const tmp = `${c.path}.part-${Date.now()}`;
  try {
    await sftp.put(Buffer.from(p.body), tmp);
    await sftp.rename(tmp, c.path).catch(async (e: unknown) => {
      // Servers without posix-rename refuse a rename over an existing file: remove it, then rename.
      if (!(await sftp.exists(c.path))) throw e;
      await sftp.delete(c.path);
      await sftp.rename(tmp, c.path);
    });
  } catch (e) {
    await sftp.delete(tmp, true).catch(() => {});
    throw new DeliveryError(`SFTP upload failed: ${msg(e)}`);
  } finally {
    await sftp.end().catch(() => {});
  }
}

/** Writes the document as one S3 object (Bun's S3 client, as the event export's S3 sink). */
export async function sendS3(c: S3Config, secret: string, p: Payload): Promise<void> {
  const client = new S3Client({ endpoint: c.endpoint, bucket: c.bucket, region: c.region, accessKeyId: c.access_key_id, secretAccessKey: secret });
  try { await client.write(c.key, p.body, { type: p.type }); } catch (e) { throw new DeliveryError(`S3 PUT failed: ${msg(e)}`); }
}
