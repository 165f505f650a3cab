/**
 * XMLTV import: documents are read as a stream through the saxes-based reader (xmltv-reader.ts), from a string,
 * a byte stream (upload body, URL body, file) or any async iterable of chunks, keeping only the programmes the
 * caller asks for. Anything structurally wrong (no `<tv>` root, unclosed programme, unreadable time, not XML)
 * throws XmltvError naming where.
 */
import { XmltvReader, type XmltvDocument, type XmltvProgramme, type XmltvReadOptions } from './xmltv-reader';

export { parseXmltvTime, XmltvError, type XmltvDocument, type XmltvProgramme, type XmltvReadOptions } from './xmltv-reader';

/** An XMLTV document: its text, or its bytes as a stream or async iterable (decoded as UTF-8). */
export type XmltvSource = string | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/** Largest piece of text handed to the parser at once (a string source is fed in slices too). */
const SLICE = 256 * 1024;
/** Input between two forced collections while streaming (see readXmltv). */
const GC_EVERY_BYTES = Number(process.env.XGC ?? 2) * 2 ** 20;

/** Reads every programme of an XMLTV text, in document order (the kept ones only when `o.keep` is given). */
export function parseXmltv(xml: string, o: XmltvReadOptions = {}): XmltvDocument {
  const r = new XmltvReader(o);
  for (let i = 0; i < xml.length; i += SLICE) r.write(xml.slice(i, i + SLICE));
  return r.end();
}

/** Streams an XMLTV document through the reader with bounded memory; errors of the source propagate as they are. */
export async function readXmltv(src: XmltvSource, o: XmltvReadOptions = {}): Promise<XmltvDocument> {
  if (typeof src === 'string') return parseXmltv(src, o);
  const r = new XmltvReader(o);
  const dec = new TextDecoder('utf-8');
  let since = 0;
  for await (const chunk of src as AsyncIterable<Uint8Array | string>) {
    const text = typeof chunk === 'string' ? chunk : dec.decode(chunk, { stream: true });
    if (text) r.write(text);
    // Parsing leaves short-lived strings and chunk buffers behind faster than the collector's heap-growth heuristic
    // reclaims them (over a 100 MB document ~100 MB piles up, and lazily swept memory is not reused in time): a full
    // collection every few MB of input keeps the peak flat. Documents under GC_EVERY_BYTES never trigger it.
    if ((since += chunk.length) >= GC_EVERY_BYTES) { since = 0; Bun.gc(true); }
  }
  const rest = dec.decode();
  if (rest) r.write(rest);
  return r.end();
}

/** A programme an import left out, and why (`no_end`: the last one without a stop; `bad_time`: stop not after start; `overlap`: a later one starts at the same time). */
export interface SkippedProgramme { title: string; start_ms: number; reason: 'no_end' | 'bad_time' | 'overlap' }

/** Guide fields of one XMLTV channel's programmes; a missing stop takes the next start (the last one is dropped, noted in `skipped`). */
export function xmltvToFields(list: XmltvProgramme[], channel: string, skipped?: SkippedProgramme[]) {
  const mine = list.filter((p) => p.channel === channel).sort((a, b) => a.start_ms - b.start_ms);
  const out = [];
  for (let i = 0; i < mine.length; i++) {
    const p = mine[i];
    const end = p.end_ms ?? mine[i + 1]?.start_ms ?? null;
    if (end === null || end <= p.start_ms) { skipped?.push({ title: p.title, start_ms: p.start_ms, reason: end === null ? 'no_end' : 'bad_time' }); continue; }
    out.push({
      title: p.title, description: [p.subtitle, p.description].filter(Boolean).join(' — ').slice(0, 10000) || null,
      series: p.episode ? p.title : null, episode: p.episode, images: JSON.stringify(p.icon ? { tile_16x9: p.icon } : {}),
      start_ms: p.start_ms, end_ms: Math.min(end, p.start_ms + 48 * 3_600_000), source: 'xmltv',
    });
  }
  return out;
}
