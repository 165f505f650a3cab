import { afterAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push } from './live-helpers';

const servers: TestServer[] = [];
afterAll(async () => { await killPushers(); for (const s of servers) await s.stop(); });

/** Local addresses (hex, as /proc/net writes them) of sockets on `port`: UDP bound, or TCP listening. */
function bound(proto: 'udp' | 'tcp', port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const f of [`/proc/net/${proto}`, `/proc/net/${proto}6`]) {
    let text = '';
    try { text = readFileSync(f, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , st] = line.trim().split(/\s+/);
      if (local?.endsWith(`:${hex}`) && (proto === 'udp' || st === '0A')) out.push(local.slice(0, -5));
    }
  }
  return out;
}

async function channelOn(s: TestServer, name: string, protocol: 'srt' | 'rtmp') {
  const ch = await (await s.api('POST', '/v1/channels', { name, ingest: { protocol } })).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  return { ch, ing: await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() };
}

test('VS_SRT_HOST / VS_RTMP_HOST: listeners bind that address only, and encoders pushing to it go live', async () => {
  const env = await liveEnv();
  const s = await startTestServer({ env: { ...env, VS_SRT_HOST: '127.0.0.1', VS_RTMP_HOST: '127.0.0.1' } });
  servers.push(s);
  const srt = await channelOn(s, 'Bound SRT', 'srt');
  await waitFor('SRT listener bound', () => bound('udp', srt.ing.srt.primary.port).length > 0, 10_000);
  expect(bound('udp', srt.ing.srt.primary.port)).toEqual(['0100007F']); // 127.0.0.1 only
  expect(bound('tcp', s.ctx.config.rtmpPort)).toEqual(['0100007F']);
  const rtmp = await channelOn(s, 'Bound RTMP', 'rtmp');
  push(srt.ing.srt.primary.url, { seconds: 20 });
  push(`${rtmp.ing.rtmp.primary.url}/${rtmp.ing.rtmp.primary.stream_key}`, { seconds: 20 });
  for (const { ch } of [srt, rtmp]) await waitFor(`${ch.slug} live`, async () => (await (await s.api('GET', `/v1/channels/${ch.id}`)).json()).status === 'live', 30_000);
  await killPushers();
  await s.stop();
  servers.pop();

  // Default: every address (encoders on the LAN), whatever --host says (test servers run with --host 127.0.0.1).
  const d = await startTestServer({ env: await liveEnv() });
  servers.push(d);
  const other = await channelOn(d, 'Default bind', 'srt');
  await waitFor('SRT listener bound', () => bound('udp', other.ing.srt.primary.port).length > 0, 10_000);
  expect(bound('udp', other.ing.srt.primary.port)).toEqual(['00000000']);
  expect(bound('tcp', d.ctx.config.rtmpPort)).toContain('00000000');
}, 90_000);
