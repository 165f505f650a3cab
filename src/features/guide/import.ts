import type { AppContext } from '../../kernel/context';
import { AppError, invalid } from '../../kernel/errors';
import { BlockedAddressError, safeFetch } from '../../kernel/net/safe-fetch';
import type { ChannelRow } from '../channels/store';
import { GuideReview } from './review';
import { parseXmltv, xmltvToFields, XmltvError } from './xmltv';

/** Largest XMLTV document accepted (upload or URL). */
export const MAX_XMLTV_BYTES = 20 * 1024 * 1024;

/** Imports an XMLTV document into a channel's guide (staged in review mode). Malformed documents answer 422. */
export function importXmltv(ctx: AppContext, ch: ChannelRow, xml: string, xmltvChannel?: string) {
  let doc;
  try { doc = parseXmltv(xml); } catch (e) {
    if (e instanceof XmltvError) throw invalid('file', e.message);
    throw e;
  }
  let pick = xmltvChannel;
  if (!pick) {
    if (doc.channels.length === 1) pick = doc.channels[0];
    else if (doc.channels.includes(ch.slug)) pick = ch.slug;
    else throw invalid('xmltv_channel', `the document lists ${doc.channels.length} channels (${doc.channels.slice(0, 10).join(', ')}); name one`);
  } else if (!doc.channels.includes(pick)) throw invalid('xmltv_channel', `no channel "${pick}" in the document`);
  return { xmltv_channel: pick, ...new GuideReview(ctx).importProgrammes(ch, xmltvToFields(doc.programmes, pick)) };
}

/** Downloads an XMLTV document through the safe fetcher (private addresses refused, size and time bounded). */
export async function fetchXmltv(ctx: AppContext, url: string): Promise<string> {
  let res;
  try {
    res = await safeFetch(url, { timeoutMs: 30_000, maxBytes: MAX_XMLTV_BYTES, maxRedirects: 3, allowlist: ctx.config.privateAllowlist });
  } catch (e) {
    if (e instanceof BlockedAddressError) throw invalid('url', e.detail);
    if (e instanceof AppError) throw invalid('url', e.detail);
    throw e;
  }
  if (res.status !== 200 || !res.body) { await res.body?.cancel(); throw invalid('url', `the EPG source answered HTTP ${res.status}`); }
  try { return await new Response(res.body).text(); } catch (e) { throw invalid('url', `download failed: ${(e as Error).message}`); }
}
