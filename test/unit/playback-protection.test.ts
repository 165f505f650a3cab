/** Pure parts of geo blackouts (blackout-rules.ts, blackout-gate.ts) and of the leak watch (leak-watch.ts). */
import { expect, test } from 'bun:test';
import fc from 'fast-check';
import { BlackoutIndex, countryBlacked, isCountryCode, spanCovered, type BlackoutRule } from '../../src/features/playback/blackout-rules';
import { requestSpan } from '../../src/features/playback/blackout-gate';
import { LeakWatch } from '../../src/features/playback/leak-watch';
import { DEFAULT_LEAK_RULES } from '../../src/features/playback/policy';

const rule = (o: Partial<BlackoutRule> = {}): BlackoutRule => ({ id: 'b1', tenantId: 't', channel: 'news', programmeId: null, name: 'x', fromMs: 1000, toMs: 2000, appliesTo: 'in', countries: ['US'], ...o });

test('country codes: ISO 3166-1 alpha-2 regions only', () => {
  for (const c of ['US', 'IL', 'GB', 'FR', 'XK', 'AQ']) expect(isCountryCode(c)).toBe(true);
  for (const c of ['ZZ', 'UK', 'EU', 'UN', 'AA', 'XX', 'us', 'USA', 'U1', '', '<>', 'I\u0307L']) expect(isCountryCode(c)).toBe(false);
  fc.assert(fc.property(fc.string({ maxLength: 4 }), (c) => !isCountryCode(c) || /^[A-Z]{2}$/.test(c)), { seed: 46, numRuns: 2000 });
});

test('in refuses listed countries; out refuses the rest and unknown viewers', () => {
  expect([countryBlacked(rule(), 'US'), countryBlacked(rule(), 'us'), countryBlacked(rule(), 'IL'), countryBlacked(rule(), null)]).toEqual([true, true, false, false]);
  const out = rule({ appliesTo: 'out', countries: ['IL'] });
  expect([countryBlacked(out, 'IL'), countryBlacked(out, 'US'), countryBlacked(out, null)]).toEqual([false, true, true]);
});

test('spans: half-open windows, open ends, programmes; segments by their own start', () => {
  const r = rule();
  expect([spanCovered(r, { fromMs: 999, toMs: 1000 }), spanCovered(r, { fromMs: 999, toMs: 1001 }), spanCovered(r, { fromMs: 1999, toMs: 2000 }), spanCovered(r, { fromMs: 2000, toMs: 2001 })]).toEqual([false, true, true, false]);
  expect(spanCovered(rule({ fromMs: null, toMs: null }), { fromMs: 0, toMs: 1 })).toBe(true);
  expect(spanCovered(rule({ programmeId: 'p1', fromMs: 5, toMs: 6 }), { fromMs: 9000, toMs: 9001, programme: 'p1' })).toBe(true);
  expect(requestSpan({ kind: 'channel', id: 'news' }, '1700000001500.m4s', 42)).toEqual({ fromMs: 1700000001500, toMs: 1700000001501, programme: null });
  expect(requestSpan({ kind: 'channel', id: 'news' }, '1700000001500.mp4', 42)).toEqual({ fromMs: 42, toMs: 43, programme: null });
  expect(requestSpan({ kind: 'catchup', id: 'news', from: 10, to: 20 }, undefined, 42)).toEqual({ fromMs: 10, toMs: 20 });
  expect(requestSpan({ kind: 'catchup', id: 'news', from: 10 }, undefined, 42)).toEqual({ fromMs: 10, toMs: 43 });
  // Property: a segment is refused exactly when its start lies in [from, to).
  fc.assert(fc.property(fc.integer({ min: 1e12, max: 2e12 }), fc.integer({ min: 1, max: 1e7 }), fc.integer({ min: -2e7, max: 2e7 }), (from, len, off) => {
    const idx = new BlackoutIndex();
    idx.load([rule({ fromMs: from, toMs: from + len })]);
    const seg = from + off;
    const hit = idx.refusing('t', 'news', requestSpan({ kind: 'channel', id: 'news' }, `${seg}.m4s`, 0), 'US') !== null;
    return hit === (seg >= from && seg < from + len);
  }), { seed: 46, numRuns: 500 });
});

test('the leak watch: limits, sliding window, growth reports, IPv6 /64, bounded addresses', () => {
  const w = new LeakWatch();
  const rules = { ...DEFAULT_LEAK_RULES, max_addresses: 2, window_s: 60 };
  const net = (country: string) => () => ({ country, asn: 1 });
  expect(w.see('s', '10.0.0.1', 'ua', net('IL'), rules, 0)).toBeNull();
  expect(w.see('s', '10.0.0.2', 'ua', net('IL'), rules, 30_000)).toBeNull();
  // The first address is 61 s old when a third one comes: it has left the window.
  expect(w.see('s', '10.0.0.3', 'ua', net('IL'), rules, 61_500)).toBeNull();
  const f = w.see('s', '10.0.0.4', 'ua2', net('FR'), rules, 62_000);
  expect(f?.counts).toEqual({ addresses: 3, networks: 1, countries: 2, requests: 3 });
  expect(f?.reason).toContain('3 addresses (policy allows 2)');
  expect(JSON.stringify(f)).not.toContain('10.0.0.');
  expect(w.see('s', '10.0.0.4', 'ua2', net('FR'), rules, 62_100)).toBeNull(); // nothing grew: no new report
  expect(w.see('s', '10.0.0.5', 'ua', net('DE'), rules, 62_200)?.counts.addresses).toBe(4);
  // One IPv6 subscriber's /64 is one address.
  const v6 = new LeakWatch();
  for (let i = 1; i <= 5; i++) expect(v6.see('s6', `2001:db8:1:2::${i}`, null, net('IL'), { ...rules, max_addresses: 1 }, i)).toBeNull();
  expect(v6.see('s6', '2001:db8:1:3::1', null, net('IL'), { ...rules, max_addresses: 1 }, 9)).not.toBeNull();
  // At most 64 addresses are kept per session.
  const many = new LeakWatch();
  let last = null;
  for (let i = 0; i < 300; i++) last = many.see('m', `10.1.${i >> 8}.${i & 255}`, null, net('IL'), { ...rules, max_addresses: 1 }, i) ?? last;
  expect(last?.evidence.addresses.length).toBe(64);
});
