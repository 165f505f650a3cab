import { assertPublicUrl, BlockedAddressError } from '../../kernel/net/safe-fetch';
import { invalid } from '../../kernel/errors';

/**
 * Validates a webhook URL at creation or change: public HTTPS, resolved through the safe fetcher's address checks.
 * Plain http is accepted only when the host resolves to addresses the operator allowlisted (VS_PRIVATE_ALLOWLIST,
 * for labs and tests). Returns the normalized URL.
 */
export async function checkWebhookUrl(raw: string, allowlist: string[]): Promise<string> {
  let u: URL;
  try { u = new URL(raw); } catch { throw invalid('url', 'not a valid absolute URL'); }
  if (u.username || u.password) throw invalid('url', 'must not contain credentials');
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('url', 'must use https');
  u.hash = '';
  const url = u.toString();
  if (u.protocol === 'http:') {
    if (!allowlist.length) throw invalid('url', 'must use https');
    let isPublic = true;
    try { await assertPublicUrl(url, []); } catch (e) {
      if (!(e instanceof BlockedAddressError)) throw e;
      isPublic = false;
    }
    if (isPublic) throw invalid('url', 'must use https (plain http only for allowlisted private addresses)');
  }
  try { await assertPublicUrl(url, allowlist); } catch (e) {
    if (e instanceof BlockedAddressError) throw invalid('url', e.detail);
    throw e;
  }
  return url;
}
