/**
 * The published guide as partners get it: an XMLTV document (times with the destination's UTC offset) or its JSON form,
 * for a destination's channels over its window (days behind and ahead of today in its time zone). Pure over the rows given.
 */
import type { ChannelRow } from '../channels/store';
import { dayRange, zoneOffsetMs } from './days';
import type { ProgrammeRow } from './store';

/** One channel and its programmes in the window. */
export interface RenderChannel { channel: ChannelRow; programmes: ProgrammeRow[] }

/** The window [from, to) of a destination at `now`: from the start of today - behind to the end of today + ahead (its zone). */
export function windowOf(now: number, tz: string, behind: number, ahead: number): [number, number] {
  const today = dayKey(now, tz);
  return [dayRange(addDays(today, -behind), tz)[0], dayRange(addDays(today, ahead), tz)[1]];
}

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export function dayKey(ms: number, tz: string): string {
  return new Date(ms + zoneOffsetMs(ms, tz)).toISOString().slice(0, 10);
}

/** A day key moved by `n` days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

const pad = (n: number) => String(n).padStart(2, '0');
function offset(ms: number, tz: string): { off: number; sign: string; hh: string; mm: string } {
  const off = zoneOffsetMs(ms, tz), a = Math.abs(off) / 60_000;
  return { off, sign: off < 0 ? '-' : '+', hh: pad(Math.floor(a / 60)), mm: pad(a % 60) };
}

/** An XMLTV time in a zone: `YYYYMMDDhhmmss +hhmm`. */
export function xmltvTime(ms: number, tz: string): string {
  const o = offset(ms, tz);
  const d = new Date(ms + o.off).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)} ${o.sign}${o.hh}${o.mm}`;
}

/** RFC 3339 with the zone's offset, e.g. `2026-11-29T20:00:00+02:00`. */
export function localIso(ms: number, tz: string): string {
  const o = offset(ms, tz);
  return `${new Date(ms + o.off).toISOString().slice(0, 19)}${o.sign}${o.hh}:${o.mm}`;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
// Characters XML 1.0 does not allow (control characters other than tab, line feed and carriage return).
const clean = (s: string) => esc(s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));

/** The XMLTV document of the channels (channel ids are the channel slugs, as imports read them). */
export function renderXmltv(list: RenderChannel[], tz: string, lang = 'he'): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<tv generator-info-name="ViewStream">'];
  for (const { channel: c } of list) out.push(`  <channel id="${clean(c.slug)}"><display-name>${clean(c.name)}</display-name></channel>`);
  for (const { channel: c, programmes } of list) {
    for (const p of programmes) {
      out.push(`  <programme start="${xmltvTime(p.start_ms, tz)}" stop="${xmltvTime(p.end_ms, tz)}" channel="${clean(c.slug)}">`);
      out.push(`    <title lang="${lang}">${clean(p.title)}</title>`);
      if (p.description) out.push(`    <desc lang="${lang}">${clean(p.description)}</desc>`);
      if (p.episode) out.push(`    <episode-num system="onscreen">${clean(p.episode)}</episode-num>`);
      const img = (JSON.parse(p.images || '{}') as Record<string, string>);
      const icon = img.tile_16x9 ?? img.poster;
      if (icon) out.push(`    <icon src="${clean(icon)}"/>`);
      out.push('  </programme>');
    }
  }
  out.push('</tv>', '');
  return out.join('\n');
}

/** The JSON form: `{generator, timezone, from, to, channels: [{id, slug, name, programmes: [...]}]}`. */
export function renderJson(list: RenderChannel[], tz: string, from: number, to: number): string {
  return JSON.stringify({
    generator: 'ViewStream', timezone: tz, from: localIso(from, tz), to: localIso(to, tz),
    channels: list.map(({ channel: c, programmes }) => ({
      id: c.id, slug: c.slug, name: c.name,
      programmes: programmes.map((p) => ({
        id: p.id, title: p.title, description: p.description, series: p.series, episode: p.episode,
        start: localIso(p.start_ms, tz), end: localIso(p.end_ms, tz), images: JSON.parse(p.images || '{}') as Record<string, string>,
      })),
    })),
  });
}
