/**
 * A small, strict XMLTV reader (no XML library needed for this one format): `<tv>` root, `<programme start stop
 * channel>` with `title`, `sub-title`, `desc`, `episode-num`, `icon`. Entities and CDATA are decoded. Anything
 * structurally wrong (no root, unclosed programme, unreadable time) throws XmltvError naming where.
 */

/** A malformed document. */
export class XmltvError extends Error {}

/** One programme as read from the document (times in epoch ms; `end_ms` null when `stop` is absent). */
export interface XmltvProgramme { channel: string; start_ms: number; end_ms: number | null; title: string; subtitle: string | null; description: string | null; episode: string | null; icon: string | null }

const decode = (s: string): string => s
  .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_m, c: string) => c.replace(/&/g, '&amp;').replace(/</g, '&lt;'))
  .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
  .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
  .replace(/&(lt|gt|quot|apos|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[e])
  .trim();

function attrs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = decode(m[2] ?? m[3] ?? '');
  return out;
}

/** Parses an XMLTV time: `YYYYMMDDhhmm[ss] [+-hhmm]` (no offset = UTC). */
export function parseXmltvTime(v: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?\s*(?:([+-])(\d{2}):?(\d{2})|Z|UTC|GMT)?$/.exec(v.trim());
  if (!m) return NaN;
  const utc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  const off = m[7] ? (m[7] === '-' ? -1 : 1) * (+m[8] * 60 + +m[9]) * 60_000 : 0;
  return utc - off;
}

function child(body: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`).exec(body);
  return m ? decode(m[1]) : null;
}

function episodeOf(body: string): string | null {
  const all = [...body.matchAll(/<episode-num(\s[^>]*)?>([\s\S]*?)<\/episode-num>/g)].map((m) => ({ system: attrs(m[1] ?? '').system ?? '', text: decode(m[2]) }));
  const onscreen = all.find((e) => e.system === 'onscreen');
  if (onscreen) return onscreen.text.slice(0, 100);
  const ns = all.find((e) => e.system === 'xmltv_ns');
  if (ns) {
    const [s, e] = ns.text.split('.').map((x) => x.split('/')[0].trim());
    const n = (x: string | undefined) => (x && /^\d+$/.test(x) ? Number(x) + 1 : null);
    const S = n(s), E = n(e);
    if (S || E) return `${S ? `S${String(S).padStart(2, '0')}` : ''}${E ? `E${String(E).padStart(2, '0')}` : ''}`;
  }
  return all[0]?.text.slice(0, 100) ?? null;
}

/** Reads every programme of an XMLTV document, in document order. */
export function parseXmltv(xml: string): { channels: string[]; programmes: XmltvProgramme[] } {
  if (!/<tv[\s>]/.test(xml) || !/<\/tv>\s*$/.test(xml.replace(/<!--[\s\S]*?-->/g, ''))) throw new XmltvError('not an XMLTV document: the <tv> root element is missing or not closed');
  const body = xml.replace(/<!--[\s\S]*?-->/g, '');
  const opened = (body.match(/<programme[\s>]/g) ?? []).length;
  const programmes: XmltvProgramme[] = [];
  for (const m of body.matchAll(/<programme(\s[^>]*)>([\s\S]*?)<\/programme>/g)) {
    const a = attrs(m[1]);
    const n = programmes.length + 1;
    if (!a.start) throw new XmltvError(`programme ${n} has no start attribute`);
    if (!a.channel) throw new XmltvError(`programme ${n} has no channel attribute`);
    const start = parseXmltvTime(a.start);
    if (!Number.isFinite(start)) throw new XmltvError(`programme ${n}: unreadable start "${a.start}"`);
    const end = a.stop ? parseXmltvTime(a.stop) : null;
    if (end !== null && !Number.isFinite(end)) throw new XmltvError(`programme ${n}: unreadable stop "${a.stop}"`);
    const title = child(m[2], 'title');
    if (!title) throw new XmltvError(`programme ${n} has no title`);
    const icon = /<icon\s([^>]*)\/?>/.exec(m[2]);
    programmes.push({ channel: a.channel, start_ms: start, end_ms: end, title: title.slice(0, 500), subtitle: child(m[2], 'sub-title'), description: child(m[2], 'desc'), episode: episodeOf(m[2]), icon: icon ? attrs(icon[1]).src ?? null : null });
  }
  if (programmes.length !== opened) throw new XmltvError(`malformed XMLTV: ${opened - programmes.length} <programme> element(s) are not closed`);
  const channels = [...new Set([...body.matchAll(/<channel\s([^>]*)>/g)].map((m) => attrs(m[1]).id).filter(Boolean).concat(programmes.map((p) => p.channel)))];
  return { channels, programmes };
}

/** Guide fields of one XMLTV channel's programmes; a missing stop takes the next start (the last one is dropped). */
export function xmltvToFields(list: XmltvProgramme[], channel: string) {
  const mine = list.filter((p) => p.channel === channel).sort((a, b) => a.start_ms - b.start_ms);
  const out = [];
  for (let i = 0; i < mine.length; i++) {
    const p = mine[i];
    const end = p.end_ms ?? mine[i + 1]?.start_ms ?? null;
    if (end === null || end <= p.start_ms) continue;
    out.push({
      title: p.title, description: [p.subtitle, p.description].filter(Boolean).join(' — ').slice(0, 10000) || null,
      series: p.episode ? p.title : null, episode: p.episode, images: JSON.stringify(p.icon ? { tile_16x9: p.icon } : {}),
      start_ms: p.start_ms, end_ms: Math.min(end, p.start_ms + 48 * 3_600_000), source: 'xmltv',
    });
  }
  return out;
}
