import Bowser from 'bowser';

/** Device facts read from a User-Agent: type (desktop, mobile, tablet, tv, bot, other), browser and OS names. */
export interface Device { device: string; browser: string | null; os: string | null }

/** Parses User-Agent strings with bowser, remembering the last `max` distinct strings (players repeat theirs). */
export class DeviceParser {
  private cache = new Map<string, Device>();
  constructor(private max = 2000) {}

  /** The device of one User-Agent (empty or missing → `other`). */
  parse(ua: string | null): Device {
    if (!ua) return { device: 'other', browser: null, os: null };
    const hit = this.cache.get(ua);
    if (hit) return hit;
    let d: Device;
    try {
      const r = Bowser.parse(ua);
      const type = r.platform.type ?? (/bot|crawl|spider/i.test(ua) ? 'bot' : 'other');
      d = { device: type, browser: r.browser.name ?? null, os: r.os.name ?? null };
    } catch { d = { device: 'other', browser: null, os: null }; }
    if (this.cache.size >= this.max) this.cache.clear();
    this.cache.set(ua, d);
    return d;
  }
}
