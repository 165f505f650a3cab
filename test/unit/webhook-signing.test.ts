import { expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { signPayload, verifySignature } from '../../src/kernel/events/signing';
import { envelopeBody, deliveryHeaders } from '../../src/kernel/events/envelope';
import { nextAttemptAt, MAX_ATTEMPTS } from '../../src/features/webhooks/schedule';
import { extractRefs, validPath } from '../../src/features/hooks/mapping';

test('signature is sha256= hex HMAC over "timestamp.body" (checked against an independent computation)', () => {
  const body = '{"id":"e1","type":"ping"}';
  const want = 'sha256=' + createHmac('sha256', 'whsec_k').update(`1700000000.${body}`).digest('hex');
  expect(signPayload('whsec_k', 1700000000, body)).toBe(want);
  expect(signPayload('whsec_k', '1700000000', new TextEncoder().encode(body))).toBe(want);
});

test('verification: fresh and valid passes; tampering, wrong secret, skew and bad headers fail', () => {
  const now = 1_700_000_000_000;
  const ts = String(now / 1000);
  const body = '{"a":1}';
  const sig = signPayload('s', ts, body);
  expect(verifySignature('s', ts, sig, body, now)).toBeNull();
  expect(verifySignature('s', ts, sig, '{"a":2}', now)).toBe('bad_signature');
  expect(verifySignature('t', ts, sig, body, now)).toBe('bad_signature');
  expect(verifySignature('s', ts, sig.slice(0, -1), body, now)).toBe('bad_signature');
  expect(verifySignature('s', ts, sig, body, now + 300_000)).toBeNull();
  expect(verifySignature('s', ts, sig, body, now + 301_000)).toBe('stale_timestamp');
  expect(verifySignature('s', ts, sig, body, now - 301_000)).toBe('stale_timestamp');
  expect(verifySignature('s', null, sig, body, now)).toBe('missing_headers');
  expect(verifySignature('s', '1e9', sig, body, now)).toBe('bad_timestamp');
});

test('envelope has exactly {id, type, at, customer_id, data} and headers carry the delivery id', () => {
  const body = envelopeBody({ id: 'e', type: 'asset.ready', at: 0, tenantId: 't', dataJson: '{"asset":"a"}' });
  expect(JSON.parse(body)).toEqual({ id: 'e', type: 'asset.ready', at: '1970-01-01T00:00:00.000Z', customer_id: 't', data: { asset: 'a' } });
  const h = deliveryHeaders({ secret: 's', deliveryId: 'd1', type: 'asset.ready', nowMs: 5_500, body });
  expect(h).toMatchObject({ 'x-vs-delivery': 'd1', 'x-vs-event': 'asset.ready', 'x-vs-timestamp': '5', 'user-agent': 'ViewStream-Webhooks/1' });
  expect(h['x-vs-signature']).toBe(signPayload('s', 5, body));
});

test('retry schedule: 10 s, 1 min, 5 min, 30 min, 2 h, 12 h, then dead at the 7th failure', () => {
  expect([1, 2, 3, 4, 5, 6].map((n) => nextAttemptAt(n, 0))).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000, 43_200_000]);
  expect(nextAttemptAt(7, 0)).toBeNull();
  expect(MAX_ATTEMPTS).toBe(7);
});

test('inbound mapping paths walk objects and arrays', () => {
  const body = { article: { videos: [{ ref: 'a' }, { ref: 'b' }, { ref: 3 }, { ref: 'a' }], main: 'm', list: ['x', 'y'] } };
  expect(extractRefs(body, 'article.videos.*.ref')).toEqual(['a', 'b']);
  expect(extractRefs(body, 'article.main')).toEqual(['m']);
  expect(extractRefs(body, 'article.list')).toEqual(['x', 'y']);
  expect(extractRefs(body, 'article.nothing.*')).toEqual([]);
  expect(extractRefs({ __proto__: { x: 'bad' } }, 'x')).toEqual([]);
  expect(validPath('a.*.b')).toBe(true);
  expect(validPath('a..b')).toBe(false);
});
