import { expect } from 'bun:test';
import { startTestServer, type TestServer } from './server';
import { addReadyAsset } from './ready-asset';
import { rawRequest, type RawAnswer } from './raw-http';

/** An in-process appliance with its native delivery front (nginx), and a ready asset whose one segment is `seg`. */
export interface FrontFixture { s: TestServer; own: number; front: number; tenant: string; asset: string }

/** Starts the fixture (extra env beside VS_DELIVERY_FRONT_PORT=0). */
export async function startFront(seg: Uint8Array, env: Record<string, string> = {}): Promise<FrontFixture> {
  const s = await startTestServer({ env: { VS_DELIVERY_FRONT_PORT: '0', ...env } });
  const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  return { s, own: Number(new URL(s.url).port), front: s.front!.port, tenant, asset: addReadyAsset(s, tenant, seg) };
}

/** A playback token from the API (200 expected). */
export async function playbackToken(s: TestServer, body: Record<string, unknown>) {
  const r = await s.api('POST', '/v1/playback/tokens', body);
  expect(r.status).toBe(200);
  return await r.json() as { src: string; sid: string; token: string; expires_at: string };
}

/** The path of `file` beside a playback URL. */
export const pathOf = (src: string, file = 'seg_00001.m4s') => new URL(file, src).pathname;

/** One raw HTTP/1.1 request to 127.0.0.1:port (nothing normalised on the way). */
export const rawGet = (port: number, path: string, extra: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> =>
  rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}${Object.entries(extra).map(([k, v]) => `\r\n${k}: ${v}`).join('')}`);
