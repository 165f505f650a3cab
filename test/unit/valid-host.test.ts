import { expect, test } from 'bun:test';
import fc from 'fast-check';
import { isValidHost } from '../../src/kernel/http/canonical';

test('Host ports: 0-65535 accepted, anything larger refused, for names, IPv4 and IPv6 literals', () => {
  const host = fc.constantFrom('localhost', 'example.com', '127.0.0.1', '[::1]', '[2001:db8::7]', 'a_b.local');
  fc.assert(fc.property(host, fc.integer({ min: 0, max: 65535 }), (h, p) => isValidHost(`${h}:${p}`)));
  fc.assert(fc.property(host, fc.integer({ min: 65536, max: 99999 }), (h, p) => !isValidHost(`${h}:${p}`)));
  for (const h of ['localhost', '[::1]', '127.0.0.1', 'example.com:080']) expect(isValidHost(h)).toBe(true);
  for (const h of ['', 'a:', 'a:123456', '[::1]:', 'x y', 'a/b', '[::1]:65536']) expect(isValidHost(h)).toBe(false);
});
