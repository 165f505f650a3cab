/** The receiver's signature check (Node/Bun), one copy for every language of the documentation. */
export const VERIFY_SNIPPET_JS = `\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';
function verify(secret, headers, rawBody) {
  const ts = headers['x-vs-timestamp'], sig = headers['x-vs-signature'] ?? '';
  if (!ts || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const want = 'sha256=' + createHmac('sha256', secret).update(ts + '.' + rawBody).digest('hex');
  return sig.length === want.length && timingSafeEqual(Buffer.from(sig), Buffer.from(want));
}
\`\`\``;

/** Delivery rules and a receiver verification snippet, shown in the OpenAPI document and docs/webhooks.md. */
export const DELIVERY_DOC = `**Deliveries.** Each event is POSTed as \`{id, type, at, customer_id, data}\` with headers \`X-VS-Event\`, \`X-VS-Delivery\` (stable across retries), \`X-VS-Timestamp\` (Unix seconds), \`X-VS-Signature\` (\`sha256=\` + hex HMAC-SHA256 with the endpoint secret over \`timestamp + "." + raw body\`) and \`User-Agent: ViewStream-Webhooks/1\`. Any 2xx within 10 s acknowledges; redirects are not followed and count as failures. Retries after 10 s, 1 min, 5 min, 30 min, 2 h and 12 h; the 7th failed attempt makes the delivery \`dead\`. Deliveries run in parallel and may arrive out of order: order by \`at\`, de-duplicate by \`X-VS-Delivery\`.

Verify over the raw body before parsing (Node/Bun):

${VERIFY_SNIPPET_JS}`;
