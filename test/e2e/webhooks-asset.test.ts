import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeMp4 } from './uploads-helpers';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';

let s: TestServer;
let rx: Receiver;
beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  rx = startReceiver();
});
afterAll(async () => { rx.stop(); await s?.stop(); });

test('uploading an asset produces a signed asset.ready at a receiver, and the event stream shows the same event', async () => {
  const hook = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.ready', 'asset.failed'] })).json() as { secret: string };
  const stream = await fetch(`${s.url}/v1/events/stream?types=asset.ready`, { headers: { authorization: `Bearer ${s.key}` } });
  const reader = stream.body!.getReader();
  let text = '';
  const reading = (async () => { for (;;) { const r = await reader.read(); if (r.done) return; text += new TextDecoder().decode(r.value); } })().catch(() => {});

  const mp4 = await makeMp4(s.dataDir, 2);
  const up = await (await s.api('POST', '/v1/uploads', { filename: 'clip.mp4', size_bytes: mp4.length, content_type: 'video/mp4' })).json() as { upload_id: string; key: string; parts: { url: string }[] };
  const put = await fetch(up.parts[0].url, { method: 'PUT', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/octet-stream' }, body: mp4 as BodyInit });
  expect(put.status).toBe(200);
  const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [await put.json()], title: 'Hook me', external_id: 'wh:ready' });
  expect(c.status).toBe(201);
  const asset = await c.json() as { id: string };

  const got = (await waitFor('asset.ready at the receiver', () => rx.received.find((r) => r.body.type === 'asset.ready' || r.body.type === 'asset.failed'), 110_000, 100))!;
  expect(got.body.type).toBe('asset.ready');
  expect(verifyLikeACustomer(hook.secret, got.headers, got.raw)).toBe(true);
  expect(got.headers['x-vs-event']).toBe('asset.ready');
  expect(got.body.data).toMatchObject({ asset: asset.id, external_id: 'wh:ready', status: 'ready' });
  expect((got.body.data.playback as Record<string, string>).hls).toContain(asset.id);

  await waitFor('stream frame', () => text.includes('event: asset.ready'), 10_000);
  const frame = /id: (\d+)\nevent: asset\.ready\ndata: (.*)\n\n/.exec(text)!;
  expect(frame[2]).toBe(got.raw);
  await reader.cancel();
  await reading;
}, 120_000);
