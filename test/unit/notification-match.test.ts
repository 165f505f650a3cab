import { expect, test } from 'bun:test';
import { deliveriesByPerson, eventFacts, matchingRules, typeMatches, type RuleLike } from '../../src/features/notifications/match';

test('event facts: alert severity and channel target, failures as warning, others info', () => {
  expect(eventFacts('alert.firing', { severity: 'critical', target_kind: 'channel', target_id: 'ch1', monitor_name: 'Feed', summary: 'feed down' }))
    .toEqual({ severity: 'critical', channel_id: 'ch1', title: 'alert.firing · Feed · feed down' });
  expect(eventFacts('epg.delivery_failed', { channel_id: 'ch2' }).severity).toBe('warning');
  expect(eventFacts('asset.failed', null)).toEqual({ severity: 'warning', channel_id: null, title: 'asset.failed' });
  expect(eventFacts('asset.ready', { severity: 'bogus' }).severity).toBe('info');
});

test('rules: type patterns, channel filter, lowest severity; one entry per person', () => {
  expect(typeMatches('alert.*', 'alert.firing')).toBe(true);
  expect(typeMatches('alert.*', 'alerts.x')).toBe(false);
  expect(typeMatches('*', 'ping')).toBe(true);
  const r = (id: string, user: string, o: Partial<RuleLike>): RuleLike => ({ id, user_id: user, event_types: ['*'], channels: [], min_severity: 'info', deliver: ['inbox'], ...o });
  const rules = [
    r('a', 'u1', { event_types: ['alert.*'], min_severity: 'warning' }),
    r('b', 'u1', { channels: ['ch1'], deliver: ['email'] }),
    r('c', 'u2', { min_severity: 'critical' }),
    r('d', 'u3', { channels: ['ch9'] }),
  ];
  const f = eventFacts('alert.firing', { severity: 'warning', target_kind: 'channel', target_id: 'ch1' });
  const m = matchingRules(rules, 'alert.firing', f);
  expect(m.map((x) => x.id)).toEqual(['a', 'b']);
  const by = deliveriesByPerson(m);
  expect([...by.keys()]).toEqual(['u1']);
  expect([...by.get('u1')!.deliver].sort()).toEqual(['email', 'inbox']);
  // No channel on the event: channel-filtered rules do not take it.
  expect(matchingRules(rules, 'asset.ready', eventFacts('asset.ready', {})).map((x) => x.id)).toEqual([]);
});
