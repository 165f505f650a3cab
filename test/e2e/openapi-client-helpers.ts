/**
 * The generated-client check of the contract test: openapi-typescript turns the served document into a .d.ts, a
 * small openapi-fetch program (upload, wait for ready, sign a token, create a channel, cut a clip; no casts) is
 * type-checked with tsc and then run against the server.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const ROOT = resolve(import.meta.dir, '../..');

/** The client program: every call goes through the typed client; no `as`, no `any`. */
export const CLIENT_PROGRAM = `import createClient from 'openapi-fetch';
import { readFileSync } from 'node:fs';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: process.env.VS_URL, headers: { authorization: 'Bearer ' + process.env.VS_KEY } });
const bytes = readFileSync(process.env.VS_FILE ?? '');

const started = await client.POST('/v1/uploads', { body: { filename: 'contract.mp4', size_bytes: bytes.length, content_type: 'video/mp4' } });
if (!started.data) throw new Error('upload start: ' + started.error?.detail);
const session = started.data;
const parts: { part_number: number; etag: string }[] = [];
for (const part of session.parts) {
  const chunk = bytes.subarray((part.part_number - 1) * session.part_size, part.part_number * session.part_size);
  const put = await client.PUT('/v1/uploads/{upload_id}/parts/{n}', {
    params: { path: { upload_id: session.upload_id, n: String(part.part_number) }, query: { key: session.key } },
    body: new Blob([chunk]),
    bodySerializer: (b) => b,
    headers: { 'content-type': 'application/octet-stream' },
  });
  if (!put.data) throw new Error('part: ' + put.error?.detail);
  parts.push({ part_number: put.data.part_number, etag: put.data.etag });
}
const completed = await client.POST('/v1/uploads/{upload_id}/complete', {
  params: { path: { upload_id: session.upload_id } },
  body: { key: session.key, parts, title: 'Contract check' },
});
if (!completed.data) throw new Error('complete: ' + completed.error?.detail);
const assetId: string = completed.data.id;

let status: string = completed.data.status;
const deadline = Date.now() + 150_000;
while (status !== 'ready') {
  if (status === 'failed' || Date.now() > deadline) throw new Error('asset ended ' + status);
  await new Promise((r) => setTimeout(r, 250));
  const got = await client.GET('/v1/assets/{id}', { params: { path: { id: assetId } } });
  if (!got.data) throw new Error('get asset: ' + got.error?.detail);
  status = got.data.status;
}

const token = await client.POST('/v1/playback/tokens', { body: { asset: assetId, ttl_s: 600 } });
if (!token.data) throw new Error('token: ' + token.error?.detail);
const src: string = token.data.src;

const channel = await client.POST('/v1/channels', { body: { name: 'Contract channel', ladder: 'passthrough', recording: { retention_hours: 24 } } });
if (!channel.data) throw new Error('channel: ' + channel.error?.detail);

const now = Date.now();
const clip = await client.POST('/v1/clips', {
  body: { channel_id: channel.data.id, start_at: new Date(now - 60_000).toISOString(), end_at: new Date(now - 30_000).toISOString(), precision: 'segment' },
});
const clipField: string | undefined = clip.error?.errors?.[0]?.field;
const clipId: string | undefined = clip.data?.id;

console.log(JSON.stringify({ assetId, src, channel: channel.data.slug, clipStatus: clip.response.status, clipField, clipId }));
`;

/** Writes api.d.ts (from `doc`), the program and a strict tsconfig into a fresh folder under node_modules/.cache. */
export async function writeClientProject(doc: object): Promise<string> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'vs-contract-'));
  // Raw bodies (parts) are Blobs in this client; everything else is generated as the CLI would.
  const ast = await openapiTS(doc as never, {
    transform(schema) {
      if ((schema as { contentMediaType?: string }).contentMediaType === 'application/octet-stream') return ts.factory.createTypeReferenceNode('Blob');
      return undefined;
    },
  });
  writeFileSync(join(dir, 'api.d.ts'), astToString(ast));
  writeFileSync(join(dir, 'client.ts'), CLIENT_PROGRAM);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ESNext', module: 'ESNext', moduleResolution: 'bundler', lib: ['ESNext', 'DOM'], types: ['bun'], strict: true, noEmit: true, skipLibCheck: true, noImplicitAny: true },
    files: ['client.ts', 'api.d.ts'],
  }));
  return dir;
}

/** Runs a command to completion; resolves with its exit code and output. */
export async function run(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(argv, { cwd, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: out + err };
}

/** The repository root (for node_modules/.bin tools and redocly.yaml). */
export const REPO_ROOT = ROOT;
