/** Helpers of the cluster test and bench: nats-server, an S3-protocol server, worker processes, uploads by API. */
import type { Subprocess } from 'bun';
import { join } from 'node:path';
import S3rver from 's3rver';
import { freePort, waitFor } from '../helpers/server';

/** nats-server's path, or null when it is not installed (the cluster tests then skip). */
export function natsServerBinary(): string | null {
  for (const p of [process.env.VS_TEST_NATS_SERVER, Bun.which('nats-server'), '/usr/sbin/nats-server', '/usr/bin/nats-server']) if (p && Bun.file(p).size) return p;
  return null;
}

/** A running nats-server with JetStream (file storage under `dir`) on a loopback port. */
export async function startNats(bin: string, dir: string): Promise<{ url: string; proc: Subprocess; stop(): Promise<void> }> {
  const port = await freePort();
  const proc = Bun.spawn([bin, '-js', '-a', '127.0.0.1', '-p', String(port), '-sd', join(dir, 'nats')], { stdout: 'ignore', stderr: 'pipe' });
  let log = '';
  void new Response(proc.stderr).body!.pipeTo(new WritableStream({ write(c) { log += new TextDecoder().decode(c); } }));
  await waitFor('nats-server ready', () => { if (proc.exitCode !== null) throw new Error(`nats-server exited: ${log}`); return log.includes('Server is ready'); }, 15_000);
  return { url: `nats://127.0.0.1:${port}`, proc, stop: async () => { proc.kill('SIGTERM'); await proc.exited; } };
}

/** s3rver (a real S3-protocol server) with one bucket, on a loopback port. */
export async function startS3(dir: string, bucket: string): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await s3.run();
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => s3.close() };
}

/** A spawned `viewstream worker`, with what it printed. */
export interface WorkerProc { proc: Subprocess<'ignore', 'pipe', 'pipe'>; name: string; output(): string }

/** Starts `bun src/main.ts worker --join URL --token T --data DIR` (optionally pinned to CPUs with taskset). */
export function spawnWorker(name: string, join_: string, token: string, data: string, env: Record<string, string> = {}, cpus?: string): WorkerProc {
  const argv = ['bun', join(import.meta.dir, '../../src/main.ts'), 'worker', '--join', join_, '--token', token, '--data', data];
  const proc = Bun.spawn(cpus ? ['taskset', '-c', cpus, ...argv] : argv, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { ...process.env, VS_LOG_LEVEL: 'info', ...env } });
  let out = '';
  const d = new TextDecoder();
  for (const s of [proc.stdout, proc.stderr]) void s.pipeTo(new WritableStream({ write(c) { out += d.decode(c); } }));
  return { proc, name, output: () => out };
}

/** Runs the CLI to completion; returns its stdout (throws on a non-zero exit). */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<string> {
  const p = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts'), ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, VS_LOG_LEVEL: 'warn', ...env } });
  const [out, err, code] = [await new Response(p.stdout).text(), await new Response(p.stderr).text(), await p.exited];
  if (code !== 0) throw new Error(`viewstream ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}

/** Generates an H.264 MP4 test clip (`size`, `seconds`) with ffmpeg. */
export async function makeClip(path: string, seconds: number, size = '640x360'): Promise<void> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-movflags', '+faststart', path], { stdout: 'ignore', stderr: 'pipe' });
  if ((await p.exited) !== 0) throw new Error(`ffmpeg failed: ${await new Response(p.stderr).text()}`);
}

/** Uploads a file through the multipart upload API and completes it; returns the asset id. */
export async function uploadFile(base: string, key: string, file: string, title: string): Promise<string> {
  const api = (m: string, p: string, body?: unknown, h: Record<string, string> = {}) => fetch(base + p, {
    method: m, headers: { authorization: `Bearer ${key}`, ...(body instanceof Uint8Array ? {} : { 'content-type': 'application/json' }), ...h },
    body: body === undefined ? undefined : body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body),
  });
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  const start = await (await api('POST', '/v1/uploads', { filename: 'clip.mp4', size_bytes: bytes.length, content_type: 'video/mp4' })).json() as { upload_id: string; key: string; part_size: number; parts: { part_number: number }[] };
  const parts: { part_number: number; etag: string }[] = [];
  for (const p of start.parts) {
    const chunk = bytes.subarray((p.part_number - 1) * start.part_size, p.part_number * start.part_size);
    const r = await api('PUT', `/v1/uploads/${encodeURIComponent(start.upload_id)}/parts/${p.part_number}?key=${encodeURIComponent(start.key)}`, chunk, { 'content-type': 'application/octet-stream' });
    parts.push(await r.json() as { part_number: number; etag: string });
  }
  const done = await api('POST', `/v1/uploads/${encodeURIComponent(start.upload_id)}/complete`, { key: start.key, parts, title });
  if (done.status !== 201) throw new Error(`upload complete answered ${done.status}: ${await done.text()}`);
  return ((await done.json()) as { id: string }).id;
}

/** Starts `viewstream edge run --origin URL --port N --data DIR` (an edge node: nginx with a cache). */
export function spawnEdge(origin: string, port: number, data: string): WorkerProc {
  const proc = Bun.spawn(['bun', join(import.meta.dir, '../../src/main.ts'), 'edge', 'run', '--origin', origin, '--port', String(port), '--host', '127.0.0.1', '--data', data], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let out = '';
  const d = new TextDecoder();
  for (const s of [proc.stdout, proc.stderr]) void s.pipeTo(new WritableStream({ write(c) { out += d.decode(c); } }));
  return { proc, name: 'edge', output: () => out };
}
