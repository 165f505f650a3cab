/**
 * Streaming XMLTV reader on the `saxes` XML parser: text is written in chunks and only the programmes a caller
 * keeps are held, so memory stays bounded by one channel's guide whatever the document's size. Strict about
 * structure (well-formed XML, `<tv>` root, `<programme start channel>` with a `title`); lenient, like the
 * regex reader it replaced, about undefined entities (`&nbsp;` stays as written). Errors are XmltvError.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/** A malformed document. */
export class XmltvError extends Error {}

/** One programme as read from the document (times in epoch ms; `end_ms` null when `stop` is absent). */
export interface XmltvProgramme { channel: string; start_ms: number; end_ms: number | null; title: string; subtitle: string | null; description: string | null; episode: string | null; icon: string | null }

/** What a read returns: every channel named (declared `<channel id>` first, then programme channels) and the kept programmes. */
export interface XmltvDocument { channels: string[]; programmes: XmltvProgramme[] }

/** Which programmes to keep, by their channel (all when absent); every programme is still checked. */
export interface XmltvReadOptions { keep?: (channel: string) => boolean }

/** Longest text kept per field while reading (the guide keeps far less: titles 500, descriptions 10,000). */
const FIELD_CAP = 64 * 1024;
const NOT_XMLTV = 'not an XMLTV document: the <tv> root element is missing or not closed';
const LENIENT = /undefined entity\.$|disallowed character in entity name\.$|empty entity name\.$/;
const FIELDS = new Set(['title', 'sub-title', 'desc', 'episode-num']);

/** Parses an XMLTV time: `YYYYMMDDhhmm[ss] [+-hhmm]` (no offset = UTC). */
export function parseXmltvTime(v: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?\s*(?:([+-])(\d{2}):?(\d{2})|Z|UTC|GMT)?$/.exec(v.trim());
  if (!m) return NaN;
  const utc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  const off = m[7] ? (m[7] === '-' ? -1 : 1) * (+m[8] * 60 + +m[9]) * 60_000 : 0;
  return utc - off;
}

/** The episode label: `onscreen` as written, else `xmltv_ns` as SnnEnn, else the first one given. */
function episodeOf(all: { system: string; text: string }[]): string | null {
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

interface Open {
  n: number; channel: string; start: number; end: number | null; depth: number;
  fields: Map<string, string>; episodes: { system: string; text: string }[]; icon: string | null | undefined;
  capture: { name: string; depth: number; system: string; text: string } | null;
}

/** Reads one XMLTV document written to it in chunks (`write`, then `end`). */
export class XmltvReader {
  private parser = new SaxesParser({ xmlns: false, position: true });
  private depth = 0;
  private rootSeen = false;
  private count = 0;
  private prog: Open | null = null;
  private declared = new Set<string>();
  private used = new Set<string>();
  private kept: XmltvProgramme[] = [];
  private lastClosed = '';

  constructor(private o: XmltvReadOptions = {}) {
    const p = this.parser;
    p.on('error', (e) => { if (!LENIENT.test(e.message)) throw this.failure(e.message); });
    p.on('opentag', (t) => this.open(t as SaxesTagPlain));
    p.on('closetag', (t) => this.close(t.name));
    p.on('text', (s) => this.text(s));
    p.on('cdata', (s) => this.text(s));
  }

  /** Feeds the next piece of the document. */
  write(chunk: string): void { this.parser.write(chunk); }

  /** Ends the document and returns what was read; throws XmltvError when it is incomplete. */
  end(): XmltvDocument {
    this.parser.close();
    return { channels: [...new Set([...this.declared, ...this.used])], programmes: this.kept };
  }

  /** Maps a saxes error (its message starts with `line:column:`) to a readable XmltvError. */
  private failure(msg: string): XmltvError {
    const unclosed = /unclosed tag: (\S+)$/.exec(msg)?.[1] ?? (/unexpected close tag\.$/.test(msg) ? this.lastClosed : null);
    if (!this.rootSeen || unclosed === 'tv') return new XmltvError(`${NOT_XMLTV} (${msg})`);
    if (unclosed) return new XmltvError(`malformed XMLTV: a <${unclosed}> element is not closed (${msg})`);
    return new XmltvError(`malformed XMLTV${this.prog ? ` in programme ${this.prog.n}` : ''} (${msg})`);
  }

  private open(t: SaxesTagPlain): void {
    const a = t.attributes;
    this.depth++;
    if (this.depth === 1) {
      if (t.name !== 'tv') throw new XmltvError(NOT_XMLTV);
      this.rootSeen = true;
      return;
    }
    const p = this.prog;
    if (!p) {
      if (t.name === 'channel') { const id = a.id?.trim(); if (id) this.declared.add(id); }
      else if (t.name === 'programme') this.prog = this.startProgramme(a);
      return;
    }
    if (p.capture) return;
    if (FIELDS.has(t.name)) p.capture = { name: t.name, depth: this.depth, system: a.system?.trim() ?? '', text: '' };
    else if (t.name === 'icon' && p.icon === undefined) p.icon = a.src?.trim() ?? null;
  }

  private startProgramme(a: Record<string, string>): Open {
    const n = ++this.count;
    const start = a.start?.trim(), stop = a.stop?.trim(), channel = a.channel?.trim();
    if (!start) throw new XmltvError(`programme ${n} has no start attribute`);
    if (!channel) throw new XmltvError(`programme ${n} has no channel attribute`);
    const startMs = parseXmltvTime(start);
    if (!Number.isFinite(startMs)) throw new XmltvError(`programme ${n}: unreadable start "${start}"`);
    const end = stop ? parseXmltvTime(stop) : null;
    if (end !== null && !Number.isFinite(end)) throw new XmltvError(`programme ${n}: unreadable stop "${stop}"`);
    return { n, channel, start: startMs, end, depth: this.depth, fields: new Map(), episodes: [], icon: undefined, capture: null };
  }

  private text(s: string): void {
    const c = this.prog?.capture;
    if (c && c.text.length < FIELD_CAP) c.text += s.length > FIELD_CAP ? s.slice(0, FIELD_CAP) : s;
  }

  private close(name: string): void {
    const p = this.prog;
    const depth = this.depth--;
    this.lastClosed = name;
    if (!p) return;
    const c = p.capture;
    if (c && c.depth === depth && c.name === name) {
      p.capture = null;
      const text = c.text.trim();
      if (name === 'episode-num') p.episodes.push({ system: c.system, text });
      else if (!p.fields.has(name)) p.fields.set(name, text);
      return;
    }
    if (depth === p.depth && name === 'programme') this.finishProgramme(p);
  }

  private finishProgramme(p: Open): void {
    this.prog = null;
    const title = p.fields.get('title');
    if (!title) throw new XmltvError(`programme ${p.n} has no title`);
    this.used.add(p.channel);
    if (this.o.keep && !this.o.keep(p.channel)) return;
    this.kept.push({
      channel: p.channel, start_ms: p.start, end_ms: p.end, title: title.slice(0, 500), subtitle: p.fields.get('sub-title') ?? null,
      description: p.fields.get('desc') ?? null, episode: episodeOf(p.episodes), icon: p.icon ?? null,
    });
  }
}
