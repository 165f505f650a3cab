import type { AppContext } from '../../kernel/context';
import { AppError, invalid } from '../../kernel/errors';
import { BlockedAddressError, safeFetch } from '../../kernel/net/safe-fetch';
import type { ChannelRow } from '../channels/store';
import { GuideReview } from './review';
import { readXmltv, xmltvToFields, XmltvError, type SkippedProgramme, type XmltvSource } from './xmltv';

/** Largest XMLTV document accepted (upload or URL). */
export const MAX_XMLTV_BYTES = 20 * 1024 * 1024;

/**
 * Imports an XMLTV document into a channel's guide (staged in review mode), streamed: only the programmes of the
 * channel that can be picked are held. The channel is `xmltvChannel`, else the document's only channel, else the
 * one named like the channel's slug. Malformed documents answer 422 (`file`). Size limits are the caller's.
 */
export async function importXmltv(ctx: AppContext, ch: ChannelRow, src: XmltvSource, xmltvChannel?: string, author: string | null = null) {
  let first: string | null = null;
  // Without a named channel, the pick is known only at the end: keep the slug's programmes and the first channel's.
  const keep = xmltvChannel ? (c: string) => c === xmltvChannel : (c: string) => { first ??= c; return c === ch.slug || c === first; };
  let doc;
  try { doc = await readXmltv(src, { keep }); } catch (e) {
    if (e instanceof XmltvError) throw invalid('file', e.message);
    throw e;
  }
  let pick = xmltvChannel;
  if (!pick) {
    if (doc.channels.length === 1) pick = doc.channels[0];
    else if (doc.channels.includes(ch.slug)) pick = ch.slug;
    else throw invalid('xmltv_channel', `the document lists ${doc.channels.length} channels (${doc.channels.slice(0, 10).join(', ')}); name one`);
  } else if (!doc.channels.includes(pick)) throw invalid('xmltv_channel', `no channel "${pick}" in the document`);
  const skipped: SkippedProgramme[] = [];
  const fields = xmltvToFields(doc.programmes, pick, skipped);
  return { xmltv_channel: pick, ...new GuideReview(ctx).importProgrammes(ch, fields, skipped, author) };
}

/** Turns failures while reading a remote body into 422 `url` (as failures before it). */
async function* urlBody(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) yield chunk;
  } catch (e) {
    throw invalid('url', `download failed: ${(e as Error).message}`);
  }
}

/**
 * Opens an XMLTV document through the safe fetcher (private addresses refused, size and time bounded); the body
 * is streamed into the import, never held whole.
 */
export async function fetchXmltv(ctx: AppContext, url: string): Promise<XmltvSource> {
  let res;
  try {
    res = await safeFetch(url, { timeoutMs: 30_000, maxBytes: MAX_XMLTV_BYTES, maxRedirects: 3, allowlist: ctx.config.privateAllowlist });
  } catch (e) {
    if (e instanceof BlockedAddressError) throw invalid('url', e.detail);
    if (e instanceof AppError) throw invalid('url', e.detail);
    throw e;
  }
  if (res.status !== 200 || !res.body) { await res.body?.cancel(); throw invalid('url', `the EPG source answered HTTP ${res.status}`); }
  return urlBody(res.body);
}
