/** Helpers shared by the uploads tests: generated media, part uploads, hashing, raw HTTP. */
import { connect } from 'node:net';
import { join } from 'node:path';

/** Generates an 8-second 320x180 H.264 MP4 with ffmpeg; returns its bytes. */
export async function makeMp4(dir: string, seconds = 8): Promise<Uint8Array> {
  const out = join(dir, 'gen.mp4');
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', // synthetic picture: no input file needed
    '-t', String(seconds), // bounded duration
    '-c:v', 'libx264', '-preset', 'ultrafast', // cheapest encode: the machine is shared and small
    '-pix_fmt', 'yuv420p', // playable everywhere
    '-movflags', '+faststart', // moov first, like real uploads from editors
    out], { stdout: 'ignore', stderr: 'pipe' });
  const code = await p.exited;
  if (code !== 0) throw new Error(`ffmpeg failed: ${await new Response(p.stderr).text()}`);
  return new Uint8Array(await Bun.file(out).arrayBuffer());
}

/** SHA-256 hex of bytes or a file. */
export async function sha256(x: Uint8Array | string): Promise<string> {
  const h = new Bun.CryptoHasher('sha256');
  if (typeof x === 'string') {
    for await (const c of Bun.file(x).stream() as unknown as AsyncIterable<Uint8Array>) h.update(c);
  } else h.update(x);
  return h.digest('hex');
}

/** MD5 hex of bytes (the etag a part answers). */
export function md5(x: Uint8Array): string {
  return new Bun.CryptoHasher('md5').update(x).digest('hex');
}

/** Deterministic pseudo-random bytes (fast xorshift), so big test files need no entropy. */
export function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  const v = new Uint32Array(out.buffer, 0, Math.floor(n / 4));
  let x = seed >>> 0 || 1;
  for (let i = 0; i < v.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; v[i] = x >>> 0; }
  for (let i = v.length * 4; i < n; i++) out[i] = i & 255;
  return out;
}

/** The bytes of part `n` (1-based) of `data` for `partSize`. */
export function partOf(data: Uint8Array, n: number, partSize: number): Uint8Array {
  return data.subarray((n - 1) * partSize, Math.min(data.length, n * partSize));
}

/**
 * Sends raw HTTP/1.1 request text over TCP and resolves with the status line and headers as soon as the answer's
 * head has arrived (a 1xx interim answer is not the end). `waitMs` is a deadline: a server that has not answered by
 * then (e.g. still waiting for a body cut short) gets a hang-up, and what was read so far is returned.
 */
export function rawRequest(base: string, head: string, body: Uint8Array | null = null, waitMs = 3000): Promise<string> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    let got = '';
    const s = connect(Number(u.port), u.hostname, () => {
      s.write(head.replace(/\n/g, '\r\n') + '\r\n\r\n');
      if (body) s.write(body);
    });
    const done = () => { clearTimeout(t); s.destroy(); resolve(got); };
    const t = setTimeout(done, waitMs);
    s.on('data', (d) => { got += d.toString('latin1'); if (/(^|\r\n\r\n)HTTP\/1\.1 [2-5]\d\d[^]*?\r\n\r\n/.test(got)) done(); });
    s.on('error', (e) => { clearTimeout(t); got ? resolve(got) : reject(e); });
    s.on('close', () => { clearTimeout(t); resolve(got); });
  });
}

/** Polls `ok` (every `everyMs`) until it holds; throws naming `what` after `timeoutMs`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 5): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(everyMs);
  }
}
